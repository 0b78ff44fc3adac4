/**
 * The component that turns a stack file into resources: `new DocsPlatform("handbook", { file: "docs.yaml" })`
 * loads and validates the file, then declares one resource per object of it, named from the keys.
 *
 * Names: `<component>/<key>` for top-level objects, `<component>/<site key>/<key>` for the objects of a
 * site (sections, section groups, site spaces, share links), `<component>/<site key>` for the site and its
 * per-site resources (adaptive schema, structure order), `<component>/member/<user>` for member roles.
 * Keys cannot contain `/`, so names never collide, and they do not depend on the order of the file: moving
 * an entry keeps its URN. Renaming a key changes the URN, which replaces the object unless the old key is
 * kept in `previousKeys` (it becomes a Pulumi alias).
 *
 * Dependencies come from data: a child takes its parent's ID as an Output (a section its site's ID and
 * its space's, a SAML provider its default team's, organisation settings the default site's), so the
 * engine creates parents first and deletes children first. Siblings are independent and created in
 * parallel; one SiteStructureOrder per site, which depends on every section, group and site space of the
 * site, then restores the declared order.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { DeclaredSources } from "../stack/declared";
import { Declarer, type DocsPlatformResources } from "./declarer";
import { projectRoot } from "../stack/projectFiles";
import { runtimeSources, secretSourceIssues, type SecretLookup } from "../stack/sources";
import { gitSyncSourceIssues } from "../gitSync/checks";
import { failureHeadline, formatProblem, loadStackFile, type Problem } from "../stack/load";
import { declareQuietly } from "./registration";
import { held, type HeldMap } from "../classes/held";
import { kindByName } from "../resources/kinds";
import type { StackFile } from "../file/model";
import type { ResolvedStack } from "../stack/resolve";

export type { DocsPlatformResources, ListedResources, SiteResources } from "./declarer";

/** Pulumi type token of the component. */
export const DOCS_PLATFORM_TYPE = "docsplatform:index:DocsPlatform";

/** Arguments of a {@link DocsPlatform}. */
export interface DocsPlatformArgs {
  /** Path of the stack file, relative to the program's folder (the working directory of `pulumi up`). */
  file: string;
  /** Organisation to manage instead of the file's `organization` (e.g. one per Pulumi stack). */
  organizationId?: string;
}

/**
 * A stack file that failed to load: every problem, as `file:line:col: message`. A mistake in the user's
 * file, not in code: it is a `RunError`, which the language host prints as its message alone, without
 * a stack trace or a dump of the error's fields.
 */
export class StackFileError extends pulumi.RunError {
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
    laterSyntaxErrors?: number,
  ) {
    super(`${failureHeadline(file, problems, laterSyntaxErrors)}:\n${problems.map(formatProblem).join("\n")}`);
    this.name = "StackFileError";
  }
}

/**
 * Loads a stack file for the component: the typed model, or a {@link StackFileError} listing every
 * problem. Warnings are returned for the caller to report.
 */
export function loadForComponent(file: string): ResolvedStack & { warnings: Problem[]; sources: DeclaredSources; locate: (pointer: string) => string } {
  const result = loadStackFile(file);
  if (!result.ok) throw new StackFileError(file, result.problems, result.laterSyntaxErrors);
  // `file:line:col` of a place in the file, for errors raised later (the lock-out guard's).
  const locate = (pointer: string): string => {
    const p = result.problemAt?.(pointer, "");
    return p ? `${p.file}:${p.line}:${p.col}` : file;
  };
  return { stack: result.stack, sites: result.sites, warnings: result.warnings, sources: sourcesFor(file, result.stack, result.problemAt), locate };
}

/**
 * What the file names rather than holds, read as the program runs: files next to it, and secret
 * values from Pulumi config or the environment. A secret whose source is not set is a problem of the
 * stack file, reported before any resource is registered.
 */
function sourcesFor(file: string, stack: StackFile, problemAt?: (pointer: string, message: string) => Problem): DeclaredSources {
  const lookup: SecretLookup = {
    config(key) {
      const at = key.indexOf(":");
      return at < 0 ? new pulumi.Config().get(key) : new pulumi.Config(key.slice(0, at)).get(key.slice(at + 1));
    },
    env: (name) => process.env[name],
  };
  const unset = [...secretSourceIssues(stack, lookup), ...gitSyncSourceIssues(stack, lookup)];
  if (unset.length > 0) {
    const located = unset.map((i) => problemAt?.(i.pointer, i.reason) ?? { file, line: 1, col: 1, path: i.pointer, message: i.reason });
    throw new StackFileError(file, located);
  }
  const dir = path.dirname(file);
  return runtimeSources({ dir, root: projectRoot(dir) }, lookup, (values) => pulumi.secret(values));
}

/**
 * A whole docs platform declared by one stack file. Construction loads and validates the file
 * synchronously: an invalid file throws a {@link StackFileError} before any resource is registered.
 */
export class DocsPlatform extends pulumi.ComponentResource {
  /** The loaded stack file. */
  readonly stack: StackFile;
  /** The organisation the resources belong to. */
  readonly organizationId: string;
  /** Every declared resource, by key. */
  readonly resources: DocsPlatformResources;
  /** Site key → site ID. */
  readonly siteIds: pulumi.Output<Record<string, string>>;
  /** Site key → published URL (null while a site is unpublished). */
  readonly siteUrls: pulumi.Output<Record<string, string | null>>;
  /** Site key → section key → section ID. */
  readonly sectionIds: pulumi.Output<Record<string, Record<string, string>>>;
  /** Team key → team ID. */
  readonly teamIds: pulumi.Output<Record<string, string>>;
  /**
   * The IDs the stack's resources hold, by kind and resource name: a secret. A program exports it as
   * `docsplatformHeld` (HELD_OUTPUT) so that the next run never takes them over by a natural key.
   */
  readonly held: pulumi.Output<HeldMap>;
  /** Site key → share-link key → URL with the link's token: a secret. */
  readonly shareLinkUrls: pulumi.Output<Record<string, Record<string, string | null>>>;

  constructor(name: string, args: DocsPlatformArgs, opts?: pulumi.ComponentResourceOptions) {
    // Load before registering anything: a bad file must not reach the API.
    const loaded = loadForComponent(args.file);
    const { stack, warnings, sources, locate } = loaded;
    super(DOCS_PLATFORM_TYPE, name, { file: args.file }, opts);
    for (const w of warnings) void pulumi.log.warn(formatProblem(w), this);

    this.stack = stack;
    this.organizationId = args.organizationId ?? stack.organization;
    // What the last run held, read before any resource is declared (held.ts): a create never takes it over.
    held.start();
    // The SDK's promise stacks formatted short while declaring; restored before any other code runs (registration.ts).
    this.resources = declareQuietly(() => new Declarer(name, this, this.organizationId, loaded, sources, locate).declare());
    // What a key that left the file does, said before any write; the held IDs wait for the words.
    const said = held.departures((k) => kindByName(k)?.noun ?? { one: k, many: `${k} objects` }).then(async (lines) => {
      for (const line of lines) await pulumi.log.warn(line, this);
    });
    this.held = pulumi.all([held.output(), said]).apply(([map]) => map);

    const sites = Object.entries(this.resources.sites);
    this.siteIds = record(sites.map(([k, r]) => [k, r.site.id]));
    this.siteUrls = record(sites.map(([k, r]) => [k, r.site.urls.apply((u) => u?.published ?? null)]));
    this.sectionIds = record(sites.map(([k, r]) => [k, record(Object.entries(r.sections).map(([sk, s]) => [sk, s.id]))]));
    this.teamIds = record(Object.entries(this.resources.teams).map(([k, t]) => [k, t.id]));
    this.shareLinkUrls = record(
      sites.map(([k, r]) => [k, record(Object.entries(r.shareLinks).map(([lk, l]) => [lk, l.url.apply((u) => u ?? null)]))]),
    );
    this.registerOutputs({
      file: args.file,
      organizationId: this.organizationId,
      siteIds: this.siteIds,
      siteUrls: this.siteUrls,
      sectionIds: this.sectionIds,
      teamIds: this.teamIds,
      shareLinkUrls: this.shareLinkUrls,
    });
  }
}

/** An Output of a record from entries whose values are Outputs. */
function record<T>(entries: [string, pulumi.Input<T>][]): pulumi.Output<Record<string, T>> {
  const keys = entries.map(([k]) => k);
  return pulumi.all(entries.map(([, v]) => v)).apply((values) => {
    const out: Record<string, T> = {};
    keys.forEach((k, i) => (out[k] = values[i] as T));
    return out;
  });
}
