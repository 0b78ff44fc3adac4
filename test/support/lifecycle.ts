/**
 * The shape of a row of the table-driven lifecycle test (lifecycle.cases.ts holds the rows; the
 * feature files access, assistant, Git Sync and guides add theirs) and what every row receives.
 */
/** A JSON object as sent to or received from the API or the plugin. */
export type Json = Record<string, unknown>;

/** A field cleared on the platform, as the state keeps it: left out (kind.ts `storedOutputs`), or null in a state from before. */
export function cleared(outs: Json, name: string): boolean {
  return outs[name] === undefined || outs[name] === null;
}

/** What every row receives. */
export interface LifecycleEnv {
  /** The emulator's default organisation (`demo-org`). */
  orgId: string;
  /** Plain authenticated HTTP against the emulator: returns the parsed body (undefined for 204/205); throws on an error status. */
  api<T = Json>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T>;
  /** Every item of a list endpoint. */
  list<T = Json>(path: string): Promise<T[]>;
  /** A name unique within the test run, e.g. `unique("site")` → `site-7`. */
  unique(prefix: string): string;
}

/** Parent objects a row created, by name (e.g. `{ siteId: "…" }`). */
export type Parents = Record<string, string>;

/** One kind's row. */
export interface LifecycleCase {
  /** Kind name as in kinds.ts (`ShareLink`). */
  kind: string;
  /** Module name of the kind's provider shim: `dist/provider/providers/<module>.js`. */
  module: string;
  /** Creates the parent objects (site, section, team, …) through `env.api`. */
  setup?(env: LifecycleEnv): Promise<Parents>;
  /** Inputs of the first create. */
  create(env: LifecycleEnv, parents: Parents): Json;
  /** Inputs check must reject, each with a property expected among the failures. */
  bad: { inputs(env: LifecycleEnv, parents: Parents): Json; property: string }[];
  /** An in-place change of the created inputs; `expect` checks the outputs after update (given the inputs updated to). */
  update: { inputs(env: LifecycleEnv, parents: Parents, created: Json): Json; expect?(outs: Json, inputs: Json): void };
  /**
   * Further in-place changes after `update`, in order, each walked the same way (diff → update → read →
   * no change); `name` says what changes (a kind whose content is compared by digest, for instance).
   */
  moreUpdates?: { name: string; inputs(env: LifecycleEnv, parents: Parents, current: Json): Json; expect?(outs: Json, inputs: Json): void }[];
  /**
   * A change of a create-only field: diff must report `replaces`; the test then creates the
   * replacement and deletes the old object. Kinds whose every field changes in place leave this out.
   */
  replace?: { inputs(env: LifecycleEnv, parents: Parents, current: Json): Json; replaces: string[] };
  /**
   * Edits the live object behind the API's back; read must then report outputs that diff flags as changed.
   * Left out only by a kind none of whose declared fields a hand edit can change (a style guide: which space it is).
   */
  outOfBandEdit?(env: LifecycleEnv, id: string, outs: Json, parents: Parents): Promise<void>;
  /** Deletes the live object behind the API's back; read must then answer "gone". Leave out when the API cannot delete it. */
  outOfBandDelete?(env: LifecycleEnv, id: string, outs: Json, parents: Parents): Promise<void>;
  /** Natural-key adopt: `prepare` creates an object through `env.api` and returns its ID; create with `inputs` + `adopt: true` must take it over. */
  adopt?: {
    prepare(env: LifecycleEnv, parents: Parents): Promise<string>;
    inputs(env: LifecycleEnv, parents: Parents): Json;
  };
  /** Removes parents after the row (deleting a site removes its children). */
  teardown?(env: LifecycleEnv, parents: Parents): Promise<void>;
}
