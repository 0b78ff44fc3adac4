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
import type { Key } from "../file/model";
import type { ResolvedStack } from "../stack/resolve";
import { appliedHead } from "./applied";
import { q, type Change, type SiteDiff, type StackDiff } from "./changes";
import { matchKeyed } from "./match";
import { cmp, urlClashes, viewStack, type SiteView, type StackView } from "./sites";
import { diffOthers } from "./orgDiff";
import { diffSite } from "./siteDiff";
import { adaptiveFacts, renderSite, siteFacts } from "./tree";
import { guardSite, readerLevels, redirectChanges, type PastePlace, type SiteGuard } from "../redirects/guard";
import { plain } from "./style";

export { countChanges, isEmpty, type Change, type Sign, type SiteDiff, type StackDiff } from "./changes";
export { appliedHead, type AppliedHead } from "./applied";
export { matchKeyed } from "./match";
export { COMMENT_MARKER, renderDiffMarkdown, renderDiffText, type MarkdownOptions } from "./diffRender";

/** The difference between two resolved stack files. */
export function diffStacks(base: ResolvedStack, head: ResolvedStack, opts: { keys?: boolean } = {}): StackDiff {
  const applied = appliedHead(base, head);
  return {
    organization: { base: base.stack.organization, head: head.stack.organization },
    sites: diffSites(viewStack(base), viewStack(applied), applied.kept, opts.keys === true, pastePlaces(head)),
    others: diffOthers(base.stack, head.stack),
  };
}

/** A loaded stack file's locator (the loader's `problemAt`): the line and column of a place in the file. */
type Locate = (pointer: string, message: string, atKey?: boolean) => { line: number; col: number };

/**
 * Where each head site's proposed redirects would be pasted, from the head file's lines when it was
 * loaded from text (a resolved stack built otherwise has none: the guard then says "under site …").
 */
function pastePlaces(head: ResolvedStack): (siteKey: Key) => PastePlace | undefined {
  const locate = (head as { problemAt?: Locate }).problemAt;
  const sites = Array.isArray(head.stack.sites) ? head.stack.sites : [];
  return (siteKey) => {
    const i = sites.findIndex((s) => s.key === siteKey);
    if (locate === undefined || i < 0) return undefined;
    const redirects = sites[i]!.redirects;
    if (redirects === undefined) {
      const key = locate(`/sites/${i}/key`, "", true);
      return { into: "site", line: key.line, indent: " ".repeat(Math.max(0, key.col - 1)) };
    }
    const list = locate(`/sites/${i}/redirects`, "", true);
    if (redirects.length === 0) return { into: "flowList", line: list.line };
    const first = locate(`/sites/${i}/redirects/0`, "");
    // A block list's entries start on lines of their own, each after "- ".
    if (first.line === list.line) return { into: "flowList", line: list.line };
    return { into: "list", line: list.line, indent: " ".repeat(Math.max(0, first.col - 3)) };
  };
}

function diffSites(b: StackView, h: StackView, kept: Map<Key, Change[]>, keys: boolean, paste: (siteKey: Key) => PastePlace | undefined): SiteDiff[] {
  const m = matchKeyed(b.sites, h.sites);
  const out: SiteDiff[] = [];
  for (const [bs, hs] of m.pairs) {
    const before = new Set(urlClashes(bs).map((c) => `${c.url} ${c.claimants.join()}`));
    const clashes = urlClashes(hs)
      .filter((c) => !before.has(`${c.url} ${c.claimants.join()}`))
      .map((c): Change => ({ sign: "~", text: `URL ${c.url} now shared by ${c.claimants.join(" and ")} (paths are unique per level, URLs are not)` }));
    const changes = [...diffSite(bs, hs, keys), ...(kept.get(hs.key) ?? []), ...clashes, ...redirectLines(bs, hs)];
    const guard = guarded(guardSite(readerLevels(bs), readerLevels(hs), hs.entry.redirects ?? []));
    const place = guard && guard.proposed.length > 0 ? paste(hs.key) : undefined;
    if (guard && place) guard.paste = place;
    if (changes.length > 0 || guard) out.push({ key: hs.key, title: hs.title, status: "changed", changes, ...(guard ? { guard } : {}) });
  }
  for (const hs of m.added) {
    // A new site is drawn whole, as `tree` draws it.
    const facts = [...siteFacts(hs), ...[adaptiveFacts(hs)].filter((f): f is string => f !== undefined)];
    if (hs.organizationDefault) facts.push("the organization's default content");
    const head: Change = { sign: "+", text: `site ${q(hs.title)}${facts.length > 0 ? `: ${facts.join(", ")}` : ""}` };
    const tree = renderSite(hs, { style: plain, keys, body: true }).map((l): Change => ({ sign: "+", text: `  ${l}` }));
    out.push({ key: hs.key, title: hs.title, status: "added", changes: [head, ...tree] });
  }
  for (const bs of m.removed) {
    const counts = [
      [bs.sections.length, "section"],
      [bs.siteSpaces.length, "site space"],
      [bs.shareLinks.length, "share link"],
    ] as const;
    const parts = counts.filter(([n]) => n > 0).map(([n, w]) => `${n} ${w}${n === 1 ? "" : "s"}`);
    const guard = guarded(guardSite(readerLevels(bs), undefined, []));
    out.push({ key: bs.key, title: bs.title, status: "removed", changes: [{ sign: "-", text: `site ${q(bs.title)}${parts.length > 0 ? `, with its ${parts.join(", ")}` : ""}: readers lose it` }], ...(guard ? { guard } : {}) });
  }
  return out.sort((x, y) => cmp(x.title, y.title) || cmp(x.key, y.key));
}

/** The guard of a site, when the change removes or moves any of its reader URLs. */
function guarded(g: SiteGuard): SiteGuard | undefined {
  return g.rows.length > 0 ? g : undefined;
}

/** The site's redirects added, removed and changed. */
function redirectLines(b: SiteView, h: SiteView): Change[] {
  return redirectChanges(b.entry.redirects, h.entry.redirects);
}
