/**
 * The site-structure file (Git Sync's `gitbook-docs.yaml`, schema GitSyncSiteConfig of the published API
 * description): read with positions and checked offline, every problem at the site file's own
 * `file:line:col`, in words.
 *
 * The file is a tree: `site.structure` lists nodes, each discriminated by `type` (`section-group`,
 * `section`, `space`, `external-link`), the parent given by position. Checked here:
 * - each node's members and limits (the description's schema, written with the limits of limits.json);
 * - the import rules: every `key` unique in the whole file whatever the node's type (the stricter of the
 *   description's two readings: the sync recognises a node by its key alone); a section group inside a
 *   group inside a group refused (one nested level at most); exactly one `default: true` space in every
 *   section (or among the top-level spaces of a site without sections) and exactly one default section;
 *   sections hold only spaces; spaces at the top level only without sections; external links only in a
 *   site with sections; no `..` segment in a `content.directory`; spaces reading one directory agree on
 *   its language;
 * - what the stack file cannot declare, so docsplatform could not apply it: a nested group (the stack
 *   file's groups do not nest), a localized title on a section, group or space, a
 *   section's localized description.
 */
import type { default as Ajv, ValidateFunction } from "ajv";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { explain } from "../phrases";
import { SITE_FILE_NAME } from "../resources/siteGitSync";
import { escapeSegment } from "../pointer";
import { ajvWithLimits, compiledSchemas, loadPrecompiled, standaloneCode } from "../validators";
import { describe, isObject, list, type Loose } from "./checkKit";
import type { Problem } from "./problem";
import { parseLocatedYaml } from "./yaml";
import { schemasDir, show } from "./schema";

/** The file's name, as the published description spells it (Git Sync reads no other): the one the Git Sync kind names. */
export { SITE_FILE_NAME };

/** The node types, as the file spells them. */
export const NODE_TYPES = ["section-group", "section", "space", "external-link"] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** One node of the file, with where it stands. */
export interface SiteFileNode {
  type: NodeType;
  key: string;
  /** JSON pointer in the site file (`/site/structure/1/children/0`). */
  pointer: string;
  node: Loose;
  children: SiteFileNode[];
  /** The node holding it; undefined at the top level. */
  parent: SiteFileNode | undefined;
}

/** A site file read and checked: its title and tree, and where a pointer of it is; or its problems. */
export type SiteFile =
  | { ok: true; file: string; title: string; structure: SiteFileNode[]; at: (pointer: string, message: string, atKey?: boolean) => Problem }
  | { ok: false; file: string; problems: Problem[] };

const LIMITS = "https://docsplatform.dev/schemas/limits.json#/definitions/";
const limit = (name: string): object => ({ $ref: `${LIMITS}${name}` });
const KEY = { type: "string", minLength: 1 };
const BOOLEAN = { type: "boolean" };
/** Children are walked by the rules below, node by node: here only their being a list. */
const CHILDREN = { type: "array" };

/** Each node type's members and limits, as the published schema gives them (titles of spaces unlimited, of the site too). */
const NODE_SCHEMAS: Record<NodeType, object> = {
  "section-group": {
    type: "object",
    additionalProperties: false,
    required: ["type", "key", "title"],
    properties: { type: { const: "section-group" }, key: KEY, title: limit("sectionGroupTitle"), localizedTitle: limit("loc128"), icon: limit("icon"), draft: BOOLEAN, children: CHILDREN },
  },
  section: {
    type: "object",
    additionalProperties: false,
    required: ["type", "key", "title", "path"],
    properties: {
      type: { const: "section" },
      key: KEY,
      title: limit("sectionTitle"),
      localizedTitle: limit("loc128"),
      description: limit("sectionDescription"),
      localizedDescription: limit("loc256"),
      icon: limit("icon"),
      default: BOOLEAN,
      path: limit("sectionPath"),
      condition: limit("expression"),
      children: CHILDREN,
    },
  },
  space: {
    type: "object",
    additionalProperties: false,
    required: ["type", "key", "title", "path", "content"],
    properties: {
      type: { const: "space" },
      key: KEY,
      title: { type: "string", minLength: 1 },
      localizedTitle: limit("loc128"),
      path: limit("siteSpacePath"),
      default: BOOLEAN,
      hidden: BOOLEAN,
      draft: BOOLEAN,
      condition: limit("expression"),
      content: {
        type: "object",
        additionalProperties: false,
        required: ["directory"],
        properties: { directory: { type: ["string", "null"], minLength: 1 }, language: limit("language") },
      },
    },
  },
  "external-link": {
    type: "object",
    additionalProperties: false,
    required: ["type", "key", "title", "url"],
    properties: {
      type: { const: "external-link" },
      key: KEY,
      title: limit("externalLinkTitle"),
      localizedTitle: limit("loc128"),
      description: limit("externalLinkDescription"),
      localizedDescription: limit("loc256"),
      icon: limit("icon"),
      url: limit("externalLinkURL"),
      draft: BOOLEAN,
      condition: limit("expression"),
    },
  },
};

/** The top level: `$schema`, `version` (only 1) and `site` with its title and structure (other top-level members are not forbidden). */
const TOP_SCHEMA = {
  type: "object",
  required: ["site"],
  properties: {
    $schema: { type: "string", format: "uri" },
    version: { enum: [1] },
    site: { type: "object", additionalProperties: false, required: ["title", "structure"], properties: { title: { type: "string", minLength: 1 }, structure: CHILDREN } },
  },
};

type SiteFileValidators = { top: ValidateFunction; nodes: Record<NodeType, ValidateFunction>; precompiled: boolean };

/** The file `npm run build` writes next to this module: the validators as ajv standalone code. */
export const SITE_FILE_PRECOMPILED = path.join(__dirname, "siteFileValidators.js");

/** The `$id` of each schema, by the name its validator is exported under. */
const SCHEMA_IDS: Record<"top" | NodeType, string> = {
  top: "site-file",
  ...(Object.fromEntries(NODE_TYPES.map((t) => [t, `site-file-${t}`])) as Record<NodeType, string>),
};

function limitsText(): string {
  return fs.readFileSync(path.join(schemasDir(), "limits.json"), "utf8");
}

/** A fingerprint of the schemas a precompiled validator was made from (it serves only these). */
function fingerprint(limits: string): string {
  return createHash("sha256").update(limits).update("\0").update(JSON.stringify([TOP_SCHEMA, NODE_SCHEMAS])).digest("hex");
}

/** An ajv instance with the limits and the file's schemas, each under its `$id`; `source` keeps the code for the build. */
function siteFileAjv(limits: string, source: boolean): Ajv {
  const ajv = ajvWithLimits(JSON.parse(limits) as object, { strictTypes: false }, source ? { outDir: path.dirname(SITE_FILE_PRECOMPILED) } : false);
  ajv.addSchema(TOP_SCHEMA, SCHEMA_IDS.top);
  for (const t of NODE_TYPES) ajv.addSchema(NODE_SCHEMAS[t], SCHEMA_IDS[t]);
  return ajv;
}

/**
 * The source of the precompiled validators (ajv standalone code, one export per schema, and the
 * fingerprint of the schemas they were made from), written by `npm run build` to
 * {@link SITE_FILE_PRECOMPILED}: a run that reads a site file then compiles nothing and loads no ajv
 * compiler (about 100 ms of CPU in every `pulumi` command of a stack with a site file).
 */
export function precompiledSiteFileValidators(): string {
  const limits = limitsText();
  const code = standaloneCode(siteFileAjv(limits, true), SCHEMA_IDS);
  return `${code}\nexports.fingerprint = ${JSON.stringify(fingerprint(limits))};\n`;
}

/** The validators by schema name, as the build made them or as compiled now. */
function validatorsOf(made: Record<"top" | NodeType, ValidateFunction>, precompiled: boolean): SiteFileValidators {
  return { top: made.top, nodes: Object.fromEntries(NODE_TYPES.map((t) => [t, made[t]])) as Record<NodeType, ValidateFunction>, precompiled };
}

let validators: SiteFileValidators | undefined;

/** The validators, on first use (only a stack file naming a site file needs them): the build's, else compiled now. */
function siteFileValidators(): SiteFileValidators {
  if (validators) return validators;
  const limits = limitsText();
  const built = loadPrecompiled<Record<"top" | NodeType, ValidateFunction> & { fingerprint: string }>(SITE_FILE_PRECOMPILED, (made) => made.fingerprint === fingerprint(limits));
  validators = built ? validatorsOf(built, true) : validatorsOf(compiledSchemas(siteFileAjv(limits, false), SCHEMA_IDS), false);
  return validators;
}

/** Whether this process checks site files with the validators precompiled at build time. */
export function siteFileValidatesPrecompiled(): boolean {
  return siteFileValidators().precompiled;
}

/** Read a site file from its text and check it (see the module's description). */
export function parseSiteFile(text: string, shown: string): SiteFile {
  const yaml = parseLocatedYaml(text, shown, "site file");
  if (!yaml.ok) return { ok: false, file: shown, problems: yaml.problems };
  const located = (pointer: string, reason: string, atKey = false): Problem => yaml.at(pointer, `${describe(pointer)}: ${reason}`, atKey);
  const problems: Problem[] = [];
  const { top, nodes } = siteFileValidators();
  if (!top(yaml.data)) for (const issue of explain(top.errors ?? [])) problems.push(located(issue.pointer, issue.reason, issue.atKey));
  const data = yaml.data as Loose;
  const site = isObject(data) && isObject(data.site) ? data.site : {};
  const structure = readNodes(list(site.structure), "/site/structure", undefined, nodes, (p, r, k) => problems.push(located(p, r, k)));
  problems.push(...structureRules(structure, located));
  if (problems.length > 0) {
    const sorted = problems.sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
    return { ok: false, file: shown, problems: sorted.filter((p, i) => i === 0 || p.message !== sorted[i - 1]!.message || p.line !== sorted[i - 1]!.line) };
  }
  return { ok: true, file: shown, title: site.title as string, structure, at: (pointer, message, atKey) => yaml.at(pointer, message, atKey) };
}

type Report = (pointer: string, reason: string, atKey?: boolean) => void;

/** The nodes of one list, each checked against its type's schema; a node of no known type is reported and left out. */
function readNodes(items: unknown[], at: string, parent: SiteFileNode | undefined, nodes: Record<NodeType, ValidateFunction>, report: Report): SiteFileNode[] {
  const out: SiteFileNode[] = [];
  items.forEach((item, i) => {
    const pointer = `${at}/${i}`;
    if (!isObject(item)) return report(pointer, `must be a node: a mapping with type ${NODE_TYPES.join(", ")}`);
    const type = item.type;
    if (!NODE_TYPES.includes(type as NodeType)) {
      return report(`${pointer}/type`, type === undefined ? `is required: one of ${NODE_TYPES.join(", ")}` : `must be one of ${NODE_TYPES.join(", ")} (got ${show(type)})`);
    }
    const validate = nodes[type as NodeType];
    if (!validate(item)) for (const issue of explain(validate.errors ?? [])) report(`${pointer}${issue.pointer}`, issue.reason, issue.atKey);
    const node: SiteFileNode = { type: type as NodeType, key: typeof item.key === "string" ? item.key : "", pointer, node: item, children: [], parent };
    node.children = readNodes(list(item.children), `${pointer}/children`, node, nodes, report);
    out.push(node);
  });
  return out;
}

/** Every node of a tree, depth first in file order. */
export function allNodes(nodes: readonly SiteFileNode[]): SiteFileNode[] {
  return nodes.flatMap((n) => [n, ...allNodes(n.children)]);
}

/** How deep a group sits among groups: 0 for a top-level group, 1 for a group in a group. */
function groupDepth(node: SiteFileNode): number {
  let depth = 0;
  for (let p = node.parent; p !== undefined; p = p.parent) if (p.type === "section-group") depth++;
  return depth;
}

/** The import rules and what docsplatform cannot apply (see the module's description). */
function structureRules(structure: SiteFileNode[], located: (pointer: string, reason: string, atKey?: boolean) => Problem): Problem[] {
  const problems: Problem[] = [];
  const report = (pointer: string, reason: string, atKey = false): void => void problems.push(located(pointer, reason, atKey));
  const line = (pointer: string): number => located(pointer, "").line;
  const every = allNodes(structure);
  uniqueKeys(every, report, line);
  const sections = every.filter((n) => n.type === "section");
  for (const n of every) placement(n, sections.length > 0, report);
  defaults(structure, sections, report, line);
  directories(every, report, line);
  notApplicable(every, report);
  return problems;
}

function uniqueKeys(every: SiteFileNode[], report: Report, line: (pointer: string) => number): void {
  const first = new Map<string, SiteFileNode>();
  for (const n of every) {
    if (n.key === "") continue;
    const earlier = first.get(n.key);
    if (earlier === undefined) first.set(n.key, n);
    else report(`${n.pointer}/key`, `duplicate key ${show(n.key)}: already the key of the ${earlier.type} at ${describe(earlier.pointer)} (line ${line(earlier.pointer)}); keys are unique in the whole site file, whatever the node's type (Git Sync recognises a node by its key)`);
  }
}

/** Where each node may stand: sections hold spaces only; groups hold sections, links and (one level) groups; spaces at the top only without sections. */
function placement(n: SiteFileNode, hasSections: boolean, report: Report): void {
  const parent = n.parent;
  if (parent?.type === "section" && n.type !== "space") report(`${n.pointer}/type`, `a section holds only spaces (got a ${n.type}); put it beside the section instead`);
  if (parent?.type === "space" || parent?.type === "external-link") report(n.pointer, `a ${parent.type} holds nothing`);
  if (n.type === "space" && parent?.type === "section-group") report(`${n.pointer}/type`, "a space stands in a section (or at the top level of a site without sections), never directly in a section group");
  if (n.type === "space" && parent === undefined && hasSections) report(`${n.pointer}/type`, "a site with sections keeps every space inside a section; top-level spaces are only for a site without sections");
  if (n.type === "external-link" && !hasSections) report(`${n.pointer}/type`, "an external link needs a site with sections (this file declares none)");
  if (n.type === "section-group") {
    const depth = groupDepth(n);
    if (depth >= 2) report(`${n.pointer}/type`, "a section group inside a nested section group: groups nest one level at most (a nested group holds no group)");
    else if (depth === 1) report(`${n.pointer}/type`, "a nested section group: docsplatform cannot apply it (the stack file's section groups do not nest); list its sections in the outer group");
  }
}

/** Exactly one default section in a site with sections; exactly one default space per section, or among the top-level spaces. */
function defaults(structure: SiteFileNode[], sections: SiteFileNode[], report: Report, line: (pointer: string) => number): void {
  const isDefault = (n: SiteFileNode): boolean => n.node.default === true;
  const exactlyOne = (level: SiteFileNode[], where: string, none: () => void): void => {
    const marked = level.filter(isDefault);
    if (marked.length === 0) none();
    for (const extra of marked.slice(1)) report(`${extra.pointer}/default`, `a second default ${where}: ${describe(marked[0]!.pointer)} (line ${line(marked[0]!.pointer)}) is already the default; exactly one carries default: true`);
  };
  if (sections.length > 0) {
    exactlyOne(sections, "section of the site", () => report(sections[0]!.pointer, "no section of the site is marked default: true; a site with sections marks exactly one (the one readers reach first)"));
  } else {
    const spaces = structure.filter((n) => n.type === "space");
    if (spaces.length > 0) exactlyOne(spaces, "space at the top level", () => report(spaces[0]!.pointer, "no top-level space is marked default: true; a site without sections marks exactly one of them"));
  }
  for (const section of sections) {
    const spaces = section.children.filter((n) => n.type === "space");
    if (spaces.length === 0) {
      report(section.pointer, "a section has no space: list its spaces under children, one of them marked default: true");
      continue;
    }
    exactlyOne(spaces, "space of this section", () => report(`${section.pointer}/children`, `section ${show(section.key)} has no default space: mark exactly one of its spaces default: true (the one its URL opens)`));
  }
}

/** No `..` segment in a content directory; spaces reading one directory agree on its language. */
function directories(every: SiteFileNode[], report: Report, line: (pointer: string) => number): void {
  const language = new Map<string, { value: unknown; pointer: string }>();
  for (const n of every) {
    if (n.type !== "space" || !isObject(n.node.content)) continue;
    const directory = n.node.content.directory;
    if (typeof directory !== "string") continue;
    if (directory.split(/[/\\]/).includes("..")) {
      report(`${n.pointer}/content/directory`, `${show(directory)} has a '..' segment; a content directory stays inside the repository (relative to the site's project directory, or from its root with a leading '/')`);
      continue;
    }
    const normal = path.posix.normalize(directory.startsWith("/") ? directory : `./${directory}`).replace(/\/$/, "");
    const lang = n.node.content.language;
    const earlier = language.get(normal);
    if (earlier === undefined) language.set(normal, { value: lang, pointer: n.pointer });
    else if (earlier.value !== lang) {
      report(`${n.pointer}/content/${lang === undefined ? "directory" : "language"}`, `reads directory ${show(directory)} in ${lang === undefined ? "no declared language" : show(lang)}, but ${describe(earlier.pointer)} (line ${line(earlier.pointer)}) reads it in ${earlier.value === undefined ? "no declared language" : show(earlier.value)}; a directory is read once, in one language`);
    }
  }
}

/** Members the file allows that the stack file has no field for: refused, so nothing of the file is silently dropped. */
function notApplicable(every: SiteFileNode[], report: Report): void {
  const refuse = (n: SiteFileNode, member: string, why: string): void => {
    if (n.node[member] !== undefined) report(`${n.pointer}/${escapeSegment(member)}`, `docsplatform cannot apply a ${n.type}'s ${member}: ${why}; remove it`, true);
  };
  for (const n of every) {
    if (n.type !== "external-link") refuse(n, "localizedTitle", `the stack file declares localized titles only on external links, not on a ${n.type}`);
    if (n.type === "section") refuse(n, "localizedDescription", "the stack file declares localized descriptions only on external links");
  }
}
