/** How the stack file names its objects and refers to them: keys, references by key or platform ID. */

/** Stable name of an object in the file (`^[a-z0-9][a-z0-9_-]{0,62}$`); it becomes the Pulumi resource name. */
export type Key = string;
/** A reference by platform ID to an object outside the file. */
export interface IdRef {
  id: string;
}
/** A reference: a plain string is the key of an object in the file, `{id}` a platform ID. */
export type Ref = Key | IdRef;

/** Fields every keyed object carries. */
export interface Keyed {
  /** Stable name; renaming it replaces the object unless the old key is in `previousKeys`. */
  key: Key;
  /** Former keys, turned into Pulumi aliases. */
  previousKeys?: Key[];
  /** Take over an existing object found by its natural key instead of creating one. */
  adopt?: boolean;
}

/** True when a reference names a platform ID rather than a key of the file. */
export function isIdRef(ref: Ref): ref is IdRef {
  return typeof ref === "object" && ref !== null;
}
