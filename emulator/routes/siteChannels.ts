/**
 * A site's agent channels (api-extensions area 17): the external tools where the site's agent works
 * (Slack, Linear, GitHub, Discord), each with the one setup member its type accepts. A PATCH's setup
 * (type and setupSettings together) replaces the stored setup whole; channels start `pending`.
 */
import { badRequest } from "../errors";
import { compact } from "../objects";
import { limit, obj, type Schema } from "../schema";
import type { Route } from "../context";
import { newId } from "../seed";
import type { ChannelRow, JsonObject, SiteRow } from "../model";
import { siteLocation, type View } from "../present";
import { registerSiteCollection } from "./siteCollection";

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

/** Registers a site's channel routes. */
export function registerSiteChannels(route: Route): void {
  registerSiteCollection<"channels", ChannelBody, ChannelBody>(route, {
    path: "channels",
    param: "siteChannelId",
    table: "channels",
    what: "channel",
    read: { role: "read" },
    present: presentChannel,
    create: {
      body: { ...obj(CHANNEL_PROPERTIES, ["type", "setupSettings"]), additionalProperties: false },
      row: (ctx, site) => {
        const b = ctx.body;
        checkSetup(b.type, b.setupSettings);
        return {
          id: newId("chan_"),
          site: site.id,
          type: b.type,
          setupSettings: structuredClone(b.setupSettings),
          role: b.role ?? DEFAULT_CHANNEL_ROLE,
          status: "pending",
          answers: 0,
          createdAt: ctx.store.nowIso(),
        };
      },
    },
    update: {
      // A setup is its type and settings together: one without the other is a 400.
      body: { ...obj(CHANNEL_PROPERTIES), additionalProperties: false, dependencies: { type: ["setupSettings"], setupSettings: ["type"] } },
      apply: (channel, b) => {
        if (b.type !== undefined && b.setupSettings !== undefined) {
          checkSetup(b.type, b.setupSettings);
          channel.type = b.type;
          channel.setupSettings = structuredClone(b.setupSettings);
        }
        if (b.role !== undefined) channel.role = b.role;
      },
    },
  });
}
