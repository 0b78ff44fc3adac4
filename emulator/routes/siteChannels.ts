/**
 * A site's agent channels (api-extensions area 17): the external tools where the site's agent works
 * (Slack, Linear, GitHub, Discord), each with the one setup member its type accepts. A PATCH's setup
 * (type and setupSettings together) replaces the stored setup whole; channels start `pending`.
 */
import { badRequest } from "../errors";
import { compact } from "../objects";
import { limit, listQuery, obj, type Schema } from "../schema";
import { ownedRow, requireSite, view } from "../access";
import { paginate } from "../paging";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { ChannelRow, JsonObject, SiteRow } from "../model";
import { siteLocation, type View } from "../present";

type SiteP = { organizationId: string; siteId: string };
type ChannelP = SiteP & { siteChannelId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

/** The one setup member each channel type accepts, and the pattern of its items. */
export const CHANNEL_SETUP: Record<string, { member: string; item: string }> = {
  "builtin:slack": { member: "allowedChannels", item: "channelPattern" },
  "builtin:linear": { member: "allowedTeams", item: "channelPattern" },
  "builtin:github": { member: "allowedRepositories", item: "repositoryPattern" },
  "builtin:discord": { member: "allowedChannels", item: "channelPattern" },
};

/** The role a channel created without one gets (a decision: the description names none). */
export const DEFAULT_CHANNEL_ROLE = "support";

/** Every setup member of any type; which one a type takes is checked after the schema (checkSetup). */
const SETUP_SETTINGS: Schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    allowedChannels: { type: "array", items: limit("channelPattern") },
    allowedTeams: { type: "array", items: limit("channelPattern") },
    allowedRepositories: { type: "array", items: limit("repositoryPattern") },
  },
};

const CHANNEL_PROPERTIES: Record<string, Schema> = { type: limit("channelType"), setupSettings: SETUP_SETTINGS, role: limit("channelRole") };

interface ChannelBody {
  type: string;
  setupSettings: JsonObject;
  role?: ChannelRow["role"];
}

/** A setup's settings name only the member its type accepts. */
function checkSetup(type: string, settings: JsonObject): void {
  const accepted = CHANNEL_SETUP[type]!.member;
  for (const member of Object.keys(settings)) {
    if (member !== accepted) throw badRequest(`body/setupSettings/${member}`, `is not a setting of a ${type} channel (it accepts only ${accepted})`);
  }
}

function presentChannel(v: View, site: SiteRow, c: ChannelRow): Record<string, unknown> {
  return compact({
    object: "site-channel",
    id: c.id,
    type: c.type,
    setupSettings: structuredClone(c.setupSettings),
    role: c.role,
    status: c.status,
    answers: c.answers,
    createdAt: c.createdAt,
    urls: { location: `${siteLocation(v, site)}/channels/${c.id}` },
  });
}

function findChannel(ctx: AnyCtx, site: SiteRow, id: string): ChannelRow {
  return ownedRow(ctx, "channels", id, "site", site.id, "channel");
}

/** Registers a site's channel routes. */
export function registerSiteChannels(route: Route): void {
  registerChannelList(route);
  registerChannel(route);
}

/** The list and create of a site's channels. */
function registerChannelList(route: Route): void {
  route<SiteP, { page?: string; limit?: number }>({
    method: "GET",
    url: `${SITES}/channels`,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const items = [...ctx.store.all("channels")].filter((c) => c.site === site.id);
      return { status: 200, body: paginate(items, ctx.query, `channels:${site.id}`, (c) => presentChannel(v, site, c)) };
    },
  });

  route<SiteP, Record<string, never>, ChannelBody>({
    method: "POST",
    url: `${SITES}/channels`,
    body: { ...obj(CHANNEL_PROPERTIES, ["type", "setupSettings"]), additionalProperties: false },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const b = ctx.body;
      checkSetup(b.type, b.setupSettings);
      const channel: ChannelRow = {
        id: newId("chan_"),
        site: site.id,
        type: b.type,
        setupSettings: structuredClone(b.setupSettings),
        role: b.role ?? DEFAULT_CHANNEL_ROLE,
        status: "pending",
        answers: 0,
        createdAt: ctx.store.nowIso(),
      };
      ctx.store.put("channels", channel);
      const v = view(ctx, role);
      return { status: 201, body: presentChannel(v, site, channel), location: `${siteLocation(v, site)}/channels/${channel.id}` };
    },
  });
}

/** Read, update and delete one channel. */
function registerChannel(route: Route): void {
  route<ChannelP>({
    method: "GET",
    url: `${SITES}/channels/:siteChannelId`,
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: presentChannel(view(ctx, role), site, findChannel(ctx, site, ctx.params.siteChannelId)) };
    },
  });

  route<ChannelP, Record<string, never>, Partial<ChannelBody>>({
    method: "PATCH",
    url: `${SITES}/channels/:siteChannelId`,
    // A setup is its type and settings together: one without the other is a 400.
    body: { ...obj(CHANNEL_PROPERTIES), additionalProperties: false, dependencies: { type: ["setupSettings"], setupSettings: ["type"] } },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const channel = findChannel(ctx, site, ctx.params.siteChannelId);
      const b = ctx.body ?? {};
      if (b.type !== undefined && b.setupSettings !== undefined) {
        checkSetup(b.type, b.setupSettings);
        channel.type = b.type;
        channel.setupSettings = structuredClone(b.setupSettings);
      }
      if (b.role !== undefined) channel.role = b.role;
      ctx.store.touch("channels", channel);
      return { status: 200, body: presentChannel(view(ctx, role), site, channel) };
    },
  });

  route<ChannelP>({
    method: "DELETE",
    url: `${SITES}/channels/:siteChannelId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      ctx.store.del("channels", findChannel(ctx, site, ctx.params.siteChannelId).id);
      return { status: 205 };
    },
  });
}
