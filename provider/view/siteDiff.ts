/**
 * The changes of one site present on both sides of a diff, in the head's display order, removed
 * objects last: the site's own facts, then its structure (sections, groups and site spaces, compared
 * as two resolved site models), then its share links.
 */
import { gitSyncChanges } from "../gitSync/view";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { reordered, type GroupEntry, type LinkEntry, type SectionEntry, type SiteSpaceEntry, type TopEntry } from "../site";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import { lookChanges } from "./look";
import type { Key } from "../file/model";
import { absenceOf, arrow, fieldChange, Lines, position, q, type Change } from "./changes";
import { matchKeyed, type Matched } from "./match";
import { claimsOf, type SiteView } from "./sites";
import { fieldChanges, treeFacts } from "./fields";
import { visitorAuthFacts } from "./tree";
import type { StackGrant } from "../access/model";
import { grantChangeText, grantChanges } from "../access/view";
import { assistantChanges } from "../assistant/view";

/** A site space as the diff names it: by its space's title in quotes, or by its key where only the space's ID is known (never a key in quotes, which reads as a title). */
function siteSpaceNamed(ss: SiteSpaceEntry): string {
  return ss.spaceTitle !== undefined ? q(ss.spaceTitle) : ss.key;
}

/** How the diff names sections and site spaces; with `keys`, each with its key from the file (`(section api)`). */
class Names {
  constructor(private readonly keys: boolean) {}

  section(s: SectionEntry): string {
    return `section ${q(s.title)}${this.keys ? ` (section ${s.key})` : ""}`;
  }

  /** A site space by its space's title; by its key where the file knows the space only by ID (its title is the API's). */
  siteSpace(ss: SiteSpaceEntry): string {
    if (ss.spaceTitle === undefined) return `site space ${ss.key}`;
    return `site space ${q(ss.spaceTitle)}${this.keys ? ` (site space ${ss.key})` : ""}`;
  }
}

/**
 * The space a site space shows, as the file names it: its ID when the file gives one, else the key of
 * its `spaces:` entry (a space the stack makes has no ID yet). Its title, when the file gives one, is
 * already the site space's name.
 */
function spaceOf(ss: SiteSpaceEntry): string {
  if (ss.spaceId !== undefined) return ss.spaceId;
  return typeof ss.space === "string" ? ss.space : "not named";
}

/** A site space's look override as the diff says it: members overridden, changed or no longer overridden. */
function overrideChange(b: Record<string, unknown> | undefined, h: Record<string, unknown> | undefined): string | undefined {
  if (JSON.stringify(b) === JSON.stringify(h)) return undefined;
  if (h === undefined) return "look override removed (the site's look shows again)";
  if (b === undefined) return `look overridden: ${Object.keys(h).sort().join(", ")}`;
  const changed = [...new Set([...Object.keys(b), ...Object.keys(h)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(h[k])).sort();
  return `look override changed: ${changed.map((k) => (h[k] === undefined ? `${k} cleared` : k)).join(", ")}`;
}

/** The changes of a site present on both sides. */
export function diffSite(b: SiteView, h: SiteView, keys = false): Change[] {
  const lines = new Lines();
  siteFactLines(b, h, lines);
  for (const t of lookChanges(b.entry.customization, h.entry.customization)) lines.add("~", t);
  new StructureDiff(b, h, lines, new Names(keys)).run();
  linkLines(b, h, lines);
  shareLinkLines(b, h, lines);
  accessLines(b, h, lines);
  for (const [sign, text] of gitSyncChanges(b.entry.gitSync, h.entry.gitSync)) lines.add(sign, text);
  for (const c of assistantChanges(b.entry, h.entry)) lines.add(c.sign, c.text);
  return lines.list;
}

/** Every grant added, removed or changed on the site, and its visitor sign-in (never the key). */
function accessLines(b: SiteView, h: SiteView, lines: Lines): void {
  const grants = (before: StackGrant[] | undefined, after: StackGrant[] | undefined, on: string): void => {
    if (after === undefined) {
      if (before !== undefined) lines.add("~", `${on}permissions no longer managed (the grants stay as they are)`);
      return;
    }
    for (const c of grantChanges(before ?? [], after, h.teamTitle)) lines.add(c.change === "added" ? "+" : c.change === "removed" ? "-" : "~", `${on}${grantChangeText(c)}`);
  };
  grants(b.entry.permissions, h.entry.permissions, "");
  const ba = visitorAuthFacts(b);
  const ha = visitorAuthFacts(h);
  if (ba !== ha) {
    if (ha === undefined) lines.add("~", "visitor sign-in no longer managed");
    else if (ba === undefined) lines.add("+", `visitor sign-in: ${ha}`);
    else lines.add("~", `visitor sign-in: ${ba} → ${ha}`);
  }
  const [br, hr] = [b.entry.visitorAuth?.rotation, h.entry.visitorAuth?.rotation];
  if (ba !== undefined && ha !== undefined && br !== undefined && hr !== undefined && br !== hr) {
    lines.add("~", `visitor sign-in: private key regenerated (rotation ${br} → ${hr}): tokens signed with the old key stop working`);
  }
}

/** The site's key, title and facts (visibility, published, …), claims and organisation default. */
function siteFactLines(b: SiteView, h: SiteView, lines: Lines): void {
  if (b.key !== h.key) lines.add("~", `key ${b.key} → ${h.key} (previousKeys: the same site)`);
  if (b.title !== h.title) lines.add("~", `title ${q(b.title)} → ${q(h.title)}`);
  for (const text of fieldChanges(siteKind, b.entry, h.entry)) lines.add("~", text);
  const [bClaims, hClaims] = [claimsOf(b), claimsOf(h)];
  for (const c of hClaims.filter((c) => !bClaims.includes(c))) lines.add("+", `visitor claim ${c}`);
  for (const c of bClaims.filter((c) => !hClaims.includes(c))) lines.add("-", `visitor claim ${c}`);
  if (b.organizationDefault !== h.organizationDefault) {
    lines.add("~", h.organizationDefault ? "now the organization's default content" : "no longer the organization's default content");
  }
}

/** Share links, by name. */
function shareLinkLines(b: SiteView, h: SiteView, lines: Lines): void {
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
}

/** The name of a top-level entry as the diff says it. */
function topName(e: TopEntry | undefined): string | undefined {
  return e === undefined ? undefined : e.kind === "section" ? q(e.section.title) : e.kind === "link" ? `link ${q(e.link.title)}` : `group ${q(e.group.title)}`;
}

function linkName(l: LinkEntry): string {
  return `external link ${q(l.title)}`;
}

/** Draft flags as readers notice them: staged content going live, or live content becoming a draft. */
export function draftChange(b: boolean | undefined, h: boolean | undefined): string | undefined {
  if (h === undefined || (b ?? false) === h) return undefined;
  return h ? "now a draft: readers no longer see it" : "published: readers see it";
}

/** External links, by key: added, removed, changed (title, URL, group, draft), and moves among their siblings. */
function linkLines(b: SiteView, h: SiteView, lines: Lines): void {
  const links = matchKeyed(b.links, h.links);
  const groupTitle = (view: SiteView, key: Key | undefined) => (key === undefined ? undefined : q(view.groups.find((g) => g.key === key)?.title ?? key));
  for (const hl of links.added) {
    const where = hl.group === undefined ? "" : ` in group ${groupTitle(h, hl.group)}`;
    lines.add("+", `${linkName(hl)} → ${hl.target}${where}${hl.draft === true ? " (draft)" : ""}`);
  }
  for (const [bl, hl] of links.pairs) {
    const what: string[] = [];
    if (bl.key !== hl.key) what.push(`key ${bl.key} → ${hl.key} (previousKeys)`);
    if (bl.title !== hl.title) what.push(`title ${q(bl.title)} → ${q(hl.title)}`);
    if (bl.target !== hl.target) what.push(`URL ${bl.target} → ${hl.target}`);
    for (const c of [
      fieldChange("condition", bl.condition, hl.condition, absenceOf(siteExternalLinkKind.fields.condition)),
      ...fieldChanges(siteExternalLinkKind, bl.entry, hl.entry),
      draftChange(bl.draft, hl.draft),
    ]) {
      if (c !== undefined) what.push(c);
    }
    if (what.length > 0) lines.add("~", `${linkName(hl)}: ${what.join("; ")}`);
    if (bl.group !== hl.group) {
      const from = groupTitle(b, bl.group);
      const to = groupTitle(h, hl.group);
      lines.add(">", `${linkName(hl)} moved ${from === undefined ? `into group ${to}` : to === undefined ? `out of group ${from}` : `from group ${from} to group ${to}`}`);
    }
  }
  for (const bl of links.removed) lines.add("-", `${linkName(bl)} → ${bl.target}`);
}

/** The structure of two versions of a site, paired by key and `previousKeys`: what readers notice moved, renamed, added or removed. */
class StructureDiff {
  private readonly sections: Matched<SectionEntry, SectionEntry>;
  private readonly baseOfSection: Map<SectionEntry, SectionEntry>;
  private readonly groups: Matched<GroupEntry, GroupEntry>;
  private readonly baseOfGroup: Map<GroupEntry, GroupEntry>;
  private readonly headGroupOfBase: Map<Key, Key>;
  private readonly siteSpaces: Matched<SiteSpaceEntry, SiteSpaceEntry>;
  private readonly baseOfSiteSpace: Map<SiteSpaceEntry, SiteSpaceEntry>;

  constructor(
    private readonly b: SiteView,
    private readonly h: SiteView,
    private readonly lines: Lines,
    private readonly names: Names,
  ) {
    this.sections = matchKeyed(b.sections, h.sections);
    this.baseOfSection = new Map(this.sections.pairs.map(([bs, hs]) => [hs, bs]));
    this.groups = matchKeyed(b.groups, h.groups);
    this.baseOfGroup = new Map(this.groups.pairs.map(([bg, hg]) => [hg, bg]));
    this.headGroupOfBase = new Map(this.groups.pairs.map(([bg, hg]) => [bg.key, hg.key]));
    this.siteSpaces = matchKeyed(b.siteSpaces, h.siteSpaces);
    this.baseOfSiteSpace = new Map(this.siteSpaces.pairs.map(([bs, hs]) => [hs, bs]));
  }

  run(): void {
    const { b, h } = this;
    const bDefault = b.sections.find((s) => s.default);
    const hDefault = h.sections.find((s) => s.default);
    if (bDefault !== undefined && hDefault !== undefined && this.baseOfSection.get(hDefault) !== bDefault) {
      this.lines.add("~", `default section ${q(bDefault.title)} → ${q(hDefault.title)}: / now shows ${q(hDefault.title)}`);
    }
    const movedTop = this.topMoves();
    for (const e of h.entries) {
      const moved = movedTop.get(e);
      if (e.kind === "section") {
        this.sectionBlock(e.section);
        if (movedTop.has(e)) this.lines.add(">", `${this.names.section(e.section)} moved: ${position(moved)}`);
      } else if (e.kind === "link") {
        if (movedTop.has(e)) this.lines.add(">", `${linkName(e.link)} moved: ${position(moved)}`);
      } else {
        this.groupBlock(e.group, movedTop.has(e), moved);
      }
    }
    this.removedLines();
    // Root-level site spaces (sites without sections).
    this.defaultSiteSpaceLine(b.rootSiteSpaces, h.rootSiteSpaces, "the site");
    for (const ss of h.rootSiteSpaces) this.siteSpaceLines(ss, undefined);
    this.siteSpaceOrder(b.rootSiteSpaces, h.rootSiteSpaces);
  }

  /** Top level: moves in order among entries that stay at the top level, each with the name of the entry it now follows. */
  private topMoves(): Map<TopEntry, string | undefined> {
    const topKey = (e: TopEntry): string => (e.kind === "section" ? `s:${e.section.key}` : e.kind === "link" ? `l:${e.link.key}` : `g:${e.group.key}`);
    const baseLinks = new Map(matchKeyed(this.b.links, this.h.links).pairs.map(([bl, hl]) => [hl, bl]));
    const moves = reordered(this.b.entries.map(topKey), this.h.entries, (e) => {
      if (e.kind === "section") {
        const bs = this.baseOfSection.get(e.section);
        return bs === undefined ? undefined : `s:${bs.key}`;
      }
      if (e.kind === "link") {
        const bl = baseLinks.get(e.link);
        return bl === undefined ? undefined : `l:${bl.key}`;
      }
      const bg = this.baseOfGroup.get(e.group);
      return bg === undefined ? undefined : `g:${bg.key}`;
    });
    return new Map(moves.map((m) => [m.item, topName(m.after)]));
  }

  private groupTitle(view: SiteView, key: Key | undefined): string {
    return q(view.groups.find((g) => g.key === key)?.title ?? key ?? "");
  }

  private groupBlock(hg: GroupEntry, moved: boolean, after: string | undefined): void {
    const bg = this.baseOfGroup.get(hg);
    if (bg === undefined) {
      const facts = [...treeFacts(siteSectionGroupKind, hg.entry), ...treeFacts(siteSectionGroupKind, hg.entry, { notes: true })];
      this.lines.add("+", `group ${q(hg.title)}${facts.length === 0 ? "" : ` (${facts.join(", ")})`}`);
    } else {
      const what: string[] = [];
      if (bg.key !== hg.key) what.push(`key ${bg.key} → ${hg.key} (previousKeys)`);
      if (bg.title !== hg.title) what.push(`title ${q(bg.title)} → ${q(hg.title)}`);
      what.push(...fieldChanges(siteSectionGroupKind, bg.entry, hg.entry));
      if (what.length > 0) this.lines.add("~", `group ${q(hg.title)}: ${what.join("; ")}`);
    }
    if (bg !== undefined) {
      const draft = draftChange(bg.draft, hg.draft);
      if (draft !== undefined) this.lines.add("~", `group ${q(hg.title)}: ${draft}`);
    }
    if (moved) this.lines.add(">", `group ${q(hg.title)} moved: ${position(after)}`);
    for (const hs of hg.sections) this.sectionBlock(hs);
    if (bg === undefined) return;
    const inBoth = hg.sections.filter((s) => {
      const bs = this.baseOfSection.get(s);
      return bs !== undefined && bs.group === bg.key;
    });
    for (const m of reordered(bg.sections.map((s) => s.key), inBoth, (s) => this.baseOfSection.get(s)?.key)) {
      this.lines.add(">", `${this.names.section(m.item)} moved within group ${q(hg.title)}: ${position(m.after === undefined ? undefined : q(m.after.title))}`);
    }
  }

  private sectionBlock(hs: SectionEntry): void {
    this.sectionLines(hs);
    const bs = this.baseOfSection.get(hs);
    if (bs !== undefined) this.defaultSiteSpaceLine(bs.siteSpaces, hs.siteSpaces, this.names.section(hs));
    for (const ss of hs.siteSpaces) this.siteSpaceLines(ss, hs);
    if (bs !== undefined) this.siteSpaceOrder(bs.siteSpaces, hs.siteSpaces);
  }

  /** A section new in the head: where it appears, with its new site spaces. */
  private addedSection(hs: SectionEntry): void {
    const { h } = this;
    // Where it appears: after the entry before it at its level, or first there.
    const group = hs.group === undefined ? undefined : h.groups.find((g) => g.key === hs.group);
    const siblings = group === undefined ? h.entries.map(topName) : group.children.map((c) => (c.kind === "section" ? q(c.section.title) : `link ${q(c.link.title)}`));
    const at = group === undefined ? h.entries.findIndex((e) => e.kind === "section" && e.section === hs) : group.children.findIndex((c) => c.kind === "section" && c.section === hs);
    const after = at > 0 ? `after ${siblings[at - 1]}` : "first";
    const where = hs.group === undefined ? `, ${after}` : ` in group ${this.groupTitle(h, hs.group)}, ${after}`;
    const facts = [hs.condition === undefined ? undefined : `if ${hs.condition}`, hs.draft === true ? "draft" : undefined].filter((x): x is string => x !== undefined);
    this.lines.add("+", `${this.names.section(hs)} ${hs.url}${where}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`);
    for (const ss of hs.siteSpaces) {
      if (this.baseOfSiteSpace.has(ss)) continue;
      this.lines.add("+", `  ${this.names.siteSpace(ss)} ${ss.url} (space ${spaceOf(ss)}${ss.condition === undefined ? "" : `, if ${ss.condition}`}${ss.hidden ? ", hidden" : ""})`);
    }
  }

  private sectionLines(hs: SectionEntry): void {
    const bs = this.baseOfSection.get(hs);
    if (bs === undefined) return this.addedSection(hs);
    const what: string[] = [];
    if (bs.key !== hs.key) what.push(`key ${bs.key} → ${hs.key} (previousKeys)`);
    if (bs.title !== hs.title) what.push(`title ${q(bs.title)} → ${q(hs.title)}`);
    if (hs.path.source === "declared" && bs.path.value !== hs.path.value) what.push(`path ${arrow(bs.path.value, hs.path.value)}`);
    const changed = [fieldChange("condition", bs.condition, hs.condition, absenceOf(siteSectionKind.fields.condition)), ...fieldChanges(siteSectionKind, bs.entry, hs.entry)];
    for (const c of changed) if (c !== undefined) what.push(c);
    const draft = draftChange(bs.draft, hs.draft);
    if (draft !== undefined) what.push(draft);
    if (bs.url !== hs.url) what.unshift(`URL ${bs.url} → ${hs.url}${hs.siteSpaces.length > 0 ? " (its site spaces with it)" : ""}`);
    if (what.length > 0) this.lines.add("~", `${this.names.section(hs)}: ${what.join("; ")}`);
    const bGroup = bs.group === undefined ? undefined : this.headGroupOfBase.get(bs.group) ?? `removed:${bs.group}`;
    if (bGroup !== hs.group) {
      const from = bs.group === undefined ? undefined : this.groupTitle(this.b, bs.group);
      const to = hs.group === undefined ? undefined : this.groupTitle(this.h, hs.group);
      this.lines.add(">", `${this.names.section(hs)} moved ${from === undefined ? `into group ${to}` : to === undefined ? `out of group ${from}` : `from group ${from} to group ${to}`}`);
    }
  }

  private siteSpaceLines(hs: SiteSpaceEntry, level: SectionEntry | undefined): void {
    const bs = this.baseOfSiteSpace.get(hs);
    if (bs === undefined) {
      if (level !== undefined && !this.baseOfSection.has(level)) return; // listed with its new section
      this.lines.add("+", `${this.names.siteSpace(hs)} ${hs.url} (space ${spaceOf(hs)}${hs.condition === undefined ? "" : `, if ${hs.condition}`}${hs.hidden ? ", hidden" : ""})`);
      return;
    }
    const baseLevel = bs.section === undefined ? undefined : this.b.sections.find((s) => s.key === bs.section);
    const sameLevel = level === undefined ? baseLevel === undefined : baseLevel !== undefined && this.baseOfSection.get(level) === baseLevel;
    if (!sameLevel) {
      const from = baseLevel === undefined ? "the site's top level" : this.names.section(baseLevel);
      const to = level === undefined ? "the site's top level" : this.names.section(level);
      this.lines.add(">", `${this.names.siteSpace(hs)} moved from ${from} to ${to}: ${bs.url} → ${hs.url}`);
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
    const draft = draftChange(bs.draft, hs.draft);
    if (draft !== undefined) what.push(draft);
    if (bs.hidden !== hs.hidden) what.push(hs.hidden ? "hidden: left out of the navigation" : "shown in the navigation again");
    what.push(...fieldChanges(siteSpaceKind, bs.entry, hs.entry));
    const look = overrideChange(bs.entry.customization, hs.entry.customization);
    if (look !== undefined) what.push(look);
    if (what.length > 0) this.lines.add("~", `${this.names.siteSpace(hs)}: ${what.join("; ")}`);
  }

  private defaultSiteSpaceLine(bl: SiteSpaceEntry[], hl: SiteSpaceEntry[], where: string): void {
    const bd = bl.find((s) => s.default);
    const hd = hl.find((s) => s.default);
    if (bd === undefined || hd === undefined || this.baseOfSiteSpace.get(hd) === bd) return;
    this.lines.add("~", `default site space of ${where} ${siteSpaceNamed(bd)} (${bd.path.value ?? "path from the API"}) → ${siteSpaceNamed(hd)} (${hd.path.value ?? "path from the API"}): ${hd.url} now shows site space ${siteSpaceNamed(hd)}`);
  }

  private siteSpaceOrder(bl: SiteSpaceEntry[], hl: SiteSpaceEntry[]): void {
    const moves = reordered(
      bl.map((s) => s.key),
      hl,
      (s) => this.baseOfSiteSpace.get(s)?.key,
    );
    for (const m of moves) this.lines.add(">", `${this.names.siteSpace(m.item)} ${m.item.url} moved: ${position(m.after === undefined ? undefined : siteSpaceNamed(m.after))}`);
  }

  /** Removed sections and groups, in the base's order, then site spaces removed from a remaining section. */
  private removedLines(): void {
    const { sections, groups, siteSpaces } = this;
    for (const bs of sections.removed) {
      const gone = bs.siteSpaces.filter((ss) => siteSpaces.removed.includes(ss));
      const urls = gone.map((ss) => ss.url);
      this.lines.add("-", `${this.names.section(bs)} ${bs.url}${gone.length > 0 ? `, with its site space${gone.length === 1 ? "" : "s"} ${urls.join(", ")}` : ""}`);
    }
    for (const bg of groups.removed) {
      this.lines.add("-", `group ${q(bg.title)} (its remaining sections go back to the top level)`);
    }
    for (const bs of siteSpaces.removed) {
      if (bs.section !== undefined && sections.removed.some((s) => s.key === bs.section)) continue;
      this.lines.add("-", `${this.names.siteSpace(bs)} ${bs.url}`);
    }
  }
}
