/**
 * What the cross-object checks share: how a finding is reported, and the checks every list of keyed
 * entries gets (unique keys and former keys, natural keys, references by key). An entry is seen as
 * an {@link Item}: its pointer in the file and the object as written, which may have failed the
 * schema, so every access is guarded.
 */
import { dottedPath } from "../pointer";
import { KEY_PATTERN } from "../rules";
import { isObject, list, type Loose } from "../site/build";
import { show } from "./schema";

export { isObject, list, type Loose };

/** One finding of a check, before it is given a file position. */
export interface CheckIssue {
  pointer: string;
  reason: string;
  /** Point at the mapping key rather than the value. */
  atKey: boolean;
  /** A warning does not make the file invalid. */
  warning: boolean;
}

/** Finds the line of an object, to cite the first of two clashing entries. */
export type LineOf = (pointer: string) => number;

/** Where the checks report. */
export interface Ctx {
  lineOf: LineOf;
  error(pointer: string, reason: string, atKey?: boolean): void;
  warn(pointer: string, reason: string, atKey?: boolean): void;
}

/** Keys of one namespace: key → pointer of the object that declares it. */
export type Namespace = Map<string, string>;


/** An entry of a list: its pointer and the object as written. */
export interface Item {
  pointer: string;
  entry: Loose;
}

const KEY = new RegExp(KEY_PATTERN);

/** The objects of a list at `at`, as items (entries that are not objects left out). */
export function itemsOf(at: string, v: unknown): Item[] {
  return list(v).flatMap((entry, i) => (isObject(entry) ? [{ pointer: `${at}/${i}`, entry }] : []));
}

/** Keys of a list must be unique; returns key → pointer of its object. Also checks previousKeys. */
export function uniqueKeys(ctx: Ctx, items: readonly Item[], scope = "in this list"): Namespace {
  const seen: Namespace = new Map();
  for (const { pointer, entry } of items) {
    if (typeof entry.key !== "string") continue;
    const first = seen.get(entry.key);
    if (first !== undefined) {
      ctx.error(`${pointer}/key`, `duplicate key ${show(entry.key)}: already used by ${describe(first)} (line ${ctx.lineOf(first)}); keys are unique ${scope}`);
    } else {
      seen.set(entry.key, pointer);
    }
  }
  const former = new Map<string, string>();
  for (const { pointer, entry } of items) {
    list(entry.previousKeys).forEach((old, k) => {
      if (typeof old !== "string") return;
      const p = `${pointer}/previousKeys/${k}`;
      const current = seen.get(old);
      if (current !== undefined && current !== pointer) {
        ctx.error(p, `${show(old)} is the current key of ${describe(current)} (line ${ctx.lineOf(current)}); a former key cannot also be in use`);
      } else if (current === pointer) {
        ctx.error(p, `${show(old)} is this object's own key`);
      } else if (former.has(old)) {
        ctx.error(p, `${show(old)} is already a former key of ${describe(former.get(old) ?? "")}`);
      } else {
        former.set(old, pointer);
      }
    });
  }
  return seen;
}

/**
 * Natural keys (the field `adopt` looks objects up by). With `enforced` (why), the API itself refuses
 * duplicates; otherwise duplicates are only a problem when one of them adopts.
 */
export function naturalKeys(ctx: Ctx, items: readonly Item[], field: string, enforced: string | undefined): void {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const value = item.entry[field];
    if (typeof value === "string") groups.set(value, [...(groups.get(value) ?? []), item]);
  }
  for (const [value, same] of groups) {
    if (same.length < 2) continue;
    if (enforced === undefined && !same.some((i) => i.entry.adopt === true)) continue;
    const reason = enforced ?? `adopt looks objects up by ${field}, so it must be unique`;
    const first = same[0]!.pointer;
    for (const item of same.slice(1)) {
      ctx.error(`${item.pointer}/${field}`, `duplicate ${field} ${show(value)}: also used by ${describe(first)} (line ${ctx.lineOf(first)}); ${reason}`);
    }
  }
}

/** A reference field: a plain string must be a key of `namespace`; `{id}` is not checked offline. */
export function reference(ctx: Ctx, at: string, value: unknown, namespace: Namespace, kind: string, listName: string): void {
  // A string that is not even a key is already reported by the schema.
  if (typeof value !== "string" || !KEY.test(value)) return;
  if (namespace.has(value)) return;
  const keys = [...namespace.keys()];
  const listed = keys.length > 0 ? `${listName}: ${keys.join(", ")}` : `the file declares no ${listName}`;
  ctx.error(at, `no ${kind} with key ${show(value)} in this file (${listed}); to refer to an existing ${kind} by ID write {id: ${show(value)}}`);
}

/** ` (known: a, b)` for the keys of a namespace, or nothing when it is empty. */
export function known(keys: Iterable<string>): string {
  const all = [...keys];
  return all.length > 0 ? ` (known: ${all.join(", ")})` : "";
}

/** `/sites/0/sections/2` → `sites[0].sections[2]`, the way messages name fields. */
export function describe(pointer: string): string {
  return pointer === "" ? "top level" : dottedPath(pointer);
}
