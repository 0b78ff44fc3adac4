/**
 * The Pulumi classes of the kinds (`new Site(...)`), one row each, made from the kind's declaration: the
 * kind's inputs are the class's args, its outputs the class's typed Output properties, and its provider
 * the kind's shim under provider/providers/, required when a resource is constructed. No kind module
 * imports this one, so a kind never imports the shim that imports it, and the kinds never load
 * `@pulumi/pulumi` where the plugin runs them.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { HELD_INPUT, kindFileName, makesObjects, kindOptions, registeredInputs, withOutputSlots, type FieldSpec, type KindDefinition, type ResourceArgs } from "../resources/kind";
import { held } from "./held";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { siteStructureOrderKind } from "../resources/siteStructureOrder";
import { siteAdaptiveSchemaKind } from "../resources/siteAdaptiveSchema";
import { shareLinkKind } from "../resources/shareLink";
import { siteRedirectsKind } from "../resources/siteRedirects";
import { siteCustomizationKind } from "../resources/siteCustomization";
import { siteSpaceCustomizationKind } from "../resources/siteSpaceCustomization";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import { siteMcpServerKind } from "../resources/siteMcpServer";
import { siteAgentSettingsKind } from "../resources/siteAgentSettings";
import { siteAgentChannelKind } from "../resources/siteAgentChannel";
import { siteContextConnectionKind } from "../resources/siteContextConnection";
import { teamKind } from "../resources/team";
import { teamMembersKind } from "../resources/teamMembers";
import { samlProviderKind } from "../resources/samlProvider";
import { openApiSpecKind } from "../resources/openApiSpec";
import { agentInstructionsKind } from "../resources/agentInstructions";
import { styleGuideKind } from "../resources/styleGuide";
import { siteStyleGuideKind } from "../resources/siteStyleGuide";
import { collectionKind } from "../resources/collection";
import { spaceKind } from "../resources/space";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { memberRoleKind } from "../resources/memberRole";
import { translationSettingsKind } from "../resources/translationSettings";
import { integrationKind } from "../resources/integration";
import { integrationInstallationKind } from "../resources/integrationInstallation";
import { permissionsKind } from "../resources/permissions";
import { visitorAuthKind } from "../resources/visitorAuth";
import { siteGitSyncKind } from "../resources/siteGitSync";

/** The former names an object's options give as aliases (`previousKeys`). */
function aliasNames(opts: pulumi.CustomResourceOptions | undefined): string[] {
  return (opts?.aliases ?? []).flatMap((a) => (typeof a === "object" && a !== null && typeof (a as { name?: unknown }).name === "string" ? [(a as { name: string }).name] : []));
}

/** A resource of a kind: a dynamic resource with one typed Output property per output of the kind. */
export type KindResource<O extends object> = pulumi.dynamic.Resource & { readonly [K in keyof O]-?: pulumi.Output<O[K]> };

/** The class of a kind: `new Kind(name, args, opts)`. */
export type KindClass<I extends object, O extends object> = new (name: string, args: ResourceArgs<I>, opts?: pulumi.CustomResourceOptions) => KindResource<O>;

/**
 * The class of a kind, registered as `pulumi-nodejs:dynamic/docsplatform:<name>` with the kind's
 * provider: the module `provider/providers/<kind>`, whose whole `module.exports` is the provider, so
 * that an installed package serialises it as one `require()`.
 *
 * Its instances are `pulumi.dynamic.Resource`s and register exactly what `dynamic.Resource` registers
 * (the type, the inputs and the `__provider` text, see {@link providerText}); the constructor goes
 * straight to `CustomResource`'s, so that the SDK's closure serialisation runs once per program rather
 * than once per kind (measured in bench/).
 */
export function kindClass<I extends object, O extends object>(kind: KindDefinition<I, O>): KindClass<I, O> {
  const file = kindFileName(kind.name);
  const shim = `../providers/${file}`;
  const type = `pulumi-nodejs:dynamic/docsplatform:${kind.name}`;
  const outputs = kind.outputs ?? [];
  const cls = class extends pulumi.CustomResource {
    constructor(name: string, args: ResourceArgs<I>, opts?: pulumi.CustomResourceOptions) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
      const provider = require(shim) as object;
      const props = registeredInputs(kind.fields as Record<string, FieldSpec>, withOutputSlots(args, outputs));
      if (props[PROVIDER_KEY] !== undefined) throw new Error(`${kind.name}: a dynamic resource must not define the ${PROVIDER_KEY} key`);
      props[PROVIDER_KEY] = providerText(file, provider, () => require.resolve(shim));
      // A kind whose create makes objects may find one by its natural key: recorded as held, and told what its siblings hold (held.ts).
      const keyed = makesObjects(kind);
      const aliases = keyed ? aliasNames(opts) : [];
      const siblings = keyed ? held.siblingsHeld(kind.name, name, aliases) : undefined;
      if (siblings !== undefined) props[HELD_INPUT] = siblings;
      super(type, name, props, kindOptions(kind, opts));
      if (keyed) held.declare(kind.name, name, aliases, this.id);
    }
  };
  // `instanceof pulumi.dynamic.Resource` holds, as for a class that extends it.
  Object.setPrototypeOf(cls.prototype, pulumi.dynamic.Resource.prototype);
  Object.defineProperty(cls, "name", { value: kind.name });
  CLASSES.set(kind.name, cls as unknown as KindClass<object, object>);
  return cls as unknown as KindClass<I, O>;
}

/** The input under which a dynamic resource carries its serialised provider. */
const PROVIDER_KEY = "__provider";

/** The first shim serialised in this process, and its text: the others' texts are made from it. */
let first: { file: string; text: Promise<string> } | undefined;
const texts = new Map<string, string | Promise<string>>();

/**
 * A shim's serialised provider, the text `dynamic.Resource` registers for it: the SDK's serialisation
 * of the closure `() => provider`, which for a module of an installed package is one `require()` of it.
 *
 * The SDK's closure serialiser inspects the closure through the V8 inspector, about 250 ms of CPU on
 * the first call of a program (it enables the debugger over every loaded script), before any resource
 * can register. For a shim, whose whole module is the provider, what it makes is known in advance: the
 * text of {@link requireText} around the module specifier the serialiser computes from the shim's path
 * (its own `getModuleFromPath`, after the `node_modules` segment it picks). So the text is made here
 * from that specifier; where it cannot be (the SDK without that function, or the shim not under a
 * `node_modules` of the program's working directory), the first shim is serialised by the SDK and the
 * others' texts are that one with the module's file name changed. serialization.test.ts checks every
 * kind's text against `dynamic.Resource`'s own.
 *
 * A text that is not a `require()` of the package (the package loaded from outside the program's
 * node_modules, or the program run from inside the package, so that the SDK would copy the provider's
 * code and module state into every resource) fails the resource's registration, before any API call.
 */
function providerText(file: string, provider: object, shimPath: () => string): string | Promise<string> {
  let text = texts.get(file);
  if (text !== undefined) return text;
  const spec = moduleSpecifier(shimPath());
  if (spec !== undefined) {
    text = requireText(spec);
  } else if (first === undefined) {
    const made = serialised(provider).then((t) => required(t, file));
    first = { file, text: made };
    text = made;
  } else {
    const from = first;
    text = from.text.then((t) => required(t.replace(shimSpec(from.file), shimSpec(file)), file));
  }
  texts.set(file, text);
  return text;
}

/** The SDK's serialisation of a closure `() => provider` whose `provider` is the module `spec`. */
function requireText(spec: string): string {
  return [
    "exports.handler = __f0;",
    `const provider = require(${JSON.stringify(spec)});`,
    "",
    "function __f0() {",
    "  return (function() {",
    "    with({ this: undefined, arguments: undefined }) {",
    "",
    "return () => provider;",
    "",
    "    }",
    "  }).apply(undefined, undefined).apply(this, arguments);",
    "}",
    "",
  ].join("\n");
}

/** The SDK's module path mapping (runtime/closure/package.js), when this SDK has it. */
let sdkPackages: { getModuleFromPath(path: string): string } | null | undefined;

/**
 * The specifier the SDK's closure serialiser gives the module at `file` (createClosure.js): its path
 * relative to the working directory, from the `node_modules` segment on (the last one in a pnpm store),
 * mapped through the package's `exports`. Undefined when the serialiser would not name it so.
 */
function moduleSpecifier(file: string): string | undefined {
  if (sdkPackages === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's own mapping, so the specifier is the one it makes
      const mod = require("@pulumi/pulumi/runtime/closure/package") as { getModuleFromPath?: unknown };
      sdkPackages = typeof mod.getModuleFromPath === "function" ? (mod as { getModuleFromPath(path: string): string }) : null;
    } catch {
      sdkPackages = null;
    }
  }
  if (sdkPackages === null) return undefined;
  const parts = `./${unixPath(path.relative(process.cwd(), file))}`.split("/");
  const at = parts.includes(".pnpm") ? parts.lastIndexOf("node_modules") : parts.indexOf("node_modules");
  if (at < 0) return undefined;
  const spec = sdkPackages.getModuleFromPath(unixPath(path.posix.join(...parts.slice(at + 1))));
  return typeof spec === "string" && spec.endsWith(`/providers/${path.basename(file)}`) ? spec : undefined;
}

/** A path with `/` separators (what the SDK's `upath` makes of it). */
function unixPath(p: string): string {
  return p.replace(/\\/g, "/").replace(/(?<!^)\/+/g, "/");
}

/** The SDK's serialisation of the closure `dynamic.Resource` serialises. */
function serialised(provider: object): Promise<string> {
  return pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true }).then((f) => f.text);
}

/** How a serialised provider names the shim `file` at the end of its `require()`. */
function shimSpec(file: string): string {
  return `/providers/${file}.js")`;
}

/** `text` if it is the serialised shim `file` as one `require()` of the package; else the error saying why not. */
function required(text: string, file: string): string {
  const header = /^exports\.handler = __f0;\nconst provider = require\("[^"\n]*\/providers\/[A-Za-z]+\.js"\);\n/;
  if (header.test(text) && text.split(shimSpec(file)).length === 2) return text;
  throw new Error(
    `the provider module providers/${file}.js is not serialised as a require() of the installed package pulumi-docsplatform: ` +
      "the package must be installed in the project's node_modules (npm install, not a link) and the program must run from the project " +
      "(point at the ready-made program with package.json `main`, not Pulumi.yaml `main`)",
  );
}

const CLASSES = new Map<string, KindClass<object, object>>();

/** The class of a kind, for code that walks the list of kinds (the stack file's component). */
export function classOf<I extends object, O extends object>(kind: KindDefinition<I, O>): KindClass<I, O> {
  const cls = CLASSES.get(kind.name);
  if (cls === undefined) throw new Error(`internal error: kind ${kind.name} has no class in provider/classes/index.ts`);
  return cls as unknown as KindClass<I, O>;
}

/** A docs site. */
export const Site = kindClass(siteKind);
export type Site = InstanceType<typeof Site>;

/** A section of a site. */
export const SiteSection = kindClass(siteSectionKind);
export type SiteSection = InstanceType<typeof SiteSection>;

/** A group of sections of a site. */
export const SiteSectionGroup = kindClass(siteSectionGroupKind);
export type SiteSectionGroup = InstanceType<typeof SiteSectionGroup>;

/** A space published in a site. */
export const SiteSpace = kindClass(siteSpaceKind);
export type SiteSpace = InstanceType<typeof SiteSpace>;

/** The declared display order of a site's sections, section groups and site spaces. */
export const SiteStructureOrder = kindClass(siteStructureOrderKind);
export type SiteStructureOrder = InstanceType<typeof SiteStructureOrder>;

/** The adaptive-content visitor schema of a site. */
export const SiteAdaptiveSchema = kindClass(siteAdaptiveSchemaKind);
export type SiteAdaptiveSchema = InstanceType<typeof SiteAdaptiveSchema>;

/** The whole redirect set of a site: redirects not listed are deleted. */
export const SiteRedirects = kindClass(siteRedirectsKind);
export type SiteRedirects = InstanceType<typeof SiteRedirects>;

/** A site's customization (look, header, footer, AI): declared members are the file's, the rest keep the look recorded when it first applied. */
export const SiteCustomization = kindClass(siteCustomizationKind);
export type SiteCustomization = InstanceType<typeof SiteCustomization>;

/** A site space's overrides of its site's customization: removed members are cleared, destroy removes them all. */
export const SiteSpaceCustomization = kindClass(siteSpaceCustomizationKind);
export type SiteSpaceCustomization = InstanceType<typeof SiteSpaceCustomization>;

/** A navigation entry leading away from the site, at the root or in a section group. */
export const SiteExternalLink = kindClass(siteExternalLinkKind);
export type SiteExternalLink = InstanceType<typeof SiteExternalLink>;

/** A share link of a site; its `url` (with the secret token) is stored as a secret. */
export const ShareLink = kindClass(shareLinkKind);
export type ShareLink = InstanceType<typeof ShareLink>;

/** A team of an organization. Its membership is declared with `TeamMembers`. */
export const Team = kindClass(teamKind);
export type Team = InstanceType<typeof Team>;

/** The whole membership set of one team: declared members are added with their roles, others removed. */
export const TeamMembers = kindClass(teamMembersKind);
export type TeamMembers = InstanceType<typeof TeamMembers>;

/** A SAML single sign-on provider of an organization. */
export const SamlProvider = kindClass(samlProviderKind);
export type SamlProvider = InstanceType<typeof SamlProvider>;

/** An OpenAPI specification stored by the platform, fetched from `sourceURL` or sent as `text`. */
export const OpenAPISpec = kindClass(openApiSpecKind);
export type OpenAPISpec = InstanceType<typeof OpenAPISpec>;

/** A collection: a nestable group of spaces. */
export const Collection = kindClass(collectionKind);
export type Collection = InstanceType<typeof Collection>;

/** Settings of an existing space: title, emoji, editMode, defaultLevel, parent collection. */
export const Space = kindClass(spaceKind);
export type Space = InstanceType<typeof Space>;

/** Settings of an existing organization; destroying the resource restores the values it replaced. */
export const OrganizationSettings = kindClass(organizationSettingsKind);
export type OrganizationSettings = InstanceType<typeof OrganizationSettings>;

/** The organization role of an existing member; destroying the resource restores the previous role. */
export const MemberRole = kindClass(memberRoleKind);
export type MemberRole = InstanceType<typeof MemberRole>;

/** Translation settings of an organization. */
export const TranslationSettings = kindClass(translationSettingsKind);
export type TranslationSettings = InstanceType<typeof TranslationSettings>;

/** An integration published by the organisation; `secrets` (digests only) is stored as a secret. */
export const Integration = kindClass(integrationKind);
export type Integration = InstanceType<typeof Integration>;

/** The whole set of direct grants of teams and users on one site, space or collection. */
export const Permissions = kindClass(permissionsKind);
export type Permissions = InstanceType<typeof Permissions>;

/** A site's visitor authentication settings; its `privateKey` is stored as a secret. */
export const VisitorAuth = kindClass(visitorAuthKind);
export type VisitorAuth = InstanceType<typeof VisitorAuth>;

/** An integration installed on the organisation and enabled on sites and spaces; `secretConfiguration` (digests) is a secret. */
export const IntegrationInstallation = kindClass(integrationInstallationKind);
export type IntegrationInstallation = InstanceType<typeof IntegrationInstallation>;

/** A site's Git Sync installation; the GitLab `accessToken` (a digest) is stored as a secret. */
export const SiteGitSync = kindClass(siteGitSyncKind);
export type SiteGitSync = InstanceType<typeof SiteGitSync>;

/** An external MCP server the site's assistant may call; its `headers` (digests only) are a secret output. */
export const SiteMcpServer = kindClass(siteMcpServerKind);
export type SiteMcpServer = InstanceType<typeof SiteMcpServer>;

/** A site's agent settings (scans, findings, the editing agent's instructions), replaced whole. */
export const SiteAgentSettings = kindClass(siteAgentSettingsKind);
export type SiteAgentSettings = InstanceType<typeof SiteAgentSettings>;

/** An external tool where the site's agent works (Slack, Linear, GitHub, Discord) and its role there. */
export const SiteAgentChannel = kindClass(siteAgentChannelKind);
export type SiteAgentChannel = InstanceType<typeof SiteAgentChannel>;

/** An external source the site's agent learns from; its `secretSettings` (digests only) are a secret output. */
export const SiteContextConnection = kindClass(siteContextConnectionKind);
export type SiteContextConnection = InstanceType<typeof SiteContextConnection>;
/** A style guide space, made for a site or taken over by ID; never deleted by the provider. */
export const StyleGuide = kindClass(styleGuideKind);
export type StyleGuide = InstanceType<typeof StyleGuide>;

/** The style guide attached to a site; deleting the resource detaches it. */
export const SiteStyleGuide = kindClass(siteStyleGuideKind);
export type SiteStyleGuide = InstanceType<typeof SiteStyleGuide>;

/** The organisation's instructions for the platform's docs agent (markdown); never cleared by the provider. */
export const AgentInstructions = kindClass(agentInstructionsKind);
export type AgentInstructions = InstanceType<typeof AgentInstructions>;
