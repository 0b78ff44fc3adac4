import type { PublishingAuth, PublishingAuthBackend } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, declaredAmong, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** Inputs of VisitorAuth: how visitors of a site with visibility `visitor-auth` authenticate. */
export interface VisitorAuthInputs {
  organizationId: string;
  siteId: string;
  /** `custom` (a backend signing visitor tokens with the site's private key) or `integration`. */
  backend?: PublishingAuthBackend;
  /** Where visitors go when their token is invalid. */
  fallbackURL?: string | null;
  /** Logs visitors out of the custom backend. */
  logoutURL?: string | null;
  /** A counter or date: each change regenerates the private key once (tokens signed with the old key stop working). */
  rotation?: number | string;
}

/** Outputs of VisitorAuth. */
export interface VisitorAuthOutputs {
  organizationId: string;
  siteId: string;
  backend: PublishingAuthBackend;
  fallbackURL: string | null;
  logoutURL: string | null;
  rotation?: number | string;
  /** Secret: the key visitor tokens are signed with. */
  privateKey: string;
  /** The integration enabled on the site that authenticates visitors, if any. */
  integration: string | null;
}

const SETTINGS = ["backend", "fallbackURL", "logoutURL"] as const;

function toOutputs(where: { organizationId: string; siteId: string; rotation?: number | string }, a: PublishingAuth): VisitorAuthOutputs {
  return {
    organizationId: where.organizationId,
    siteId: where.siteId,
    backend: a.backend,
    fallbackURL: a.fallbackURL ?? null,
    logoutURL: a.logoutURL ?? null,
    ...(where.rotation === undefined ? {} : { rotation: where.rotation }),
    privateKey: a.privateKey,
    integration: a.integration ?? null,
  };
}

/** One PATCH with the backend (always required) and the declared URLs. */
async function patch(ctx: KindContext, inputs: VisitorAuthInputs, names: readonly string[] = SETTINGS): Promise<PublishingAuth> {
  const body = { backend: inputs.backend ?? "custom", ...declaredAmong<{ fallbackURL?: string | null; logoutURL?: string | null }>(inputs, ["fallbackURL", "logoutURL"], names) };
  return ctx.client.publishingAuth.update(inputs.organizationId, inputs.siteId, body);
}

/** The VisitorAuth kind: a site's visitor authentication settings; the private key is a secret output, rotated on request. */
export const visitorAuthKind = {
  name: "VisitorAuth",
  noun: { one: "visitor sign-in", many: "visitor sign-ins" },
  doc: "How visitors of a site with visibility visitor-auth authenticate: the backend, its fallback and logout URLs, and the private key (a secret output), regenerated when `rotation` changes.",
  outputs: ["privateKey", "integration"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: SITE_FIELD,
    backend: { schema: limit("publishingAuthBackend"), doc: "Who authenticates visitors: custom (a backend signing tokens with the site's private key) or integration (an integration enabled on the site).", absent: { reset: "custom" } },
    fallbackURL: { schema: limit("visitorAuthURL"), doc: "Where visitors are sent when their token is invalid.", absent: "clear" },
    logoutURL: { schema: limit("visitorAuthURL"), doc: "Logs visitors out of the custom backend.", absent: "clear" },
    rotation: {
      schema: { type: ["integer", "string"], minimum: 0, maxLength: 64 },
      doc: "A counter or a date of your choosing: changing it regenerates the private key once (tokens signed with the old key stop working at once). The first value regenerates nothing.",
      absent: "unmanaged",
    },
  },
  secretOutputs: ["privateKey"],

  // Settings that already match (a site taken over) are left alone: one read, no write.
  async create(ctx, inputs) {
    const live = await ctx.client.publishingAuth.get(inputs.organizationId, inputs.siteId);
    const differs = (inputs.backend ?? "custom") !== live.backend || (inputs.fallbackURL ?? null) !== (live.fallbackURL ?? null) || (inputs.logoutURL ?? null) !== (live.logoutURL ?? null);
    return { id: inputs.siteId, outs: toOutputs(inputs, differs ? await patch(ctx, inputs) : live) };
  },

  async read(ctx, _id, state) {
    const a = await orGone(ctx.client.publishingAuth.get(state.organizationId, state.siteId));
    return a ? toOutputs(state, a) : undefined;
  },

  async update(ctx, _id, olds, news, changed) {
    const where = { organizationId: olds.organizationId, siteId: olds.siteId, rotation: news.rotation ?? olds.rotation };
    let latest: PublishingAuth | undefined;
    if (changed.some((f) => (SETTINGS as readonly string[]).includes(f))) latest = await patch(ctx, { ...news, ...where }, changed);
    if (changed.includes("rotation")) latest = await ctx.client.publishingAuth.regenerate(olds.organizationId, olds.siteId);
    return latest ? toOutputs(where, latest) : { ...olds, rotation: where.rotation };
  },

  // Not managed once the entry is gone: the site keeps its settings and key.
  async delete() {},
} satisfies KindDefinition<VisitorAuthInputs, VisitorAuthOutputs>;

/** The dynamic provider of VisitorAuth (serialised through `provider/providers/visitorAuth`). */
export const visitorAuthProvider = makeProvider<VisitorAuthInputs, VisitorAuthOutputs>(visitorAuthKind);

/** Arguments of VisitorAuth. */
export type VisitorAuthArgs = ResourceArgs<VisitorAuthInputs>;
