/**
 * The form the floor program (bench/floor.ts) replays a registration in. The floor program's own copy of
 * this file types what it reads, so this file imports nothing.
 */

/** One recorded registration in the form the floor program replays. */
export interface FloorRegistration {
  type: string;
  name: string;
  /** URN of the parent ("" for the stack's direct children). */
  parent: string;
  custom: boolean;
  /** The registered inputs, without `__provider`. */
  props: Record<string, unknown>;
  /** Input keys whose value came from other resources' outputs → those resources' URNs. */
  propertyDependencies: Record<string, string[]>;
  /** Every dependency (explicit `dependsOn` included). */
  dependencies: string[];
  ignoreChanges: string[];
  additionalSecretOutputs: string[];
  aliasUrns: string[];
  urn: string;
}
