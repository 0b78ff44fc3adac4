import type { OrganizationAgentInstructions } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, limit, orGone, ORGANIZATION_FIELD } from "./kind";
import { canonicalMarkdown, documentOf, markdownOf } from "./markdownDocument";
import { makeProvider } from "./provider";

/** The fields of AgentInstructions: its one declaration. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  markdown: {
    schema: limit("agentInstructions"),
    doc: "The organisation's instructions for the platform's docs agent, as markdown (paragraphs separated by a blank line, headings of one to three #), 1 to 100,000 characters; sent as a document that replaces the whole of the instructions. Compared as markdown, so a change made in the app is drift.",
    required: true,
    normalize: (v) => (typeof v === "string" ? canonicalMarkdown(v) : v),
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of AgentInstructions. */
export type AgentInstructionsInputs = InputsOf<typeof fields>;

/** Outputs of AgentInstructions: the live instructions as markdown, and when and by whom they were last changed. */
export type AgentInstructionsOutputs = StoredOf<typeof fields> & {
  updatedAt: string | null;
  updatedBy: string | null;
};

function toOutputs(organizationId: string, live: OrganizationAgentInstructions): AgentInstructionsOutputs {
  return { organizationId, markdown: markdownOf(live.instructions), updatedAt: live.updatedAt || null, updatedBy: live.updatedBy || null };
}

async function put(ctx: KindContext, inputs: AgentInstructionsInputs): Promise<AgentInstructionsOutputs> {
  return toOutputs(inputs.organizationId, await ctx.client.styleGuides.setAgentInstructions(inputs.organizationId, documentOf(inputs.markdown)));
}

/**
 * The AgentInstructions kind: the organisation's one set of instructions, replaced by `PUT
 * /orgs/{org}/agent-instructions`. The platform has no delete: removing the block stops managing them
 * and leaves them as they are (the component declares the resource with `retainOnDelete`).
 */
export const agentInstructionsKind = {
  name: "AgentInstructions",
  noun: { one: "agent instructions", many: "agent instructions" },
  doc: "The organisation's instructions for the platform's docs agent.",
  fields,

  naturalKey: { field: "organizationId", scope: "organization" },
  retainedOnDelete: () => true,

  // One read first: instructions already as declared (an adopted organisation's) are not sent again.
  async create(ctx, inputs) {
    const found = await orGone(ctx.client.styleGuides.agentInstructions(inputs.organizationId));
    const live = found && toOutputs(inputs.organizationId, found);
    const outs = live && canonicalMarkdown(live.markdown) === canonicalMarkdown(inputs.markdown) ? live : await put(ctx, inputs);
    return { id: inputs.organizationId, outs };
  },

  async read(ctx, _id, state) {
    const live = await orGone(ctx.client.styleGuides.agentInstructions(state.organizationId));
    return live ? toOutputs(state.organizationId, live) : undefined;
  },

  async update(ctx, _id, _olds, news) {
    return put(ctx, news);
  },

  outputsOf: (live: OrganizationAgentInstructions, where) => toOutputs(where.organizationId, live),

  // Never called through the component (retained); a program of one's own that deletes it leaves them too.
  async delete() {},
} satisfies KindDefinition<AgentInstructionsInputs, AgentInstructionsOutputs>;

/** The dynamic provider of AgentInstructions (serialised through `provider/providers/agentInstructions`). */
export const agentInstructionsProvider = makeProvider<AgentInstructionsInputs, AgentInstructionsOutputs>(agentInstructionsKind);

/** Arguments of AgentInstructions. */
export type AgentInstructionsArgs = ResourceArgs<AgentInstructionsInputs>;
