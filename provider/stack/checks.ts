/**
 * The checks a JSON Schema cannot express: unique keys, references that resolve to an object of the
 * right kind, one default per level, unique paths per level, section groups, duplicate members.
 *
 * Key namespaces: top-level kinds each have their own (a team and a site may share a key). Inside a
 * site, sections, section groups, site spaces and share links each have their own namespace, and
 * site-space keys are unique across the whole site (root level and every section), so that
 * `<site key>/<site-space key>` names one resource.
 *
 * What an entry's natural key is and which fields refer to another list comes from the kinds'
 * declarations; a site's structure from its resolved model (provider/site, checked in siteChecks.ts).
 * The checks run on data that may also have failed the schema, so every access is guarded.
 */
import { LIMITS_ID, type AnyKind } from "../resources/kind";
import { listedKinds } from "../resources/kinds";
import type { StackFile } from "../file/model";
import type { ResolvedStack } from "./resolve";
import layout from "./layout.json";
import limits from "../../schemas/limits.json";
import { itemsOf, isObject, list, naturalKeys, reference, uniqueKeys, type CheckIssue, type Ctx, type Item, type LineOf, type Namespace } from "./checkKit";
import { checkSite } from "./siteChecks";
import { show, stackSchemaDocument } from "./schema";
import { hiddenCharacterProblem } from "../identifiers";
import { documentUrlIssues, redactUrl } from "../urls";
import { accessIssues } from "../access/checks";
import { gitSyncIssues } from "../gitSync/checks";
import { assistantIssues } from "../assistant/checks";
import { kindOfDefinition, naturalField, refOf, stackFields } from "./stackSchema";

export { describe, type CheckIssue, type LineOf } from "./checkKit";

/** A top-level entry of the stack file: a list of entries of a kind, or (`single`) one object of it. */
interface TopLevel {
  name: string;
  kind: AnyKind;
  /** Its entries have keys (a namespace of their own). */
  keyed: boolean;
  single: boolean;
}

/** The top-level entries of the stack file with their kinds: the layout's, then the listed kinds' lists. */
function topLevel(): TopLevel[] {
  const definitions = layout.definitions as Record<string, { properties?: Record<string, unknown> }>;
  const out: TopLevel[] = [];
  for (const [name, prop] of Object.entries(layout.properties as Record<string, { type?: string; $ref?: string; items?: { $ref?: string } }>)) {
    const single = prop.type !== "array";
    const definition = (single ? prop.$ref : prop.items?.$ref)?.replace("#/definitions/", "");
    const kind = definition === undefined ? undefined : kindOfDefinition(definition);
    if (kind === undefined || definition === undefined) continue;
    out.push({ name, kind, keyed: !single && "key" in (definitions[definition]?.properties ?? {}), single });
  }
  for (const kind of listedKinds()) out.push({ name: kind.list.property, kind, keyed: true, single: false });
  return out;
}

/** Run every cross-object check over a parsed stack file. */
export function checkStack({ stack, sites }: ResolvedStack, lineOf: LineOf): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const ctx: Ctx = {
    lineOf,
    error: (pointer, reason, atKey = false) => issues.push({ pointer, reason, atKey, warning: false }),
    warn: (pointer, reason, atKey = false) => issues.push({ pointer, reason, atKey, warning: true }),
  };
  if (!isObject(stack)) return issues;
  const file = stack as unknown as Record<string, unknown>;

  // Every top-level list of keyed entries is a namespace of keys; its kind says which field is an
  // entry's natural key (the API refuses duplicates of some; for the others, adopt would be ambiguous).
  const lists = topLevel();
  const keys: Record<string, Namespace> = {};
  for (const { name, kind, keyed } of lists) {
    if (!keyed) continue;
    const items = itemsOf(`/${name}`, file[name]);
    keys[name] = uniqueKeys(ctx, items);
    const natural = naturalField(kind);
    if (natural) naturalKeys(ctx, items, natural.as, kind.naturalKey!.enforced);
    if (kind.list?.exactlyOne) exactlyOneOf(ctx, items, kind.list.exactlyOne);
  }

  duplicateUsers(ctx, "/members", list(stack.members), "organisation members");
  list(stack.teams).forEach((team, i) => {
    if (isObject(team)) duplicateUsers(ctx, `/teams/${i}/members`, list(team.members), "members of this team");
  });

  // References by key, wherever a kind spells a field as one, in lists and in the settings object.
  for (const { name, kind, single } of lists) {
    const items: Item[] = single ? (isObject(file[name]) ? [{ pointer: `/${name}`, entry: file[name] as Record<string, unknown> }] : []) : itemsOf(`/${name}`, file[name]);
    for (const field of stackFields(kind)) {
      const target = refOf(field.spec)?.ref;
      if (target === undefined || keys[target] === undefined) continue;
      for (const { pointer, entry } of items) reference(ctx, `${pointer}/${field.as}`, entry[field.as], keys[target], target.replace(/s$/, ""), target);
    }
  }
  // A site's style guide: laid out by hand (its attachment is a kind of its own), so named here.
  list(stack.sites).forEach((site, i) => {
    if (isObject(site) && keys.styleGuides !== undefined) reference(ctx, `/sites/${i}/styleGuide`, site.styleGuide, keys.styleGuides, "style guide", "styleGuides");
  });
  collectionCycles(ctx, list(stack.collections));
  hiddenInNaturalKeys(ctx, stack);

  for (const site of sites) checkSite(ctx, site, keys.spaces ?? new Map());
  for (const issue of accessIssues(stack)) (issue.warning ? ctx.warn : ctx.error)(issue.pointer, issue.reason);
  for (const issue of gitSyncIssues(stack)) ctx.error(issue.pointer, issue.reason);
  for (const issue of assistantIssues(stack)) ctx.error(issue.pointer, issue.reason);
  // Links inside rich text (agent instructions given as a document, any document field) follow the URL rules of plain fields.
  for (const issue of documentUrlIssues(stack)) ctx.error(issue.pointer, `${issue.reason} (got ${show(redactUrl(issue.value))})`);
  return issues;
}

function duplicateUsers(ctx: Ctx, at: string, items: unknown[], who: string): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    if (!isObject(item) || typeof item.user !== "string") return;
    // E-mail addresses are case-insensitive; user IDs are opaque and compared as written.
    const id = item.user.includes("@") ? item.user.toLowerCase() : item.user;
    const first = seen.get(id);
    if (first !== undefined) {
      ctx.error(`${at}/${i}/user`, `user ${show(item.user)} is listed twice among the ${who} (first at line ${ctx.lineOf(`${at}/${first}`)})`);
    } else {
      seen.set(id, i);
    }
  });
}

function collectionCycles(ctx: Ctx, collections: unknown[]): void {
  const parentOfKey = new Map<string, string>();
  const indexOfKey = new Map<string, number>();
  collections.forEach((c, i) => {
    if (!isObject(c) || typeof c.key !== "string") return;
    if (!indexOfKey.has(c.key)) indexOfKey.set(c.key, i);
    if (typeof c.parent === "string") parentOfKey.set(c.key, c.parent);
  });
  const reported = new Set<string>();
  for (const [start, i] of indexOfKey) {
    const chain = [start];
    let current = parentOfKey.get(start);
    while (current !== undefined && !chain.includes(current)) {
      chain.push(current);
      current = parentOfKey.get(current);
    }
    if (current !== start || reported.has(start)) continue;
    chain.forEach((k) => reported.add(k));
    ctx.error(`/collections/${i}/parent`, `collections form a cycle: ${[...chain, start].join(" → ")}`);
  }
}

type SchemaNode = { $ref?: string; pattern?: string; properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[]; oneOf?: SchemaNode[]; "x-naturalKey"?: { field: string } };

/**
 * Natural keys (the titles, names, labels, paths and slugs `adopt` finds objects by) may not hold
 * invisible or text-reordering characters: two objects that read the same would be told apart only by
 * them, and a bidirectional control makes a title read as another in a review. Found through the stack
 * schema's `x-naturalKey` annotations, wherever such an entry sits in the file.
 */
/** The field's schema has a pattern of its own (it then refuses hidden characters, and says so itself). */
function hasPattern(node: SchemaNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.pattern !== undefined) return true;
  const limit = node.$ref?.startsWith(`${LIMITS_ID}#/definitions/`) ? (limits.definitions as Record<string, { pattern?: string }>)[node.$ref.slice(`${LIMITS_ID}#/definitions/`.length)] : undefined;
  return limit?.pattern !== undefined;
}

function hiddenInNaturalKeys(ctx: Ctx, stack: StackFile): void {
  const schema = stackSchemaDocument() as SchemaNode & { definitions: Record<string, SchemaNode> };
  const reported = new Set<string>();
  const resolve = (node: SchemaNode | undefined): SchemaNode | undefined =>
    node?.$ref?.startsWith("#/definitions/") ? schema.definitions[node.$ref.slice("#/definitions/".length)] : node;
  const walk = (node: SchemaNode | undefined, data: unknown, pointer: string): void => {
    const n = resolve(node);
    if (n === undefined || data === null || typeof data !== "object") return;
    for (const branch of [...(n.anyOf ?? []), ...(n.oneOf ?? [])]) walk(branch, data, pointer);
    if (Array.isArray(data)) {
      data.forEach((item, i) => walk(n.items, item, `${pointer}/${i}`));
      return;
    }
    const entry = data as Record<string, unknown>;
    const natural = n["x-naturalKey"]?.field;
    const value = natural === undefined ? undefined : entry[natural];
    const at = `${pointer}/${natural}`;
    if (typeof value === "string" && !reported.has(at) && !hasPattern(n.properties?.[natural!])) {
      const problem = hiddenCharacterProblem(value);
      if (problem) {
        reported.add(at);
        ctx.error(at, problem);
      }
    }
    for (const [key, sub] of Object.entries(n.properties ?? {})) if (key in entry) walk(sub, entry[key], `${pointer}/${key}`);
  };
  walk(schema, stack, "");
}

/** Entries that give neither or both of two fields of which they take exactly one (an OpenAPI spec's `sourceURL` and `file`). */
function exactlyOneOf(ctx: Ctx, items: readonly Item[], [a, b]: readonly [string, string]): void {
  for (const { pointer, entry } of items) {
    const given = [a, b].filter((f) => entry[f] !== undefined && entry[f] !== null);
    if (given.length === 2) ctx.error(`${pointer}/${b}`, `give exactly one of ${a} and ${b}, not both`, true);
    if (given.length === 0) ctx.error(pointer, `give exactly one of ${a} and ${b}`);
  }
}
