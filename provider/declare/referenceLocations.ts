/**
 * In a preview, where the stack file writes each reference a resource's inputs make to a member, space
 * or team: the reserved input the provider's check reads to look them up and to locate what it cannot
 * find (provider/resources/references.ts). Outside a preview nothing is added, so an `up` makes no lookup
 * (a bad reference is reported by the write that uses it) and its inputs, like the state, never hold it.
 */
import * as pulumi from "@pulumi/pulumi";
import { ADOPTION_PREVIEW_INPUT, isReference, REFERENCES_INPUT } from "../resources/references";
import { isIdRef, type Ref } from "../file/model";

/** Where the file writes an input property: the JSON pointer of the field, and the value written there. */
export interface Written {
  pointer: string;
  value: unknown;
  /** What the place holds, named after the location for a reader (`site partner-portal`). */
  label?: string;
}

/** The reserved input of a resource, when it is one: the resource's inputs spread it in. */
export type LocatedReferences = { [REFERENCES_INPUT]?: Record<string, string> };

/**
 * While the program runs as a preview, the reserved input for the references among `written()` (input
 * property → where the file writes it; the kind's other properties are left out): each located at its
 * value (`docs.yaml:41:15`, followed by its label when it has one), the `id` of a `{id: …}` reference. Otherwise, or without references, nothing;
 * outside a preview `written` is not even called, so an `up` does none of this work.
 */
export function locatedReferences(kindName: string, written: () => Record<string, Written>, locate: (pointer: string) => string): LocatedReferences {
  if (!pulumi.runtime.isDryRun()) return {};
  const at: Record<string, string> = {};
  for (const [property, { pointer, value, label }] of Object.entries(written())) {
    if (value === undefined || value === null || !isReference(kindName, property)) continue;
    const location = locate(isIdRef(value as Ref) ? `${pointer}/id` : pointer);
    at[property] = label === undefined ? location : `${location}: ${label}`;
  }
  return Object.keys(at).length > 0 ? { [REFERENCES_INPUT]: at } : {};
}

/** While the program runs as a preview, the reserved input that has check tell what an adoption will take over; otherwise nothing. */
export function adoptionPreview(): { [ADOPTION_PREVIEW_INPUT]?: true } {
  return pulumi.runtime.isDryRun() ? { [ADOPTION_PREVIEW_INPUT]: true } : {};
}
