/**
 * `docsplatform diff`: the change between two stack files as a reader of the sites would notice it —
 * sections and site spaces added, removed, moved (between levels and in order), renamed (a title, or
 * a path and so a URL), defaults switched, conditions and visibility changed, share links added or
 * removed — and the organisation's teams, SSO, specs and settings summarised.
 *
 * Objects are the same on both sides when they have the same key, or when the head's `previousKeys`
 * names the base's key (as Pulumi aliases do). The head is read as `pulumi up` would apply it to
 * what the base made: a field the head no longer declares is left as it is on the platform (the
 * provider compares only what is declared), so an undeclared path or default keeps its base value.
 */
import { collectionKind } from "../resources/collection";
import type { Absence as FieldAbsence, AnyKind, FieldSpec } from "../resources/kind";
import { listedKinds } from "../resources/kinds";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { naturalField } from "../stack/stackSchema";
import { isIdRef, sectionSiteSpaces, type Key, type StackFile, type StackSiteSpace } from "../stack/model";
import { allSiteSpaces, cmp, urlClashes, viewStack, type SectionView, type SiteSpaceView, type SiteView, type StackView } from "./model";
import { adaptiveFacts, renderSite, siteFacts, siteSpaceTitle, VISIBILITY } from "./tree";
import { plain, type Style } from "./style";

/** `+` added, `-` removed, `~` changed, `>` moved. */
export type Sign = "+" | "-" | "~" | ">";

/** One line of a diff. */
export interface Change {
  sign: Sign;
  text: string;
}

/** The changes of one site. */
export interface SiteDiff {
  key: Key;
  title: string;
  status: "added" | "removed" | "changed";
  changes: Change[];
}

/** The whole diff: sites (by title, then key) and the organisation's other objects. */
export interface StackDiff {
  organization: { base: string | undefined; head: string | undefined };
  sites: SiteDiff[];
  /** Teams, members, SSO, specs, collections, spaces, translations and settings, summarised. */
  others: Change[];
}

const q = (s: string): string => JSON.stringify(s);

// ---- matching by key and previousKeys ----

interface Matched<B, H> {
  pairs: [B, H][];
  added: H[];
  removed: B[];
}

/** Pairs objects with the same key, then those whose head names the base's key in `previousKeys`. */
export function matchKeyed<B extends { key: Key }, H extends { key: Key; previousKeys?: Key[] }>(base: B[], head: H[]): Matched<B, H> {
  const free = new Map(base.map((b) => [b.key, b]));
  const pairOf = new Map<H, B>();
  for (const h of head) {
    const b = free.get(h.key);
    if (b !== undefined) {
      pairOf.set(h, b);
      free.delete(h.key);
    }
  }
  for (const h of head) {
    if (pairOf.has(h)) continue;
    const prev = (h.previousKeys ?? []).find((k) => free.has(k));
    if (prev !== undefined) {
      pairOf.set(h, free.get(prev)!);
      free.delete(prev);
    }
  }
  const left = new Set(free.values());
  return {
    pairs: head.filter((h) => pairOf.has(h)).map((h) => [pairOf.get(h)!, h]),
    added: head.filter((h) => !pairOf.has(h)),
    removed: base.filter((b) => left.has(b)),
  };
}

// ---- the head as applied to the base ----

/** The head as applied to the base, with the paths the head stopped declaring (the platform keeps them), per head site key. */
export interface AppliedHead {
  stack: StackFile;
  kept: Map<Key, Change[]>;
}

/**
 * The head file as `pulumi up` leaves the platform when applied to the base. A path is not managed
 * when not declared (the kind's absence rule): a section or site space that stays at its level (same key, or a
 * previous key) and declares no path keeps the one it has — derived from its title at creation, not
 * from a title changed since. Where the base declared that path, `kept` says the head no longer does.
 * Defaults need nothing: an undeclared default is the first of its level on both sides.
 */
export function appliedHead(base: StackFile, head: StackFile): AppliedHead {
  const stack = structuredClone(head);
  const kept = new Map<Key, Change[]>();
  const baseView = viewStack(base);
  for (const site of stack.sites ?? []) {
    const [pair] = matchKeyed(baseView.sites, [site]).pairs;
    if (pair === undefined) continue;
    const b = pair[0];
    const notes: Change[] = [];
    const note = (text: string): void => void notes.push({ sign: "~", text });
    for (const [bs, hs] of matchKeyed(b.sections, site.sections ?? []).pairs) {
      if (hs.path === undefined && bs.path.value !== undefined) {
        hs.path = bs.path.value;
        if (bs.path.source === "declared") note(`section ${q(hs.title)}: path no longer declared (the platform keeps ${bs.path.value})`);
      }
      const list = sectionSiteSpaces(hs).map((ss) => ({ ...ss }));
      keepPaths(matchKeyed(bs.siteSpaces, list).pairs, note);
      if (hs.siteSpaces !== undefined || list[0]?.path !== undefined) {
        // The shorthand's one site space is written out when it carries a path.
        delete hs.space;
        hs.siteSpaces = list;
      }
    }
    keepPaths(matchKeyed(b.rootSiteSpaces, site.siteSpaces ?? []).pairs, note);
    if (notes.length > 0) kept.set(site.key, notes);
  }
  return { stack, kept };
}

/** Site spaces that stay at their level and declare no path keep the one they have. */
function keepPaths(pairs: [SiteSpaceView, StackSiteSpace][], note: (text: string) => void): void {
  for (const [bs, hs] of pairs) {
    if (hs.path !== undefined || bs.path.value === undefined) continue;
    hs.path = bs.path.value;
    if (bs.path.source === "declared") note(`site space ${bs.url}: path no longer declared (the platform keeps ${bs.path.value})`);
  }
}

// ---- comparing two sites ----

/** Collects the lines of one site in the order they are added. */
class Lines {
  readonly list: Change[] = [];
  add(sign: Sign, text: string): void {
    this.list.push({ sign, text });
  }
}

function sectionName(s: SectionView): string {
  return `section ${q(s.title)}`;
}

/** A site space by its space's title; by its key where the file knows the space only by ID (its title is the API's). */
function siteSpaceName(ss: SiteSpaceView): string {
  return ss.spaceTitle === undefined ? `site space ${ss.key}` : `site space ${q(ss.spaceTitle)}`;
}

function spaceOf(ss: SiteSpaceView): string {
  return ss.spaceId ?? "(unknown space)";
}

/** `a → b` for optional values; `undefined` as "none". */
function arrow(a: string | undefined, b: string | undefined): string {
  return `${a ?? "none"} → ${b ?? "none"}`;
}

/**
 * A change of an optional field: added, changed, or left out — which removes the value (`clear`) or
 * leaves the platform's alone (`unmanaged`), as the kind's absence rule says. Fields with a reset
 * value are compared with absence already read as that value.
 */
function fieldChange(name: string, b: string | undefined, h: string | undefined, absent: FieldAbsence, show: (v: string) => string = q): string | undefined {
  if (b === h) return undefined;
  if (h === undefined) return absent === "clear" ? `${name} ${show(b!)} removed` : `${name} no longer declared (the platform keeps ${show(b!)})`;
  if (b === undefined) return `${name} ${show(h)} added`;
  return `${name} ${show(b)} → ${show(h)}`;
}

/**
 * Items that keep their level but not their relative order: the fewest that moved (those outside a
 * longest run already in order), each with the sibling it now follows.
 */
function reordered<T>(baseOrder: Key[], head: T[], baseKeyOf: (t: T) => Key | undefined): { item: T; after: T | undefined }[] {
  const common = head.filter((t) => {
    const bk = baseKeyOf(t);
    return bk !== undefined && baseOrder.includes(bk);
  });
  const ranks = common.map((t) => baseOrder.indexOf(baseKeyOf(t)!));
  // Longest increasing subsequence (O(n log n)), as SiteStructureOrder plans its moves.
  const tails: number[] = [];
  const prev = new Array<number>(ranks.length).fill(-1);
  for (let i = 0; i < ranks.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranks[tails[mid]!]! < ranks[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i !== -1; i = prev[i]!) keep.add(i);
  const out: { item: T; after: T | undefined }[] = [];
  common.forEach((t, i) => {
    if (keep.has(i)) return;
    const at = head.indexOf(t);
    out.push({ item: t, after: at > 0 ? head[at - 1] : undefined });
  });
  return out;
}

/** Where an entry now sits among its siblings. */
function position(after: string | undefined): string {
  return after === undefined ? "now first" : `now after ${after}`;
}

/** The changes of a site present on both sides, in the head's display order, removed objects last. */
function diffSite(b: SiteView, h: SiteView): Change[] {
  const lines = new Lines();
  if (b.key !== h.key) lines.add("~", `key ${b.key} → ${h.key} (previousKeys: the same site)`);
  if (b.title !== h.title) lines.add("~", `title ${q(b.title)} → ${q(h.title)}`);
  const visibility = (v: string): string => VISIBILITY[v] ?? v;
  const rules = siteKind.fields;
  const facts: [string, string | undefined, string | undefined, FieldAbsence, (v: string) => string][] = [
    ["visibility", b.visibility, h.visibility, absenceOf(rules.visibility), visibility],
    ["published", yesNo(b.published), yesNo(h.published), absenceOf(rules.published), (v) => v],
    ["type", b.type, h.type, absenceOf(rules.type), (v) => v],
    ["agents", b.agentsContext, h.agentsContext, absenceOf(rules.agentsContext), (v) => v],
    ["basename", b.basename, h.basename, absenceOf(rules.basename), (v) => v],
    ["proxy", b.proxy, h.proxy, absenceOf(rules.proxy), (v) => v],
    ["adaptive content", onOff(b.adaptiveContent), onOff(h.adaptiveContent), absenceOf(rules.adaptiveContent), (v) => v],
  ];
  for (const [name, bv, hv, absent, show] of facts) {
    const text = fieldChange(name, bv, hv, absent, show);
    if (text === undefined) continue;
    if (name === "published" && bv === "yes" && hv === "no") lines.add("~", `${text}: readers lose access to the site`);
    else if (name === "published" && hv === "yes" && bv !== "yes") lines.add("~", `${text}: the site goes live`);
    else if (name === "basename" && hv !== undefined) lines.add("~", `${text}: every URL of the site changes`);
    else lines.add("~", text);
  }
  for (const c of h.claims.filter((c) => !b.claims.includes(c))) lines.add("+", `visitor claim ${c}`);
  for (const c of b.claims.filter((c) => !h.claims.includes(c))) lines.add("-", `visitor claim ${c}`);
  if (b.organizationDefault !== h.organizationDefault) {
    lines.add("~", h.organizationDefault ? "now the organization's default content" : "no longer the organization's default content");
  }

  // Sections and groups.
  const sections = matchKeyed(b.sections, h.sections);
  const baseOfSection = new Map(sections.pairs.map(([bs, hs]) => [hs, bs]));
  const groups = matchKeyed(b.groups, h.groups);
  const baseOfGroup = new Map(groups.pairs.map(([bg, hg]) => [hg, bg]));
  const headGroupOfBase = new Map(groups.pairs.map(([bg, hg]) => [bg.key, hg.key]));
  const groupTitle = (view: SiteView, key: Key | undefined): string => q(view.groups.find((g) => g.key === key)?.title ?? key ?? "");

  const bDefault = b.sections.find((s) => s.default);
  const hDefault = h.sections.find((s) => s.default);
  if (bDefault !== undefined && hDefault !== undefined && baseOfSection.get(hDefault) !== bDefault) {
    lines.add("~", `default section ${q(bDefault.title)} → ${q(hDefault.title)}: / now shows ${q(hDefault.title)}`);
  }

  const siteSpaces = matchKeyed(allSiteSpaces(b), allSiteSpaces(h));
  const baseOfSiteSpace = new Map(siteSpaces.pairs.map(([bs, hs]) => [hs, bs]));

  // Top level: moves in order among entries that stay at the top level.
  const topKey = (e: SiteView["entries"][number]): string => (e.kind === "section" ? `s:${e.section.key}` : `g:${e.group.key}`);
  const baseTop = b.entries.map(topKey);
  const headTop = h.entries;
  const topMoves = reordered(
    baseTop,
    headTop,
    (e) => {
      if (e.kind === "section") {
        const bs = baseOfSection.get(e.section);
        return bs === undefined ? undefined : `s:${bs.key}`;
      }
      const bg = baseOfGroup.get(e.group);
      return bg === undefined ? undefined : `g:${bg.key}`;
    },
  );
  const topName = (e: SiteView["entries"][number] | undefined): string | undefined =>
    e === undefined ? undefined : e.kind === "section" ? q(e.section.title) : `group ${q(e.group.title)}`;
  const movedTop = new Map(topMoves.map((m) => [m.item, topName(m.after)]));

  const sectionLines = (hs: SectionView): void => {
    const bs = baseOfSection.get(hs);
    if (bs === undefined) {
      // Where it appears: after the entry before it at its level, or first there.
      const group = hs.group === undefined ? undefined : h.groups.find((g) => g.key === hs.group);
      const siblings = group === undefined ? h.entries.map(topName) : group.sections.map((s) => q(s.title));
      const at = group === undefined ? h.entries.findIndex((e) => e.kind === "section" && e.section === hs) : group.sections.indexOf(hs);
      const after = at > 0 ? `after ${siblings[at - 1]}` : "first";
      const where = hs.group === undefined ? `, ${after}` : ` in group ${groupTitle(h, hs.group)}, ${after}`;
      const facts = [hs.condition === undefined ? undefined : `if ${hs.condition}`].filter((x): x is string => x !== undefined);
      lines.add("+", `${sectionName(hs)} ${hs.url}${where}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`);
      for (const ss of hs.siteSpaces) {
        if (baseOfSiteSpace.has(ss)) continue;
        lines.add("+", `  ${siteSpaceName(ss)} ${ss.url} (space ${spaceOf(ss)}${ss.condition === undefined ? "" : `, if ${ss.condition}`})`);
      }
      return;
    }
    const what: string[] = [];
    if (bs.key !== hs.key) what.push(`key ${bs.key} → ${hs.key} (previousKeys)`);
    if (bs.title !== hs.title) what.push(`title ${q(bs.title)} → ${q(hs.title)}`);
    if (hs.path.source === "declared" && bs.path.value !== hs.path.value) what.push(`path ${arrow(bs.path.value, hs.path.value)}`);
    const cond = fieldChange("condition", bs.condition, hs.condition, absenceOf(siteSectionKind.fields.condition));
    if (cond !== undefined) what.push(cond);
    const icon = fieldChange("icon", bs.icon, hs.icon, absenceOf(siteSectionKind.fields.icon), (v) => v);
    if (icon !== undefined) what.push(icon);
    const description = fieldChange("description", bs.description, hs.description, absenceOf(siteSectionKind.fields.description));
    if (description !== undefined) what.push(description);
    if (bs.url !== hs.url) what.unshift(`URL ${bs.url} → ${hs.url}${hs.siteSpaces.length > 0 ? " (its site spaces with it)" : ""}`);
    if (what.length > 0) lines.add("~", `${sectionName(hs)}: ${what.join("; ")}`);
    const bGroup = bs.group === undefined ? undefined : headGroupOfBase.get(bs.group) ?? `removed:${bs.group}`;
    if (bGroup !== hs.group) {
      const from = bs.group === undefined ? undefined : groupTitle(b, bs.group);
      const to = hs.group === undefined ? undefined : groupTitle(h, hs.group);
      lines.add(">", `${sectionName(hs)} moved ${from === undefined ? `into group ${to}` : to === undefined ? `out of group ${from}` : `from group ${from} to group ${to}`}`);
    }
  };

  const siteSpaceLines = (hs: SiteSpaceView, level: SectionView | undefined): void => {
    const bs = baseOfSiteSpace.get(hs);
    if (bs === undefined) {
      if (level !== undefined && !baseOfSection.has(level)) return; // listed with its new section
      lines.add("+", `${siteSpaceName(hs)} ${hs.url} (space ${spaceOf(hs)}${hs.condition === undefined ? "" : `, if ${hs.condition}`})`);
      return;
    }
    const baseLevel = bs.section === undefined ? undefined : b.sections.find((s) => s.key === bs.section);
    const sameLevel = level === undefined ? baseLevel === undefined : baseLevel !== undefined && baseOfSection.get(level) === baseLevel;
    if (!sameLevel) {
      const from = baseLevel === undefined ? "the site's top level" : sectionName(baseLevel);
      const to = level === undefined ? "the site's top level" : sectionName(level);
      lines.add(">", `${siteSpaceName(hs)} moved from ${from} to ${to}: ${bs.url} → ${hs.url}`);
    }
    const what: string[] = [];
    if (bs.key !== hs.key) what.push(`key ${bs.key} → ${hs.key} (previousKeys)`);
    // A URL that changes only because its section's does is said once, on the section.
    const followsSection =
      sameLevel &&
      level !== undefined &&
      baseLevel !== undefined &&
      baseLevel.url !== level.url &&
      bs.default === hs.default &&
      (hs.default || bs.path.value === hs.path.value);
    if (sameLevel && bs.url !== hs.url && !followsSection) what.push(`URL ${bs.url} → ${hs.url}`);
    if (bs.spaceId !== hs.spaceId) what.push(`space ${arrow(bs.spaceId, hs.spaceId)}${bs.spaceTitle !== hs.spaceTitle && hs.spaceTitle !== undefined ? ` (${q(hs.spaceTitle)})` : ""}`);
    if (sameLevel && hs.path.source === "declared" && bs.path.value !== hs.path.value) what.push(`path ${arrow(bs.path.value, hs.path.value)}`);
    const cond = fieldChange("condition", bs.condition, hs.condition, absenceOf(siteSpaceKind.fields.condition));
    if (cond !== undefined) what.push(cond);
    if (what.length > 0) lines.add("~", `${siteSpaceName(hs)}: ${what.join("; ")}`);
  };

  const defaultSiteSpaceLine = (bl: SiteSpaceView[], hl: SiteSpaceView[], where: string): void => {
    const bd = bl.find((s) => s.default);
    const hd = hl.find((s) => s.default);
    if (bd === undefined || hd === undefined || baseOfSiteSpace.get(hd) === bd) return;
    lines.add("~", `default site space of ${where} ${q(siteSpaceTitle(bd))} (${bd.path.value ?? "path from the API"}) → ${q(siteSpaceTitle(hd))} (${hd.path.value ?? "path from the API"}): ${hd.url} now shows ${q(siteSpaceTitle(hd))}`);
  };

  const siteSpaceOrder = (bl: SiteSpaceView[], hl: SiteSpaceView[]): void => {
    const moves = reordered(
      bl.map((s) => s.key),
      hl,
      (s) => baseOfSiteSpace.get(s)?.key,
    );
    for (const m of moves) lines.add(">", `${siteSpaceName(m.item)} ${m.item.url} moved: ${position(m.after === undefined ? undefined : q(siteSpaceTitle(m.after)))}`);
  };

  const sectionBlock = (hs: SectionView): void => {
    sectionLines(hs);
    const bs = baseOfSection.get(hs);
    if (bs !== undefined) defaultSiteSpaceLine(bs.siteSpaces, hs.siteSpaces, sectionName(hs));
    for (const ss of hs.siteSpaces) siteSpaceLines(ss, hs);
    if (bs !== undefined) siteSpaceOrder(bs.siteSpaces, hs.siteSpaces);
  };

  for (const e of h.entries) {
    const moved = movedTop.get(e);
    if (e.kind === "section") {
      sectionBlock(e.section);
      if (movedTop.has(e)) lines.add(">", `${sectionName(e.section)} moved: ${position(moved)}`);
      continue;
    }
    const hg = e.group;
    const bg = baseOfGroup.get(hg);
    if (bg === undefined) {
      lines.add("+", `group ${q(hg.title)}${hg.icon === undefined ? "" : ` (icon ${hg.icon})`}`);
    } else {
      const what: string[] = [];
      if (bg.key !== hg.key) what.push(`key ${bg.key} → ${hg.key} (previousKeys)`);
      if (bg.title !== hg.title) what.push(`title ${q(bg.title)} → ${q(hg.title)}`);
      const icon = fieldChange("icon", bg.icon, hg.icon, absenceOf(siteSectionGroupKind.fields.icon), (v) => v);
      if (icon !== undefined) what.push(icon);
      if (what.length > 0) lines.add("~", `group ${q(hg.title)}: ${what.join("; ")}`);
    }
    if (movedTop.has(e)) lines.add(">", `group ${q(hg.title)} moved: ${position(moved)}`);
    for (const hs of hg.sections) sectionBlock(hs);
    if (bg !== undefined) {
      const inBoth = hg.sections.filter((s) => {
        const bs = baseOfSection.get(s);
        return bs !== undefined && bs.group === bg.key;
      });
      for (const m of reordered(bg.sections.map((s) => s.key), inBoth, (s) => baseOfSection.get(s)?.key)) {
        lines.add(">", `${sectionName(m.item)} moved within group ${q(hg.title)}: ${position(m.after === undefined ? undefined : q(m.after.title))}`);
      }
    }
  }

  // Removed sections and groups, in the base's order.
  for (const bs of sections.removed) {
    const gone = bs.siteSpaces.filter((ss) => siteSpaces.removed.includes(ss));
    const urls = gone.map((ss) => ss.url);
    lines.add("-", `${sectionName(bs)} ${bs.url}${gone.length > 0 ? `, with its site space${gone.length === 1 ? "" : "s"} ${urls.join(", ")}` : ""}`);
  }
  for (const bg of groups.removed) {
    lines.add("-", `group ${q(bg.title)} (its remaining sections go back to the top level)`);
  }
  for (const bs of siteSpaces.removed) {
    if (bs.section !== undefined && sections.removed.some((s) => s.key === bs.section)) continue;
    lines.add("-", `${siteSpaceName(bs)} ${bs.url}`);
  }

  // Root-level site spaces (sites without sections).
  defaultSiteSpaceLine(b.rootSiteSpaces, h.rootSiteSpaces, "the site");
  for (const ss of h.rootSiteSpaces) siteSpaceLines(ss, undefined);
  siteSpaceOrder(b.rootSiteSpaces, h.rootSiteSpaces);

  // Share links, by name.
  const links = matchKeyed(b.shareLinks, h.shareLinks);
  for (const [bl, hl] of links.pairs) {
    const what: string[] = [];
    if (bl.key !== hl.key) what.push(`key ${bl.key} → ${hl.key} (previousKeys)`);
    if (bl.name !== hl.name) what.push(`renamed ${q(bl.name)} → ${q(hl.name)}`);
    if (bl.active !== hl.active) what.push(hl.active ? "reactivated: its link works again" : "deactivated: readers holding its link lose access");
    if (what.length > 0) lines.add("~", `share link ${q(hl.name)}: ${what.join("; ")}`);
  }
  for (const hl of links.added) {
    const replaces = links.removed.find((bl) => bl.name === hl.name);
    lines.add("+", `share link ${q(hl.name)}${hl.active ? "" : " (inactive)"}${replaces === undefined ? "" : ` (key ${replaces.key} → ${hl.key} without previousKeys: a new link with a new URL replaces the old one)`}`);
  }
  for (const bl of links.removed) lines.add("-", `share link ${q(bl.name)}${bl.active ? ": readers holding its link lose access" : ""}`);
  return lines.list;
}

function yesNo(v: boolean): string {
  return v ? "yes" : "no";
}

function onOff(v: boolean): string {
  return v ? "on" : "off";
}

// ---- the organisation's other objects ----

/** Values short enough to show inline; others are said to have changed. */
function shown(v: unknown): string {
  if (v === undefined) return "none";
  if (v === null) return "none (cleared)";
  if (v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { id?: unknown }).id === "string") return `{id: ${(v as { id: string }).id}}`;
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > 60 || text.includes("\n") ? "(changed)" : text;
}

/** Field by field, without the fields that identify an entry. */
function fieldChanges(b: Record<string, unknown>, h: Record<string, unknown>, skip: string[]): string[] {
  const names = [...new Set([...Object.keys(b), ...Object.keys(h)])].filter((n) => !skip.includes(n)).sort(cmp);
  const out: string[] = [];
  for (const n of names) {
    if (JSON.stringify(b[n]) === JSON.stringify(h[n])) continue;
    const long = shown(b[n]) === "(changed)" || shown(h[n]) === "(changed)";
    // What absence then means is each kind's rule (cleared, reset or left alone): named, not guessed.
    if (h[n] === undefined) out.push(`${n} left out (was ${shown(b[n])})`);
    else out.push(long ? `${n} changed` : `${n} ${shown(b[n])} → ${shown(h[n])}`);
  }
  return out;
}

/** The keyed lists of the organisation: the list, what one entry is called, and the field naming it (its natural key). */
const KEYED_KINDS: [keyof StackFile, string, string][] = [
  ["teams", "team", naturalName(teamKind)],
  ["collections", "collection", naturalName(collectionKind)],
  ["spaces", "space", naturalName(spaceKind)],
  ...listedKinds().map((k): [keyof StackFile, string, string] => [k.list.property as keyof StackFile, k.list.one, naturalName(k)]),
];

/** What leaving a field out means, as its kind declares it (a required field is never left out). */
function absenceOf(spec: FieldSpec): FieldAbsence {
  return spec.absent ?? "unmanaged";
}

/** The stack file's name of a kind's natural key. */
function naturalName(kind: AnyKind): string {
  return naturalField(kind)?.as ?? "key";
}

function diffOthers(base: StackFile, head: StackFile): Change[] {
  const lines = new Lines();
  const settings = fieldChanges((base.settings ?? {}) as Record<string, unknown>, (head.settings ?? {}) as Record<string, unknown>, []);
  if (settings.length > 0) lines.add("~", `organization settings: ${settings.join("; ")}`);

  const bm = new Map((base.members ?? []).map((m) => [m.user, m]));
  const hm = new Map((head.members ?? []).map((m) => [m.user, m]));
  for (const [user, m] of hm) {
    const was = bm.get(user);
    if (was === undefined) lines.add("+", `member role ${user}: ${m.role ?? "guest"}`);
    else if (was.role !== m.role) lines.add("~", `member role ${user}: ${was.role ?? "guest"} → ${m.role ?? "guest"}`);
  }
  for (const [user, m] of bm) {
    if (!hm.has(user)) lines.add("-", `member role ${user} (${m.role ?? "guest"}): back to the role before the first up`);
  }

  for (const [field, what, natural] of KEYED_KINDS) {
    const b = (base[field] ?? []) as unknown as ({ key: Key; previousKeys?: Key[] } & Record<string, unknown>)[];
    const h = (head[field] ?? []) as unknown as ({ key: Key; previousKeys?: Key[] } & Record<string, unknown>)[];
    const m = matchKeyed(b, h);
    const name = (o: Record<string, unknown>): string => q(String(o[natural] ?? o["key"]));
    for (const [bo, ho] of m.pairs) {
      const changes = field === "teams" ? teamChanges(bo, ho) : fieldChanges(bo, ho, ["key", "previousKeys", "adopt"]);
      if (bo.key !== ho.key) changes.unshift(`key ${bo.key} → ${ho.key} (previousKeys)`);
      if (changes.length > 0) lines.add("~", `${what} ${name(ho)}: ${changes.join("; ")}`);
    }
    for (const ho of m.added) lines.add("+", `${what} ${name(ho)}`);
    // Spaces are only taken over, never created: leaving one out gives it back its earlier settings.
    for (const bo of m.removed) lines.add("-", `${what} ${name(bo)}${field === "spaces" ? ": its settings go back to those before the first up" : ""}`);
  }
  return lines.list;
}

function teamChanges(b: Record<string, unknown>, h: Record<string, unknown>): string[] {
  const out = fieldChanges(b, h, ["key", "previousKeys", "adopt", "members"]);
  type M = { user: string; role?: string };
  const bm = new Map(((b["members"] ?? []) as M[]).map((m) => [m.user, m.role ?? "member"]));
  const hm = new Map(((h["members"] ?? []) as M[]).map((m) => [m.user, m.role ?? "member"]));
  for (const [u, r] of hm) {
    if (!bm.has(u)) out.push(`+ member ${u}${r === "member" ? "" : ` (${r})`}`);
    else if (bm.get(u) !== r) out.push(`member ${u} ${bm.get(u)} → ${r}`);
  }
  for (const u of bm.keys()) if (!hm.has(u)) out.push(`- member ${u}`);
  return out;
}

// ---- the whole diff ----

/** The difference between two stack files. */
export function diffStacks(base: StackFile, head: StackFile): StackDiff {
  const applied = appliedHead(base, head);
  return {
    organization: { base: base.organization, head: head.organization },
    sites: diffSites(viewStack(base), viewStack(applied.stack), applied.kept),
    others: diffOthers(base, head),
  };
}

function diffSites(b: StackView, h: StackView, kept: Map<Key, Change[]>): SiteDiff[] {
  const m = matchKeyed(b.sites, h.sites);
  const out: SiteDiff[] = [];
  for (const [bs, hs] of m.pairs) {
    const before = new Set(urlClashes(bs).map((c) => `${c.url} ${c.claimants.join()}`));
    const clashes = urlClashes(hs)
      .filter((c) => !before.has(`${c.url} ${c.claimants.join()}`))
      .map((c): Change => ({ sign: "~", text: `URL ${c.url} now shared by ${c.claimants.join(" and ")} (paths are unique per level, URLs are not)` }));
    const changes = [...diffSite(bs, hs), ...(kept.get(hs.key) ?? []), ...clashes];
    if (changes.length > 0) out.push({ key: hs.key, title: hs.title, status: "changed", changes });
  }
  for (const hs of m.added) {
    // A new site is drawn whole, as `tree` draws it.
    const facts = [...siteFacts(hs), ...[adaptiveFacts(hs)].filter((f): f is string => f !== undefined)];
    if (hs.organizationDefault) facts.push("the organization's default content");
    const head: Change = { sign: "+", text: `site ${q(hs.title)}${facts.length > 0 ? `: ${facts.join(", ")}` : ""}` };
    const tree = renderSite(hs, { style: plain, keys: false, body: true }).map((l): Change => ({ sign: "+", text: `  ${l}` }));
    out.push({ key: hs.key, title: hs.title, status: "added", changes: [head, ...tree] });
  }
  for (const bs of m.removed) {
    const counts = [
      [bs.sections.length, "section"],
      [allSiteSpaces(bs).length, "site space"],
      [bs.shareLinks.length, "share link"],
    ] as const;
    const parts = counts.filter(([n]) => n > 0).map(([n, w]) => `${n} ${w}${n === 1 ? "" : "s"}`);
    out.push({ key: bs.key, title: bs.title, status: "removed", changes: [{ sign: "-", text: `site ${q(bs.title)}${parts.length > 0 ? `, with its ${parts.join(", ")}` : ""}: readers lose it` }] });
  }
  return out.sort((x, y) => cmp(x.title, y.title) || cmp(x.key, y.key));
}

/** A site diff's counts, e.g. `2 added, 1 removed, 3 changed`. */
export function countChanges(changes: Change[]): string {
  const n = (s: Sign): number => changes.filter((c) => c.sign === s && !c.text.startsWith("  ")).length;
  const parts = [
    [n("+"), "added"],
    [n("-"), "removed"],
    [n(">"), "moved"],
    [n("~"), "changed"],
  ] as const;
  return parts
    .filter(([k]) => k > 0)
    .map(([k, w]) => `${k} ${w}`)
    .join(", ");
}

/** Whether the diff has anything to show. */
export function isEmpty(d: StackDiff): boolean {
  return d.sites.length === 0 && d.others.length === 0 && d.organization.base === d.organization.head;
}

// ---- rendering ----

function colour(style: Style, c: Change): string {
  const line = `${c.sign} ${c.text}`;
  switch (c.sign) {
    case "+":
      return style.green(line);
    case "-":
      return style.red(line);
    case ">":
      return style.cyan(line);
    default:
      return style.yellow(line);
  }
}

const STATUS: Record<SiteDiff["status"], string> = { added: "new site", removed: "site removed", changed: "" };

/** Plain text (coloured on a terminal). Ends with a newline. */
export function renderDiffText(d: StackDiff, style: Style = plain): string {
  if (isEmpty(d)) return "No change to the sites or the organization.\n";
  const out: string[] = [];
  if (d.organization.base !== d.organization.head) out.push(`organization ${d.organization.base} → ${d.organization.head}`, "");
  for (const s of d.sites) {
    const status = STATUS[s.status];
    out.push(`${style.bold(s.title)} ${style.dim(`(site ${s.key}${status === "" ? "" : `, ${status}`}): ${countChanges(s.changes)}`)}`);
    for (const c of s.changes) out.push(`  ${colour(style, c)}`);
    out.push("");
  }
  if (d.others.length > 0) {
    out.push(style.bold("Organization"));
    for (const c of d.others) out.push(`  ${colour(style, c)}`);
    out.push("");
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}

/** Marks the comment so a workflow can find and update its own earlier comment. */
export const COMMENT_MARKER = "<!-- docsplatform-diff -->";

function html(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A code fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(longest + 1);
}

/** Options of {@link renderDiffMarkdown}. */
export interface MarkdownOptions {
  /** Sites with at most this many lines are shown open (default 25); longer ones start collapsed. */
  openUpTo?: number;
  /** Heading of the comment. */
  title?: string;
}

/** Markdown for a pull-request comment: one collapsible block per site, in a stable order. */
export function renderDiffMarkdown(d: StackDiff, opts: MarkdownOptions = {}): string {
  const openUpTo = opts.openUpTo ?? 25;
  const out: string[] = [COMMENT_MARKER, `### ${opts.title ?? "Docs platform: what readers will see change"}`, ""];
  if (isEmpty(d)) {
    out.push("No change to the sites or the organization.");
    return `${out.join("\n")}\n`;
  }
  if (d.organization.base !== d.organization.head) out.push(`Organization \`${d.organization.base}\` → \`${d.organization.head}\``, "");
  const block = (summary: string, changes: Change[]): void => {
    const body = changes.map((c) => `${c.sign} ${c.text}`).join("\n");
    const f = fence(body);
    out.push(`<details${changes.length <= openUpTo ? " open" : ""}><summary>${summary}</summary>`, "", `${f}diff`, body, f, "", "</details>", "");
  };
  for (const s of d.sites) {
    const status = STATUS[s.status];
    block(`<b>${html(s.title)}</b> (<code>${html(s.key)}</code>${status === "" ? "" : `, ${status}`}): ${html(countChanges(s.changes))}`, s.changes);
  }
  if (d.others.length > 0) block(`<b>Organization</b>: ${html(countChanges(d.others))}`, d.others);
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
