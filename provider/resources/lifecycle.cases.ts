/**
 * The rows of the table-driven lifecycle test (lifecycle.test.ts): one row per kind. The test
 * walks every row through the real dynamic-provider plugin against the emulator:
 * check (good and bad inputs) → create → read → diff (no change) → in-place update → replacing
 * change → out-of-band edit detected by read → out-of-band delete detected by read → delete;
 * adopt (when the row has `adopt`); preview with unknown inputs (derived from the kind's fields).
 *
 * Adding a kind is one row here. Rows set up their parents and make out-of-band changes through
 * `env.api` (plain HTTP against the emulator, independent of the provider's client).
 */

/** A JSON object as sent to or received from the API or the plugin. */
export type Json = Record<string, unknown>;

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
  /** An in-place change of the created inputs; `expect` checks the outputs after update. */
  update: { inputs(env: LifecycleEnv, parents: Parents, created: Json): Json; expect?(outs: Json): void };
  /**
   * A change of a create-only field: diff must report `replaces`; the test then creates the
   * replacement and deletes the old object. Kinds whose every field changes in place leave this out.
   */
  replace?: { inputs(env: LifecycleEnv, parents: Parents, current: Json): Json; replaces: string[] };
  /** Edits the live object behind the API's back; read must then report outputs that diff flags as changed. */
  outOfBandEdit(env: LifecycleEnv, id: string, outs: Json, parents: Parents): Promise<void>;
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

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;

/** Creates a bare site to hang children on. */
async function makeSite(env: LifecycleEnv, visibility = "public"): Promise<Parents> {
  const site = await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Parent site"), visibility });
  return { siteId: site.id };
}

/** Two bare sites: `siteId`, and `otherSiteId` for the replacing change. */
async function makeTwoSites(env: LifecycleEnv, visibility = "public"): Promise<Parents> {
  const [a, b] = await Promise.all([makeSite(env, visibility), makeSite(env, visibility)]);
  return { siteId: a.siteId, otherSiteId: b.siteId };
}

/** Deletes every parent whose name ends in `siteId` / `SiteId` (children go with them). */
async function deleteSites(env: LifecycleEnv, parents: Parents): Promise<void> {
  for (const [name, id] of Object.entries(parents)) {
    if (/siteId$/i.test(name)) await env.api("DELETE", `${sites(env)}/${id}`);
  }
}

/** The rows: one per kind. */
export const lifecycleCases: LifecycleCase[] = [
  {
    kind: "ShareLink",
    module: "shareLink",
    setup: (env) => makeTwoSites(env, "share-link"),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Partners" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "x".repeat(51) }), property: "name" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "name" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "ok", active: "yes" }), property: "active" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, name: "Partners (renamed)", active: false }),
      expect: (outs) => {
        if (outs.name !== "Partners (renamed)" || outs.active !== false) throw new Error(`update not applied: ${JSON.stringify(outs)}`);
      },
    },
    replace: {
      inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }),
      replaces: ["siteId"],
    },
    outOfBandEdit: (env, id, _outs, p) => env.api("PATCH", `${sites(env)}/${p.siteId}/share-links/${id}`, { name: "Edited elsewhere" }),
    outOfBandDelete: (env, id, _outs, p) => env.api("DELETE", `${sites(env)}/${p.siteId}/share-links/${id}`),
    adopt: {
      prepare: async (env, p) =>
        (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/share-links`, { name: "Existing link" })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Existing link" }),
    },
    teardown: deleteSites,
  },
];
