/**
 * The Pulumi classes of the kinds (`new Site(...)`), one row each, made from the kind's declaration: the
 * kind's inputs are the class's args, its outputs the class's typed Output properties, and its provider
 * the kind's shim under provider/providers/, required when a resource is constructed. No kind module
 * imports this one, so a kind never imports the shim that imports it, and the kinds never load
 * `@pulumi/pulumi` where the plugin runs them.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindFileName, kindOptions, withOutputSlots, type KindDefinition, type ResourceArgs } from "../resources/kind";
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
import { teamKind } from "../resources/team";
import { teamMembersKind } from "../resources/teamMembers";
import { samlProviderKind } from "../resources/samlProvider";
import { openApiSpecKind } from "../resources/openApiSpec";
import { collectionKind } from "../resources/collection";
import { spaceKind } from "../resources/space";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { memberRoleKind } from "../resources/memberRole";
import { translationSettingsKind } from "../resources/translationSettings";
import { integrationKind } from "../resources/integration";
import { integrationInstallationKind } from "../resources/integrationInstallation";
import { permissionsKind } from "../resources/permissions";
import { visitorAuthKind } from "../resources/visitorAuth";

/** A resource of a kind: a dynamic resource with one typed Output property per output of the kind. */
export type KindResource<O extends object> = pulumi.dynamic.Resource & { readonly [K in keyof O]-?: pulumi.Output<O[K]> };

/** The class of a kind: `new Kind(name, args, opts)`. */
export type KindClass<I extends object, O extends object> = new (name: string, args: ResourceArgs<I>, opts?: pulumi.CustomResourceOptions) => KindResource<O>;

/**
 * The class of a kind, registered as `pulumi-nodejs:dynamic/docsplatform:<name>` with the kind's
 * provider: the module `provider/providers/<kind>`, whose whole `module.exports` is the provider, so
 * that an installed package serialises it as one `require()`.
 */
export function kindClass<I extends object, O extends object>(kind: KindDefinition<I, O>): KindClass<I, O> {
  const shim = `../providers/${kindFileName(kind.name)}`;
  const outputs = kind.outputs ?? [];
  const cls = class extends pulumi.dynamic.Resource {
    constructor(name: string, args: ResourceArgs<I>, opts?: pulumi.CustomResourceOptions) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
      const provider = require(shim) as pulumi.dynamic.ResourceProvider;
      super(provider, name, withOutputSlots(args, outputs), kindOptions(kind, opts), "docsplatform", kind.name);
    }
  };
  Object.defineProperty(cls, "name", { value: kind.name });
  CLASSES.set(kind.name, cls as unknown as KindClass<object, object>);
  return cls as unknown as KindClass<I, O>;
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

/** An OpenAPI specification stored by the platform, fetched from `sourceURL`. */
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
