/**
 * `docsplatform tree`: every site of a stack as a tree in display order — groups, sections, site
 * spaces with the URL path a reader sees, the default at each level, conditions, visibility,
 * published state and share links by name (never a URL).
 */
import { gitSyncFacts } from "../gitSync/view";
import type { GroupChild, LinkEntry, SectionEntry, SiteSpaceEntry } from "../site";
import { lookSummary } from "./look";
import { siteKind } from "../resources/site";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { treeFacts } from "./fields";
import { API_PATH, claimsOf, urlClashes, type SiteView, type StackView } from "./sites";
import { plain, type Style } from "./style";
import { redirectCount, redirectLines } from "../redirects/forms";
import { accessSummary } from "../access/view";
import { assistantSummary } from "../assistant/view";

/** Options of {@link renderTree}. */
export interface TreeOptions {
  style?: Style;
  /** Show each object's key from the file, e.g. `(section api)`. */
  keys?: boolean;
  /** List each site's redirects under their count. */
  redirects?: boolean;
}

/** What a site's readers get, as the words after its title: its fields as its declaration shows them (visibility, published, agents, …). */
export function siteFacts(site: SiteView): string[] {
  return [...treeFacts(siteKind, site.entry), ...treeFacts(siteKind, site.entry, { notes: true })];
}

/** The site's fields shown apart (adaptive content) and its visitor claims, as one line, or undefined when there is none. */
export function adaptiveFacts(site: SiteView): string | undefined {
  const claims = claimsOf(site);
  const parts = [...treeFacts(siteKind, site.entry, { apart: true }), ...(claims.length > 0 ? [`visitor claims ${claims.join(", ")}`] : [])];
  return parts.length === 0 ? undefined : parts.join(" · ");
}

/** Who can reach the site through its declared grants (`access: edit: team Writers; read: 2 users`), or undefined when not managed. */
export function accessFacts(site: SiteView): string | undefined {
  const permissions = site.entry.permissions;
  if (permissions === undefined) return undefined;
  const lines = accessSummary(permissions, site.teamTitle);
  return `access: ${lines.length === 0 ? "no direct grants" : lines.join("; ")}`;
}

/** How visitors sign in (never the key, nor its rotation, which the platform does not show), or undefined when not managed. */
export function visitorAuthFacts(site: SiteView): string | undefined {
  const a = site.entry.visitorAuth;
  if (a === undefined) return undefined;
  const parts = [`sign-in ${a.backend ?? "custom"} backend`];
  if (a.fallbackURL) parts.push(`fallback ${a.fallbackURL}`);
  if (a.logoutURL) parts.push(`logout ${a.logoutURL}`);
  return parts.join(" · ");
}

/** A site space's title as readers see it (its space's), or the file's reference to the space. */
export function siteSpaceTitle(ss: SiteSpaceEntry): string {
  return ss.spaceTitle ?? "(title from the API)";
}

/** The line of a tree, drawn. */
class Lines {
  readonly out: string[] = [];
  constructor(private readonly style: Style) {}

  add(prefix: string, text: string): void {
    this.out.push(`${this.style.dim(prefix)}${text}`);
  }
}

/** Draws a whole stack. Ends with a newline. */
export function renderTree(view: StackView, opts: TreeOptions = {}): string {
  const style = opts.style ?? plain;
  const out: string[] = [`${style.dim("organization")} ${view.organization}`];
  if (view.sites.length === 0) out.push("", "no sites");
  for (const site of view.sites) out.push("", ...renderSite(site, { style, keys: opts.keys === true, redirects: opts.redirects === true }));
  return `${out.join("\n")}\n`;
}

/** A line of the drawn tree and the lines under it. */
type Node = { text: string; children: Node[] };

/** The facts drawn under a site's title: visibility and state, adaptive content, access, look, URL clashes. */
function headerFacts(site: SiteView, style: Style): string[] {
  const facts: string[] = [];
  const summary = siteFacts(site);
  if (summary.length > 0) facts.push(summary.join(style.dim(" · ")));
  const adaptive = adaptiveFacts(site);
  if (adaptive !== undefined) facts.push(adaptive);
  if (site.organizationDefault) facts.push("the organization's default content");
  for (const f of [accessFacts(site), visitorAuthFacts(site), gitSyncFacts(site.entry.gitSync), lookSummary(site.entry.customization)]) if (f !== undefined) facts.push(f);
  for (const c of urlClashes(site)) facts.push(style.red(`! URL ${c.url} is shared by ${c.claimants.join(" and ")} (paths are unique per level, URLs are not)`));
  return facts;
}

/** The site's last children: its share links by name (never a URL) and its redirects (counted, or listed). */
function siteNodes(site: SiteView, style: Style, keys: boolean, listRedirects: boolean): Node[] {
  const nodes: Node[] = [];
  if (site.shareLinks.length > 0 || site.entry.visibility === "share-link") {
    const links = site.shareLinks.map((l) => `${l.name}${keys ? ` ${style.dim(`(share link ${l.key})`)}` : ""}${l.active ? "" : ` ${style.dim("[inactive]")}`}`);
    nodes.push({ text: `share links: ${links.length === 0 ? "none" : links.join(style.dim(" · "))}`, children: [] });
  }
  // The assistant by names only: never a header, a secret setting or a source.
  const assistant = assistantSummary(site.entry);
  if (assistant.length > 0) nodes.push({ text: "assistant", children: assistant.map((text): Node => ({ text, children: [] })) });
  const redirects = site.entry.redirects;
  if (redirects !== undefined) {
    const children = listRedirects ? redirectLines(redirects).map((text): Node => ({ text: text.replace(/^(\S+)/, (src) => style.cyan(src)), children: [] })) : [];
    nodes.push({ text: `${redirectCount(redirects)}${listRedirects || redirects.length === 0 ? "" : style.dim(" (tree --redirects lists them)")}`, children });
  }
  return nodes;
}

/** Draws one site as lines; `body` leaves out the title and the facts under it (for a diff that says them). */
export function renderSite(site: SiteView, opts: { style: Style; keys: boolean; body?: boolean; redirects?: boolean }): string[] {
  const { style, keys } = opts;
  const lines = new Lines(style);
  const tag = (kind: string, key: string): string => style.dim(keys ? `(${kind} ${key})` : `(${kind})`);
  const sep = style.dim(" · ");
  const tail = (parts: string[]): string => (parts.length === 0 ? "" : `${sep}${parts.join(sep)}`);

  if (opts.body !== true) {
    lines.add("", `${style.bold(site.title)} ${tag("site", site.key)}`);
    for (const fact of headerFacts(site, style)) lines.add("│  ", fact);
  }

  const siteSpaceLine = (ss: SiteSpaceEntry): string => {
    const parts: string[] = [];
    if (ss.default) parts.push(ss.path.value === undefined ? "path from the API" : `path ${ss.path.value}`);
    if (ss.spaceId !== undefined) parts.push(style.dim(`space ${ss.spaceId}`));
    if (ss.condition !== undefined) parts.push(style.magenta(`if ${ss.condition}`));
    const spaceGrants = site.spacePermissions[ss.key];
    if (spaceGrants !== undefined) parts.push(`space access: ${accessSummary(spaceGrants, site.teamTitle).join("; ") || "no direct grants"}`);
    if (ss.draft === true) parts.push(style.yellow("draft"));
    if (ss.hidden) parts.push(style.yellow("hidden from the navigation"));
    parts.push(...treeFacts(siteSpaceKind, ss.entry, { style }), ...treeFacts(siteSpaceKind, ss.entry, { style, notes: true }));
    if (ss.entry.customization !== undefined) parts.push(`look overridden: ${Object.keys(ss.entry.customization).sort().join(", ")}`);
    const title = keys ? `${siteSpaceTitle(ss)} ${style.dim(`(site space ${ss.key})`)}` : siteSpaceTitle(ss);
    return `${title}  ${url(ss.url)}${ss.default ? `  ${style.yellow("★ default")}` : ""}${tail(parts)}`;
  };
  const url = (u: string): string => style.cyan(u.split(API_PATH).join(style.dim(API_PATH)));

  const sectionLine = (s: SectionEntry): string => {
    const parts: string[] = [];
    if (s.default) parts.push(s.path.value === undefined ? "path from the API" : `path ${s.path.value}`);
    parts.push(...treeFacts(siteSectionKind, s.entry, { style }));
    if (s.condition !== undefined) parts.push(style.magenta(`if ${s.condition}`));
    parts.push(...treeFacts(siteSectionKind, s.entry, { style, notes: true }));
    if (s.draft === true) parts.push(style.yellow("draft"));
    return `${style.bold(s.title)} ${tag("section", s.key)}  ${url(s.url)}${s.default ? `  ${style.yellow("★ default")}` : ""}${tail(parts)}`;
  };

  // Children of the site: its top-level entries (or root site spaces), then its share links and redirects.
  const spaceNodes = (list: SiteSpaceEntry[]): Node[] => list.map((ss) => ({ text: siteSpaceLine(ss), children: [] }));
  const sectionNode = (s: SectionEntry): Node => ({ text: sectionLine(s), children: spaceNodes(s.siteSpaces) });
  const linkLine = (l: LinkEntry): string => {
    const parts: string[] = [];
    parts.push(...treeFacts(siteExternalLinkKind, l.entry, { style }));
    if (l.condition !== undefined) parts.push(style.magenta(`if ${l.condition}`));
    parts.push(...treeFacts(siteExternalLinkKind, l.entry, { style, notes: true }));
    if (l.draft === true) parts.push(style.yellow("draft"));
    return `${style.bold(l.title)} ${tag("link", l.key)}  ${style.cyan(`↗ ${l.target}`)}${tail(parts)}`;
  };
  const childNode = (c: GroupChild): Node => (c.kind === "section" ? sectionNode(c.section) : { text: linkLine(c.link), children: [] });
  const nodes: Node[] = site.entries.map((e) => {
    if (e.kind !== "group") return childNode(e);
    const parts = [...treeFacts(siteSectionGroupKind, e.group.entry, { style }), ...treeFacts(siteSectionGroupKind, e.group.entry, { style, notes: true }), ...(e.group.draft === true ? [style.yellow("draft")] : [])];
    return {
      text: `${style.bold(e.group.title)} ${tag("group", e.group.key)}${tail(parts)}${e.group.children.length === 0 ? `${sep}no sections` : ""}`,
      children: e.group.children.map(childNode),
    };
  });
  nodes.push(...spaceNodes(site.rootSiteSpaces));
  nodes.push(...siteNodes(site, style, keys, opts.redirects === true));
  if (nodes.length === 0) nodes.push({ text: style.dim("no sections or site spaces"), children: [] });

  const walk = (list: Node[], indent: string): void => {
    list.forEach((n, i) => {
      const last = i === list.length - 1;
      lines.add(`${indent}${last ? "└─ " : "├─ "}`, n.text);
      walk(n.children, `${indent}${last ? "   " : "│  "}`);
    });
  };
  walk(nodes, "");
  return lines.out;
}
