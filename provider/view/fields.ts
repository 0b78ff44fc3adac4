/**
 * A kind's fields as `tree` and `diff` show them, walked from its declaration: every field with `show`
 * (its label, its words, how it stands), valued as the entry declares it or as its absence rule resets
 * it. A new field of a kind is shown by declaring how, in the kind's declaration, and nowhere here.
 */
import type { AnyKind, FieldShow, FieldSpec } from "../resources/kind";
import { stackFields } from "../stack/stackSchema";
import { absenceOf, fieldChange, q } from "./changes";
import type { Style } from "./style";

/** A shown field of one entry: how to show it, and its value (undefined: none declared, or what a new object has). */
interface Shown {
  show: FieldShow;
  spec: FieldSpec;
  value: unknown;
}

/** The shown fields of an entry of a kind: its short facts, then its free text (quoted), each in declaration order. */
function shownFields(kind: AnyKind, entry: object | undefined): Shown[] {
  const values = (entry ?? {}) as Record<string, unknown>;
  const fields = stackFields(kind).filter(({ spec }) => spec.show?.quoted !== true).concat(stackFields(kind).filter(({ spec }) => spec.show?.quoted === true));
  return fields.flatMap(({ as, spec }) => {
    if (spec.show === undefined) return [];
    let value = values[as];
    if (value === undefined && typeof spec.absent === "object") value = spec.absent.reset;
    // A cleared field, or what a new object has without the line (a basic site's type), says nothing.
    if (value === null || (spec.initial !== undefined && JSON.stringify(value) === JSON.stringify(spec.initial))) value = undefined;
    return [{ show: spec.show, spec, value }];
  });
}

/** A value in words: as its declaration words it, else as written (a boolean: `yes` or `no`). */
function wordsOf({ show, value }: Shown): string | undefined {
  if (value === undefined) return undefined;
  if (show.words !== undefined) return show.words(value as never);
  if (typeof value === "boolean") return value ? "yes" : "no";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The facts `tree` writes on an entry's line (with `apart`, those of the line of their own under it;
 * with `notes`, its free text, which the line gives after the entry's condition), each as its
 * declaration says: its words after its label, or alone; a boolean as its label or `not <label>`; free
 * text quoted and dimmed.
 */
export function treeFacts(kind: AnyKind, entry: object | undefined, opts: { style?: Style; apart?: boolean; notes?: boolean } = {}): string[] {
  return shownFields(kind, entry).flatMap((field) => {
    const { show, value } = field;
    const words = wordsOf(field);
    if (words === undefined || words === show.quiet || (show.apart === true) !== (opts.apart === true) || (show.quoted === true) !== (opts.notes === true)) return [];
    if (show.quoted) return [opts.style ? opts.style.dim(q(words)) : q(words)];
    if (typeof value === "boolean" && show.words === undefined) return [value ? show.label : `not ${show.label}`];
    return [show.bare ? words : `${show.label} ${words}`];
  });
}

/** What `diff` says of each shown field that changed between two versions of an entry, with what readers notice of it. */
export function fieldChanges(kind: AnyKind, base: object | undefined, head: object | undefined): string[] {
  const before = shownFields(kind, base);
  return shownFields(kind, head).flatMap((field, i) => {
    const [b, h] = [wordsOf(before[i]!), wordsOf(field)];
    const text = fieldChange(field.show.label, b, h, absenceOf(field.spec), field.show.quoted ? q : (v) => v);
    if (text === undefined) return [];
    const means = field.show.means?.(b, h);
    return [means === undefined ? text : `${text}: ${means}`];
  });
}
