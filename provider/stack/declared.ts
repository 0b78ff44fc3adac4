/**
 * A kind's entry of the stack file and the kind's inputs, each derived from the other through the
 * kind's declaration: the component turns entries into inputs, export turns live outputs into entries.
 * Neither names a field: what is spelled how, and what absence means, is the kind's declaration.
 */
import { isAbsentValue, type AnyKind, type FileSpelling, type RefSpelling } from "../resources/kind";
import { fileOf, refOf, stackFields } from "./stackSchema";
import type { Ref } from "../file/model";

/** Resolves a reference of the stack file (a key of that list, or `{id}`) to the referenced ID. */
export type ResolveRef<T> = (list: RefSpelling["ref"], ref: Ref) => T;

/**
 * What the stack file names rather than holds, read when the program runs: files (by their path as
 * written, relative to the stack file) and secret sources (the whole map of one entry).
 */
export interface DeclaredSources {
  /** The content of a file, as text or base64. */
  file(path: string, how: FileSpelling["file"]): unknown;
  /** The values of a map of secret sources, as a secret. */
  secrets(sources: Record<string, unknown>): unknown;
  /** The value of one secret source, as a secret. */
  secret(source: unknown): unknown;
}

/**
 * The inputs an entry declares: every field the stack file spells, under the kind's name for it, with
 * references resolved and wrapped, files read and secret sources resolved through `sources`. Fields the
 * entry leaves out stay out (the kind's absence rule applies); `null` stays `null`. Fields the component
 * fills in (`"context"`) are not included.
 */
export function declaredInputs<T>(kind: AnyKind, entry: object, resolve: ResolveRef<T>, sources?: DeclaredSources): Record<string, unknown> {
  const values = entry as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { name, as, spec } of stackFields(kind)) {
    const value = values[as];
    if (value === undefined) continue;
    const file = fileOf(spec);
    if (value !== null && spec.stack === "secretSource") {
      if (!sources) throw new Error(`internal error: ${kind.name}.${name} is read when the program runs, but no reader was given`);
      out[name] = sources.secret(value);
      continue;
    }
    if (value !== null && (file || spec.stack === "secretSources")) {
      if (!sources) throw new Error(`internal error: ${kind.name}.${name} is read when the program runs, but no reader was given`);
      if (spec.stack === "secretSources") out[name] = sources.secrets(value as Record<string, unknown>);
      else out[name] = Array.isArray(value) ? value.map((p) => sources.file(String(p), file!.file)) : sources.file(String(value), file!.file);
      continue;
    }
    const ref = refOf(spec);
    if (value === null || !ref) {
      out[name] = value;
      continue;
    }
    const id = resolve(ref.ref, value as Ref);
    out[name] = ref.wrap ? ref.wrap(id as unknown as string) : id;
  }
  return out;
}

/** Finds the stack-file reference for a live ID: a key of the file's list, or `{id}`. */
export type UnresolveRef = (list: RefSpelling["ref"], id: string) => Ref;

/**
 * The entry of the stack file for a live object's outputs: every field the stack file spells, except
 * those whose live value is what their absence means (a cleared field, a value at the API's default),
 * so an exported file is as short as it can be and still declares the whole live object.
 */
export function declaredEntry(kind: AnyKind, outputs: object, unresolve: UnresolveRef): Record<string, unknown> {
  const live = outputs as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { name, as, spec } of stackFields(kind)) {
    // Files and secrets cannot be read back: the caller writes what stands for them.
    if (fileOf(spec) || spec.stack === "secretSources" || spec.stack === "secretSource") continue;
    const value = live[name];
    if (value === undefined || isAbsentValue(spec, value)) continue;
    if (value === null && spec.absent === "unmanaged") continue;
    const ref = refOf(spec);
    if (!ref) {
      out[as] = value;
      continue;
    }
    const id = ref.unwrap ? ref.unwrap(value) : (value as string | null);
    if (id !== null) out[as] = unresolve(ref.ref, id);
  }
  return out;
}
