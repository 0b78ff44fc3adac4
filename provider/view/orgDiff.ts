/** The organisation's objects other than sites, summarised for `docsplatform diff`: settings, members, teams and the keyed lists. */
import type { AnyKind } from "../resources/kind";
import { collectionKind } from "../resources/collection";
import { listedKinds } from "../resources/kinds";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { naturalField } from "../stack/stackSchema";
import type { Key, StackFile } from "../file/model";
import { Lines, q, type Change } from "./changes";
import type { StackGrant } from "../access/model";
import { grantChangeText, grantChanges } from "../access/view";
import { matchKeyed } from "./match";
import { cmp } from "./sites";

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
  ["teams", teamKind.noun.one, naturalName(teamKind)],
  ["collections", collectionKind.noun.one, naturalName(collectionKind)],
  ["spaces", spaceKind.noun.one, naturalName(spaceKind)],
  ...listedKinds().map((k): [keyof StackFile, string, string] => [k.list.property as keyof StackFile, k.noun.one, naturalName(k)]),
];


/** The stack file's name of a kind's natural key. */
function naturalName(kind: AnyKind): string {
  return naturalField(kind)?.as ?? "key";
}

export function diffOthers(base: StackFile, head: StackFile): Change[] {
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
      const changes = field === "teams" ? teamChanges(bo, ho) : fieldChanges(bo, ho, ["key", "previousKeys", "adopt", ...ACCESS_FIELDS]);
      if (bo.key !== ho.key) changes.unshift(`key ${bo.key} → ${ho.key} (previousKeys)`);
      if (changes.length > 0) lines.add("~", `${what} ${name(ho)}: ${changes.join("; ")}`);
      grantLines(lines, `${what} ${name(ho)}`, bo, ho, teamTitle(head));
    }
    for (const ho of m.added) {
      lines.add("+", `${what} ${name(ho)}${field === "spaces" && ho["id"] === undefined ? " (created by this file)" : ""}`);
      grantLines(lines, `${what} ${name(ho)}`, {}, ho, teamTitle(head));
    }
    for (const bo of m.removed) lines.add("-", `${what} ${name(bo)}${field === "spaces" ? removedSpace(bo) : ""}`);
  }
  installationLines(lines, base, head);
  return lines.list;
}

/** The access fields of spaces and collections, said grant by grant rather than as values. */
const ACCESS_FIELDS = ["permissions", "allowLockout"];

/** A team's title by its key, in a version of the file. */
function teamTitle(stack: StackFile): (key: string) => string | undefined {
  const titles = new Map((stack.teams ?? []).map((t) => [t.key, t.title ?? t.key]));
  return (key) => titles.get(key);
}

/** Every grant added, removed or changed on one space or collection. */
function grantLines(lines: Lines, what: string, b: Record<string, unknown>, h: Record<string, unknown>, title: (key: string) => string | undefined): void {
  const before = b["permissions"] as StackGrant[] | undefined;
  const after = h["permissions"] as StackGrant[] | undefined;
  if (after === undefined) {
    if (before !== undefined) lines.add("~", `${what}: permissions no longer managed (the grants stay as they are)`);
    return;
  }
  for (const c of grantChanges(before ?? [], after, title)) lines.add(c.change === "added" ? "+" : c.change === "removed" ? "-" : "~", `${what}: ${grantChangeText(c)}`);
  if (b["allowLockout"] !== h["allowLockout"]) lines.add("~", `${what}: ${h["allowLockout"] === true ? "allows a change that leaves it with no admin or removes the caller's access" : "a change that leaves it with no admin or removes the caller's access is refused again"}`);
}

/** Installations: added (installed), removed (uninstalled), and where they are enabled; configuration by name only. */
function installationLines(lines: Lines, base: StackFile, head: StackFile): void {
  const m = matchKeyed(base.installations ?? [], head.installations ?? []);
  const refs = (v: unknown): string[] => ((v ?? []) as (string | { id: string })[]).map((r) => (typeof r === "string" ? r : `{id: ${r.id}}`));
  const names = (v: unknown): string[] => Object.keys((v ?? {}) as object).sort(cmp);
  for (const [bo, ho] of m.pairs) {
    const what: string[] = [];
    for (const [field, word] of [["sites", "site"], ["spaces", "space"]] as const) {
      const [b, h] = [refs(bo[field]), refs(ho[field])];
      for (const r of h.filter((x) => !b.includes(x))) what.push(`enabled on ${word} ${r}`);
      for (const r of b.filter((x) => !h.includes(x))) what.push(`disabled on ${word} ${r}`);
    }
    if (JSON.stringify(bo.configuration) !== JSON.stringify(ho.configuration)) what.push(`configuration ${names(ho.configuration).join(", ") || "emptied"}`);
    if (JSON.stringify(bo.secretConfiguration) !== JSON.stringify(ho.secretConfiguration)) what.push(`secret configuration sources ${names(ho.secretConfiguration).join(", ") || "none"}`);
    if (what.length > 0) lines.add("~", `installation ${q(ho.integration)}: ${what.join("; ")}`);
  }
  for (const ho of m.added) lines.add("+", `installation ${q(ho.integration)}${ho.sites?.length ? `, enabled on ${refs(ho.sites).join(", ")}` : ""}`);
  for (const bo of m.removed) lines.add("-", `installation ${q(bo.integration)}: uninstalled`);
}

/**
 * What removing a space from the file does: a space taken over by `id` gets its earlier settings back;
 * a space the file created is left in place with its content (out of management), unless its entry asks
 * for deletion, which the platform keeps restorable for 7 days.
 */
function removedSpace(space: Record<string, unknown>): string {
  if (space["id"] !== undefined) return ": its settings go back to those before the first up";
  if (space["deletionPolicy"] === "delete") return ": DELETED with its content (deletionPolicy: delete; the platform keeps it restorable for 7 days)";
  return ": warning: left in place with its content and no longer managed (add deletionPolicy: delete before removing the entry to delete it; the platform keeps a deleted space restorable for 7 days)";
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

