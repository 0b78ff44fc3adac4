import type { AgentDocument, SiteAgentSettings as ApiSettings, SiteAgentSettingsBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** The editing agent's instructions as declared: text (Markdown, sent as a document of paragraphs) or a document. */
export type Instructions = string | AgentDocument;

/** A document of one paragraph per block of `text` separated by blank lines (no text: no paragraph). */
export function instructionsDocument(text: string): AgentDocument {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return {
    object: "document",
    data: {},
    nodes: paragraphs.map((p) => ({ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: p, marks: [] }] }] })),
  };
}

/** The text of a document made only of plain paragraphs (what {@link instructionsDocument} makes); undefined otherwise. */
export function instructionsText(doc: AgentDocument): string | undefined {
  const out: string[] = [];
  for (const block of doc.nodes) {
    const b = block as { object?: string; type?: string; nodes?: { object?: string; leaves?: { text?: string; marks?: unknown[] }[] }[] };
    if (b.object !== "block" || b.type !== "paragraph" || !Array.isArray(b.nodes)) return undefined;
    let text = "";
    for (const n of b.nodes) {
      if (n.object !== "text" || !Array.isArray(n.leaves)) return undefined;
      for (const leaf of n.leaves) {
        if (typeof leaf.text !== "string" || (leaf.marks?.length ?? 0) > 0) return undefined;
        text += leaf.text;
      }
    }
    out.push(text);
  }
  return out.join("\n\n");
}

/** Instructions as compared: a document (text made into one), so text and the document it stands for are equal. */
function documentOf(v: Instructions | undefined | null): AgentDocument {
  if (v === undefined || v === null) return instructionsDocument("");
  return typeof v === "string" ? instructionsDocument(v) : v;
}

type Editing = { customInstructions: Instructions };
const normalizeEditing = (v: unknown): unknown => (v !== null && typeof v === "object" && "customInstructions" in v ? { customInstructions: documentOf((v as Editing).customInstructions) } : v);

/** The settings a site never configured has (emulator/README.md): what each block's absence resets to. */
export const DEFAULT_AGENT = { scans: { topics: "auto" }, findings: { changeRequests: "never" }, editing: { customInstructions: "" } } as const;

const closed = (properties: Record<string, unknown>, required: string[]) => ({ type: "object", additionalProperties: false, required, properties });

/** The fields of a SiteAgentSettings: the site's whole agent configuration, replaced together. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  scans: {
    schema: closed({ topics: { ...limit("agentTopicScans"), description: "auto: topics are scanned for findings; never: they are not." } }, ["topics"]) as FieldSpec<{ topics: "auto" | "never" }>["schema"],
    doc: "When the site's topics are scanned for findings: topics auto or never.",
    absent: { reset: DEFAULT_AGENT.scans },
  },
  findings: {
    schema: closed({ changeRequests: { ...limit("agentFindingChangeRequests"), description: "always, auto-fixable (only for findings the agent can fix) or never." } }, ["changeRequests"]) as FieldSpec<{ changeRequests: "always" | "auto-fixable" | "never" }>["schema"],
    doc: "How issue-remediation change requests are handled: changeRequests always, auto-fixable or never.",
    absent: { reset: DEFAULT_AGENT.findings },
  },
  editing: {
    schema: closed({ customInstructions: { anyOf: [limit("agentInstructionsText"), limit("agentDocument")], description: "Text or Markdown (paragraphs separated by blank lines), or a document {object: document, data, nodes}." } }, ["customInstructions"]) as FieldSpec<Editing>["schema"],
    doc: "Site-specific instructions for the editor's writing agent: customInstructions as text or Markdown (sent as a document of paragraphs; compared as that document) or as a document ({object: document, data, nodes}).",
    absent: { reset: DEFAULT_AGENT.editing },
    normalize: normalizeEditing,
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteAgentSettings. */
export type SiteAgentSettingsInputs = InputsOf<typeof fields>;

/** Outputs of a SiteAgentSettings: the live settings (instructions as text when they are plain paragraphs). */
export interface SiteAgentSettingsOutputs {
  organizationId: string;
  siteId: string;
  scans: { topics: "auto" | "never" };
  findings: { changeRequests: "always" | "auto-fixable" | "never" };
  editing: Editing;
  updatedAt: string | null;
}

function toOutputs(where: { organizationId: string; siteId: string }, s: ApiSettings): SiteAgentSettingsOutputs {
  const doc = s.editing.customInstructions;
  return {
    organizationId: where.organizationId,
    siteId: where.siteId,
    scans: { topics: s.scans.topics },
    findings: { changeRequests: s.findings.changeRequests },
    editing: { customInstructions: instructionsText(doc) ?? doc },
    updatedAt: s.updatedAt ?? null,
  };
}

/** The whole settings the inputs stand for: each block declared, or its default. */
function desired(inputs: SiteAgentSettingsInputs): SiteAgentSettingsBody {
  return {
    scans: inputs.scans ?? DEFAULT_AGENT.scans,
    findings: inputs.findings ?? DEFAULT_AGENT.findings,
    editing: { customInstructions: documentOf((inputs.editing ?? DEFAULT_AGENT.editing).customInstructions) },
  };
}

async function put(ctx: KindContext, inputs: SiteAgentSettingsInputs): Promise<SiteAgentSettingsOutputs> {
  return toOutputs(inputs, await ctx.client.agentSettings.put(inputs.organizationId, inputs.siteId, desired(inputs)));
}

/** The SiteAgentSettings kind: one per site; the PUT replaces the whole, removing the block leaves the settings as they are. */
export const siteAgentSettingsKind = {
  name: "SiteAgentSettings",
  noun: { one: "agent settings block", many: "agent settings blocks" },
  doc: "A site's agent settings: when topics are scanned for findings, how issue-remediation change requests are handled, and the editing agent's custom instructions. Each update sends the whole (the API replaces it).",
  fields,

  // Settings that already match (a site taken over, a block of defaults) are left alone: one read, no write.
  async create(ctx, inputs) {
    const live = await ctx.client.agentSettings.get(inputs.organizationId, inputs.siteId);
    const same = JSON.stringify(desired(inputs)) === JSON.stringify({ scans: live.scans, findings: live.findings, editing: { customInstructions: documentOf(live.editing.customInstructions) } });
    return { id: inputs.siteId, outs: same ? toOutputs(inputs, live) : await put(ctx, inputs) };
  },

  async read(ctx, _id, state) {
    const s = await orGone(ctx.client.agentSettings.get(state.organizationId, state.siteId));
    return s ? toOutputs(state, s) : undefined;
  },

  async update(ctx, _id, olds, news) {
    return put(ctx, { ...news, organizationId: olds.organizationId, siteId: olds.siteId });
  },

  // Not managed once the block is gone: the site keeps its settings.
  async delete() {},
} satisfies KindDefinition<SiteAgentSettingsInputs, SiteAgentSettingsOutputs>;

/** The dynamic provider of SiteAgentSettings (serialised through `provider/providers/siteAgentSettings`). */
export const siteAgentSettingsProvider = makeProvider<SiteAgentSettingsInputs, SiteAgentSettingsOutputs>(siteAgentSettingsKind);

/** Arguments of a SiteAgentSettings. */
export type SiteAgentSettingsArgs = ResourceArgs<SiteAgentSettingsInputs>;
