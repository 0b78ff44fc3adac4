import type { ChannelRole, ChannelSetupSettings, ChannelType, SiteChannel, UpdateChannelBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, limit, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

/** The setup of a channel as the stack file and the API write it: the one member its type accepts. */
const SETUP_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    allowedChannels: { type: "array", items: limit("channelPattern"), description: "Slack or Discord channels the agent may work in ('*' a wildcard); empty: all." },
    allowedTeams: { type: "array", items: limit("channelPattern"), description: "Linear team keys the agent may work in ('*' a wildcard); empty: all." },
    allowedRepositories: { type: "array", items: limit("repositoryPattern"), description: "GitHub repositories the agent may work in, owner/repository (owner/* for all of an owner's); empty: all." },
  },
} as const;

/** A setup compared as the API keeps it: members in one order, empty lists as written. */
const canonicalSetup = (v: unknown): unknown => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v);

/** The fields of a SiteAgentChannel: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  type: {
    schema: limit<ChannelType>("channelType"),
    doc: "Where the site's agent works: builtin:slack, builtin:linear, builtin:github or builtin:discord. One channel per type per site (adopt finds it by its type); a change replaces the channel.",
    required: true,
    createOnly: true,
  },
  setupSettings: {
    schema: { ...SETUP_SCHEMA } as FieldSpec<ChannelSetupSettings>["schema"],
    doc: "The channels, teams or repositories the agent may work in, under the one member the type takes: allowedChannels (slack, discord), allowedTeams (linear) or allowedRepositories (github, owner/repository); '*' is a wildcard; an empty list allows all.",
    absent: { reset: {} },
    normalize: canonicalSetup,
  },
  role: { schema: limit<ChannelRole>("channelRole"), doc: "support (the agent answers from the site's docs) or collaborator (it also opens change requests and syncs doc updates from the tool).", absent: { reset: "support" }, patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteAgentChannel. */
export type SiteAgentChannelInputs = InputsOf<typeof fields>;

/** Outputs of a SiteAgentChannel: its fields as stored, and what the platform reports. */
export type SiteAgentChannelOutputs = StoredOf<typeof fields> & {
  /** `pending` until the platform has connected the tool. */
  status: string;
  /** Answers linked to the channel. */
  answers: number;
};

const crud = siteObject({
  list: "channels",
  outputs: (c: SiteChannel) => ({ type: c.type, setupSettings: c.setupSettings ?? {}, role: c.role, status: c.status, answers: c.answers ?? 0 }),
  fields,
  // A setup is its type and settings together; the type itself never changes in place (createOnly).
  body: (news: SiteAgentChannelInputs, changed): UpdateChannelBody => ({
    ...(changed.includes("setupSettings") ? { type: news.type, setupSettings: news.setupSettings ?? {} } : {}),
    ...(changed.includes("role") ? { role: news.role ?? "support" } : {}),
  }),
  adopt: { kind: "SiteAgentChannel", field: "type", objects: "channels", verb: "are of type" },
});

/** The SiteAgentChannel kind: POST with the type, its setup and role; PATCH the setup or role. */
export const siteAgentChannelKind = {
  name: "SiteAgentChannel",
  noun: { one: "agent channel", many: "agent channels" },
  doc: "An external tool where the site's agent works (a Slack or Discord workspace, Linear, GitHub): which channels, teams or repositories it may work in, and its role there.",
  fields,

  ...crud,

  async create(ctx, inputs) {
    const channel = await ctx.client.channels.create(inputs.organizationId, inputs.siteId, {
      type: inputs.type,
      setupSettings: inputs.setupSettings ?? {},
      // Always sent: the API names no default role.
      role: inputs.role ?? "support",
    });
    return { id: channel.id, outs: crud.outputsOf(channel, inputs) };
  },
} satisfies KindDefinition<SiteAgentChannelInputs, SiteAgentChannelOutputs>;

/** The dynamic provider of SiteAgentChannel (serialised through `provider/providers/siteAgentChannel`). */
export const siteAgentChannelProvider = makeProvider<SiteAgentChannelInputs, SiteAgentChannelOutputs>(siteAgentChannelKind);

/** Arguments of a SiteAgentChannel. */
export type SiteAgentChannelArgs = ResourceArgs<SiteAgentChannelInputs>;
