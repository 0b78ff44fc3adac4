/**
 * The checks a JSON Schema cannot express: unique keys, references that resolve to an object of the
 * right kind, one default per level, unique paths per level, section groups, duplicate members.
 *
 * Key namespaces: top-level kinds each have their own (a team and a site may share a key). Inside a
 * site, sections, section groups, site spaces and share links each have their own namespace, and
 * site-space keys are unique across the whole site (root level and every section), so that
 * `<site key>/<site-space key>` names one resource.
 *
 * The checks run on data that may also have failed the schema, so every access is guarded.
 */
import type { StackFile, StackSection, StackSite, StackSiteSpace } from "./model";
import { dottedPath } from "../pointer";
import { derivePath, KEY_PATTERN } from "../rules";
import { show, stackSchemaDocument } from "./schema";
import { conditionIssues } from "../conditions";

/** One finding of a check, before it is given a file position. */
export interface CheckIssue {
  pointer: string;
  reason: string;
  /** Point at the mapping key rather than the value. */
  atKey: boolean;
  /** A warning does not make the file invalid. */
  warning: boolean;
}

const KEY = new RegExp(KEY_PATTERN);

/** Finds the line of an object, to cite the first of two clashing entries. */
export type LineOf = (pointer: string) => number;

/** Run every cross-object check over a parsed stack file. */
export function checkStack(stack: StackFile, lineOf: LineOf): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const ctx: Ctx = {
    lineOf,
    error: (pointer, reason, atKey = false) => issues.push({ pointer, reason, atKey, warning: false }),
    warn: (pointer, reason, atKey = false) => issues.push({ pointer, reason, atKey, warning: true }),
  };
  if (!isObject(stack)) return issues;

  // Every top-level list of keyed entries is a namespace of keys; the schema's annotations say which
  // field is an entry's natural key and which fields refer to another list.
  const lists = entryLists();
  const keys: Record<string, Namespace> = {};
  for (const { name, definition } of lists) {
    if (propertiesOf(definition).key !== undefined) keys[name] = uniqueKeys(ctx, `/${name}`, list(stack[name as keyof StackFile]));
  }
  // Natural keys: the API refuses duplicates of some; for the others, adopt would be ambiguous.
  for (const { name, definition } of lists) {
    const natural = definition["x-naturalKey"] as { field: string; enforced?: string } | undefined;
    if (natural && propertiesOf(definition).key !== undefined) {
      naturalKeys(ctx, `/${name}`, list(stack[name as keyof StackFile]), natural.field, natural.enforced ?? "", natural.enforced !== undefined);
    }
  }

  duplicateUsers(ctx, "/members", list(stack.members), "organisation members");
  list(stack.teams).forEach((team, i) => {
    if (isObject(team)) duplicateUsers(ctx, `/teams/${i}/members`, list(team.members), "members of this team");
  });

  // References by key, wherever the schema marks one (`x-ref`), in lists and in the settings object.
  const referencesOf = (at: string, entry: unknown, definition: Record<string, unknown>): void => {
    if (!isObject(entry)) return;
    for (const [field, prop] of Object.entries(propertiesOf(definition))) {
      const target = (prop as { "x-ref"?: string })["x-ref"];
      if (target === undefined || keys[target] === undefined) continue;
      reference(ctx, `${at}/${field}`, entry[field], keys[target], target.replace(/s$/, ""), target);
    }
  };
  for (const { name, definition, single } of lists) {
    const value = stack[name as keyof StackFile];
    if (single) referencesOf(`/${name}`, value, definition);
    else list(value).forEach((entry, i) => referencesOf(`/${name}/${i}`, entry, definition));
  }
  collectionCycles(ctx, list(stack.collections));

  const spaceTitles = new Map<string, string>();
  for (const s of list(stack.spaces)) {
    if (isObject(s) && typeof s.key === "string" && typeof s.title === "string") spaceTitles.set(s.key, s.title);
  }
  list(stack.sites).forEach((site, i) => {
    if (isObject(site)) checkSite(ctx, `/sites/${i}`, site, keys.spaces ?? new Map(), spaceTitles);
  });
  return issues;
}

interface Ctx {
  lineOf: LineOf;
  error(pointer: string, reason: string, atKey?: boolean): void;
  warn(pointer: string, reason: string, atKey?: boolean): void;
}

/** Keys of one namespace: key → pointer of the object that declares it. */
type Namespace = Map<string, string>;

function checkSite(ctx: Ctx, at: string, site: Loose, spaceKeys: Namespace, spaceTitles: Map<string, string>): void {
  const sections = list(site.sections);
  const rootSpaces = list(site.siteSpaces);

  const sectionKeys = uniqueKeys(ctx, `${at}/sections`, sections, "among the sections of this site");
  uniqueKeys(ctx, `${at}/sectionGroups`, list(site.sectionGroups), "among the section groups of this site");
  uniqueKeys(ctx, `${at}/shareLinks`, list(site.shareLinks), "among the share links of this site");
  for (const name of ["sectionGroups", "shareLinks"] as const) {
    const natural = siteListDefinition(name)["x-naturalKey"] as { field: string } | undefined;
    if (natural) naturalKeys(ctx, `${at}/${name}`, list(site[name]), natural.field, "", false);
  }

  // Site spaces: one namespace over the root level and every section.
  const siteSpaceKeys: Namespace = new Map();
  const siteSpaceLevel = new Map<string, string>();
  const claimSiteSpace = (key: unknown, keyPointer: string, objectPointer: string, level: string, derived: boolean): void => {
    if (typeof key !== "string") return;
    const first = siteSpaceKeys.get(key);
    if (first !== undefined) {
      const how = derived ? ` (the site space of a section given by 'space' takes the section's key)` : "";
      ctx.error(keyPointer, `duplicate key ${show(key)}: already used by the site space at ${describe(first)} (line ${ctx.lineOf(first)}); site-space keys are unique within a site${how}`);
      return;
    }
    siteSpaceKeys.set(key, objectPointer);
    siteSpaceLevel.set(key, level);
  };
  rootSpaces.forEach((ss, j) => {
    if (isObject(ss)) claimSiteSpace(ss.key, `${at}/siteSpaces/${j}/key`, `${at}/siteSpaces/${j}`, "root", false);
  });

  if (sections.length > 0 && rootSpaces.length > 0) {
    ctx.error(
      `${at}/siteSpaces`,
      "a site with sections keeps its site spaces inside its sections; root-level siteSpaces are only for sites without sections",
      true,
    );
  }

  sections.forEach((section, j) => {
    if (!isObject(section)) return;
    const sp = `${at}/sections/${j}`;
    const hasSpace = section.space !== undefined;
    const hasList = section.siteSpaces !== undefined;
    if (hasSpace && hasList) {
      ctx.error(`${sp}/siteSpaces`, "give either space (one site space) or siteSpaces, not both; list the section's first site space in siteSpaces", true);
    } else if (!hasSpace && !hasList) {
      ctx.error(sp, "needs either space (the space of its one site space) or siteSpaces (its site spaces, the first created with the section)");
    }
    if (hasSpace) {
      reference(ctx, `${sp}/space`, section.space, spaceKeys, "space", "spaces");
      if (!hasList) claimSiteSpace(section.key, `${sp}/key`, sp, sp, true);
    }
    list(section.siteSpaces).forEach((ss, k) => {
      if (isObject(ss)) claimSiteSpace(ss.key, `${sp}/siteSpaces/${k}/key`, `${sp}/siteSpaces/${k}`, sp, false);
    });
  });

  // References to spaces, and paths at each level.
  rootSpaces.forEach((ss, j) => {
    if (isObject(ss)) reference(ctx, `${at}/siteSpaces/${j}/space`, ss.space, spaceKeys, "space", "spaces");
  });
  siteSpacePaths(ctx, `${at}/siteSpaces`, rootSpaces, "at the root of this site", spaceTitles);
  sections.forEach((section, j) => {
    if (!isObject(section)) return;
    const sp = `${at}/sections/${j}`;
    list(section.siteSpaces).forEach((ss, k) => {
      if (isObject(ss)) reference(ctx, `${sp}/siteSpaces/${k}/space`, ss.space, spaceKeys, "space", "spaces");
    });
    siteSpacePaths(ctx, `${sp}/siteSpaces`, list(section.siteSpaces), "in this section", spaceTitles);
  });
  sectionPaths(ctx, `${at}/sections`, sections);

  // Defaults: one per level, and it must name an object of that level.
  if (typeof site.defaultSiteSection === "string") {
    if (!sectionKeys.has(site.defaultSiteSection)) {
      ctx.error(`${at}/defaultSiteSection`, `no section with key ${show(site.defaultSiteSection)} in this site${known(sectionKeys)}`);
    }
  }
  if (typeof site.defaultSiteSpace === "string") {
    const key = site.defaultSiteSpace;
    const level = siteSpaceLevel.get(key);
    if (sections.length > 0) {
      ctx.error(
        `${at}/defaultSiteSpace`,
        `this site has sections: set defaultSiteSpace on the section${level && level !== "root" ? ` (${describe(level)})` : ""} instead; the site-level default is only for sites without sections`,
      );
    } else if (level !== "root") {
      ctx.error(`${at}/defaultSiteSpace`, `no root-level site space with key ${show(key)} in this site${known(rootKeys(rootSpaces))}`);
    }
  }
  sections.forEach((section, j) => {
    if (!isObject(section) || typeof section.defaultSiteSpace !== "string") return;
    const sp = `${at}/sections/${j}`;
    const key = section.defaultSiteSpace;
    const level = siteSpaceLevel.get(key);
    if (level === sp) return;
    const own = sectionSiteSpaceKeys(section);
    const where = level === undefined ? "" : level === "root" ? "; it is a root-level site space" : `; it belongs to ${describe(level)}`;
    ctx.error(`${sp}/defaultSiteSpace`, `no site space with key ${show(key)} in this section${where}${known(own)}`);
  });

  // Section groups: every listed section exists, and no section is in two groups.
  const grouped = new Map<string, string>();
  list(site.sectionGroups).forEach((group, g) => {
    if (!isObject(group)) return;
    list(group.sections).forEach((key, k) => {
      if (typeof key !== "string") return;
      const p = `${at}/sectionGroups/${g}/sections/${k}`;
      if (!sectionKeys.has(key)) {
        ctx.error(p, `no section with key ${show(key)} in this site${known(sectionKeys)}`);
        return;
      }
      const first = grouped.get(key);
      if (first !== undefined && !first.startsWith(`${at}/sectionGroups/${g}/`)) {
        ctx.error(p, `section ${show(key)} is already in ${describe(parentOf(parentOf(first)))} (line ${ctx.lineOf(first)}); a section belongs to at most one group`);
        return;
      }
      if (first === undefined) grouped.set(key, p);
    });
  });

  // Adaptive content.
  const schema: unknown = site.adaptiveSchema;
  if (isRecord(schema) && isRecord(schema.properties)) {
    const declared = new Set(Object.keys(schema.properties));
    list(schema.required).forEach((name, k) => {
      if (typeof name === "string" && !declared.has(name)) {
        ctx.error(`${at}/adaptiveSchema/required/${k}`, `claim ${show(name)} is not declared in adaptiveSchema.properties`);
      }
    });
  }
  // Conditions parsed offline (provider/conditions.ts): syntax, claims the schema declares, adaptive content on.
  for (const issue of conditionIssues(conditionsOf(at, site), site)) (issue.warning ? ctx.warn : ctx.error)(issue.pointer, issue.reason);
  const links = list(site.shareLinks);
  const otherVisibilities = ["public", "unlisted", "visitor-auth"];
  if (links.length > 0 && typeof site.visibility === "string" && otherVisibilities.includes(site.visibility)) {
    ctx.warn(`${at}/shareLinks`, `share links grant access only to sites whose visibility is share-link (this site is ${site.visibility})`, true);
  }
}

/** Keys of a list must be unique; returns key → pointer of its object. Also checks previousKeys. */
function uniqueKeys(ctx: Ctx, at: string, items: unknown[], scope = "in this list"): Namespace {
  const seen: Namespace = new Map();
  items.forEach((item, i) => {
    if (!isObject(item) || typeof item.key !== "string") return;
    const first = seen.get(item.key);
    if (first !== undefined) {
      ctx.error(`${at}/${i}/key`, `duplicate key ${show(item.key)}: already used by ${describe(first)} (line ${ctx.lineOf(first)}); keys are unique ${scope}`);
    } else {
      seen.set(item.key, `${at}/${i}`);
    }
  });
  const former = new Map<string, string>();
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    list(item.previousKeys).forEach((old, k) => {
      if (typeof old !== "string") return;
      const p = `${at}/${i}/previousKeys/${k}`;
      const current = seen.get(old);
      if (current !== undefined && current !== `${at}/${i}`) {
        ctx.error(p, `${show(old)} is the current key of ${describe(current)} (line ${ctx.lineOf(current)}); a former key cannot also be in use`);
      } else if (current === `${at}/${i}`) {
        ctx.error(p, `${show(old)} is this object's own key`);
      } else if (former.has(old)) {
        ctx.error(p, `${show(old)} is already a former key of ${describe(former.get(old) ?? "")}`);
      } else {
        former.set(old, `${at}/${i}`);
      }
    });
  });
  return seen;
}

/**
 * Natural keys (the field `adopt` looks objects up by). `always`: the API itself refuses duplicates;
 * otherwise duplicates are only a problem when one of them adopts.
 */
function naturalKeys(ctx: Ctx, at: string, items: unknown[], field: string, why: string, always: boolean): void {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    const value = item[field];
    if (typeof value !== "string") return;
    groups.set(value, [...(groups.get(value) ?? []), i]);
  });
  for (const [value, indexes] of groups) {
    if (indexes.length < 2) continue;
    const adopting = indexes.some((i) => isObject(items[i]) && (items[i] as Record<string, unknown>).adopt === true);
    if (!always && !adopting) continue;
    const reason = always ? why : `adopt looks objects up by ${field}, so it must be unique`;
    for (const i of indexes.slice(1)) {
      const first = `${at}/${indexes[0]}`;
      ctx.error(`${at}/${i}/${field}`, `duplicate ${field} ${show(value)}: also used by ${describe(first)} (line ${ctx.lineOf(first)}); ${reason}`);
    }
  }
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

/** A reference field: a plain string must be a key of `namespace`; `{id}` is not checked offline. */
function reference(ctx: Ctx, at: string, value: unknown, namespace: Namespace, kind: string, listName: string): void {
  // A string that is not even a key is already reported by the schema.
  if (typeof value !== "string" || !KEY.test(value)) return;
  if (namespace.has(value)) return;
  const keys = [...namespace.keys()];
  const listed = keys.length > 0 ? `${listName}: ${keys.join(", ")}` : `the file declares no ${listName}`;
  ctx.error(at, `no ${kind} with key ${show(value)} in this file (${listed}); to refer to an existing ${kind} by ID write {id: ${show(value)}}`);
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


interface PathEntry {
  index: number;
  path: string;
  explicit: boolean;
}

/**
 * Paths at one level. Two explicit equal paths are an error (the API answers 409). A path the platform
 * derives that equals another one is accepted by the platform with a numeric suffix, so it is a warning.
 */
function levelPaths(ctx: Ctx, at: string, entries: PathEntry[], where: string): void {
  const explicit = new Map<string, number>();
  for (const e of entries.filter((x) => x.explicit)) {
    const first = explicit.get(e.path);
    if (first !== undefined) {
      ctx.error(`${at}/${e.index}/path`, `duplicate path ${show(e.path)}: already the path of ${describe(`${at}/${first}`)} (line ${ctx.lineOf(`${at}/${first}`)}); paths are unique ${where}`);
    } else {
      explicit.set(e.path, e.index);
    }
  }
  const taken = new Map(explicit);
  for (const e of entries.filter((x) => !x.explicit)) {
    const first = taken.get(e.path);
    if (first !== undefined) {
      ctx.warn(
        `${at}/${e.index}`,
        `has no path and the platform derives ${show(e.path)} from its title, already the path of ${describe(`${at}/${first}`)}; the platform will add a numeric suffix, so set path explicitly`,
      );
    } else {
      taken.set(e.path, e.index);
    }
  }
}

function sectionPaths(ctx: Ctx, at: string, sections: unknown[]): void {
  const entries: PathEntry[] = [];
  sections.forEach((s, i) => {
    if (!isObject(s)) return;
    const section = s as Partial<StackSection>;
    if (typeof section.path === "string") entries.push({ index: i, path: section.path, explicit: true });
    else if (typeof section.title === "string") {
      entries.push({ index: i, path: derivePath(section.title, "section"), explicit: false });
    }
  });
  levelPaths(ctx, at, entries, "among the sections of a site");
}

function siteSpacePaths(ctx: Ctx, at: string, siteSpaces: unknown[], where: string, spaceTitles: Map<string, string>): void {
  const entries: PathEntry[] = [];
  siteSpaces.forEach((s, i) => {
    if (!isObject(s)) return;
    const ss = s as Partial<StackSiteSpace>;
    if (typeof ss.path === "string") entries.push({ index: i, path: ss.path, explicit: true });
    else if (typeof ss.space === "string" && spaceTitles.has(ss.space)) {
      entries.push({ index: i, path: derivePath(spaceTitles.get(ss.space) ?? "", "space"), explicit: false });
    }
  });
  levelPaths(ctx, at, entries, `for site spaces ${where}`);
}

function conditionsOf(at: string, site: Loose): { pointer: string; text: string }[] {
  const found: { pointer: string; text: string }[] = [];
  const add = (o: unknown, pointer: string) => {
    if (isObject(o) && typeof o.condition === "string") found.push({ pointer: `${pointer}/condition`, text: o.condition });
  };
  list(site.siteSpaces).forEach((ss, j) => add(ss, `${at}/siteSpaces/${j}`));
  list(site.sections).forEach((s, j) => {
    add(s, `${at}/sections/${j}`);
    if (isObject(s)) list(s.siteSpaces).forEach((ss, k) => add(ss, `${at}/sections/${j}/siteSpaces/${k}`));
  });
  return found;
}

function sectionSiteSpaceKeys(section: Loose): Namespace {
  const keys: Namespace = new Map();
  if (section.siteSpaces === undefined && typeof section.key === "string") keys.set(section.key, "");
  for (const ss of list(section.siteSpaces)) if (isObject(ss) && typeof ss.key === "string") keys.set(ss.key, "");
  return keys;
}

function rootKeys(siteSpaces: unknown[]): Namespace {
  const keys: Namespace = new Map();
  for (const ss of siteSpaces) if (isObject(ss) && typeof ss.key === "string") keys.set(ss.key, "");
  return keys;
}

function known(namespace: Namespace): string {
  const keys = [...namespace.keys()];
  return keys.length > 0 ? ` (known: ${keys.join(", ")})` : "";
}

/** `/sites/0/sections/2` → `sites[0].sections[2]`, the way messages name fields. */
export function describe(pointer: string): string {
  return pointer === "" ? "top level" : dottedPath(pointer);
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf("/"));
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** An object of the file seen through the union of the fields the checks read; any of them may be missing. */
type Loose = Record<string, unknown> & Partial<StackSite & StackSection & StackSiteSpace>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

type SchemaNode = Record<string, unknown>;

function propertiesOf(schema: SchemaNode): Record<string, unknown> {
  return (schema.properties ?? {}) as Record<string, unknown>;
}

/** The definition a `{"$ref": "#/definitions/x"}` names. */
function definitionOf(ref: unknown): SchemaNode | undefined {
  const name = typeof ref === "string" && ref.startsWith("#/definitions/") ? ref.slice("#/definitions/".length) : undefined;
  return name === undefined ? undefined : ((stackSchemaDocument().definitions ?? {}) as Record<string, SchemaNode>)[name];
}

/** The top-level entries of the stack file: each list of objects (and the single `settings` object) with its definition. */
function entryLists(): { name: string; definition: SchemaNode; single: boolean }[] {
  const out: { name: string; definition: SchemaNode; single: boolean }[] = [];
  for (const [name, prop] of Object.entries(propertiesOf(stackSchemaDocument()))) {
    const p = prop as SchemaNode;
    const items = definitionOf((p.items as SchemaNode | undefined)?.$ref);
    if (p.type === "array" && items) out.push({ name, definition: items, single: false });
    const object = definitionOf(p.$ref);
    if (object && object.type === "object") out.push({ name, definition: object, single: true });
  }
  return out;
}

/** The definition of the items of a list of a site. */
function siteListDefinition(name: string): SchemaNode {
  const site = definitionOf("#/definitions/site") ?? {};
  return definitionOf(((propertiesOf(site)[name] as SchemaNode | undefined)?.items as SchemaNode | undefined)?.$ref) ?? {};
}
