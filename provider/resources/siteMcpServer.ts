import type { SiteMcpServer as ApiServer, UpdateMcpServerBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, declaredAmong, limit, ORGANIZATION_FIELD, patchBody, SITE_FIELD } from "./kind";
import { type Digest, secretDigest, secretDigests } from "./digest";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

/** The fields of a SiteMcpServer: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  name: { schema: limit("mcpServerName"), doc: "Name of the MCP server, 1 to 100 characters; unique in the site (adopt finds an existing server by it).", required: true, patched: true },
  url: { schema: limit("mcpServerURL"), doc: "Where the platform's assistant reaches the server: an https or http URL to a public host, at most 2048 characters.", required: true, patched: true },
  transport: { schema: limit<"sse" | "http">("mcpTransport"), doc: "Transport protocol used to reach the server: sse or http.", absent: { reset: "sse" }, patched: true },
  headers: {
    schema: { type: "object", propertyNames: limit("mcpHeaderName"), additionalProperties: limit("mcpHeaderValue") } as FieldSpec<Record<string, string>>["schema"],
    doc: "HTTP headers sent with every request to the server (credentials, usually): each value a secret, 1 to 512 characters. The state keeps a SHA-256 of each name and value, as a secret, so a changed value is an update and one changed by hand is drift.",
    absent: { reset: {} },
    normalize: secretDigests,
    stack: "secretSources",
    patched: true,
  },
  condition: { schema: limit("expression"), doc: "Expression deciding whether a visitor's assistant may use the server, at most 1024 characters.", absent: "clear", patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteMcpServer: an external MCP server the site's assistant may call. */
export type SiteMcpServerInputs = InputsOf<typeof fields>;

/** Outputs of a SiteMcpServer: its fields, each header's value as a digest. */
export interface SiteMcpServerOutputs {
  organizationId: string;
  siteId: string;
  name: string;
  url: string;
  transport: "sse" | "http";
  /** A secret output: one SHA-256 per header, never a value. */
  headers: Record<string, Digest>;
  condition: string | null;
}

/** The live headers as digests: the plaintext the API answers never reaches the outputs. */
function headerDigests(headers: Record<string, string> | undefined): Record<string, Digest> {
  const out: Record<string, Digest> = {};
  for (const name of Object.keys(headers ?? {}).sort()) out[name] = secretDigest(name, headers![name]);
  return out;
}

/** Read from the site's list, PATCH the changed fields (the headers whole), adopt by name. */
const crud = siteObject({
  list: "mcpServers",
  outputs: (s: ApiServer) => ({ name: s.name, url: s.url, transport: s.transport, headers: headerDigests(s.headers), condition: s.condition ?? null }),
  fields,
  body: (news: SiteMcpServerInputs, changed) => {
    const body = patchBody<UpdateMcpServerBody>(fields, news, changed);
    if (changed.includes("headers")) body.headers = news.headers ?? {};
    if (changed.includes("transport")) body.transport = news.transport ?? "sse";
    return body;
  },
  adopt: { kind: "SiteMcpServer", field: "name", objects: "MCP servers", verb: "are named" },
});

/** The SiteMcpServer kind: POST with every declared field, PATCH with the changed ones. */
export const siteMcpServerKind = {
  name: "SiteMcpServer",
  noun: { one: "MCP server", many: "MCP servers" },
  doc: "An external Model Context Protocol server whose tools the site's AI assistant can call: its URL, transport, the headers sent to it (secrets) and the visitors it serves.",
  outputs: ["transport", "condition"],
  fields,
  secretOutputs: ["headers"],

  ...crud,

  async create(ctx, inputs) {
    const server = await ctx.client.mcpServers.create(inputs.organizationId, inputs.siteId, {
      ...declaredAmong<{ transport?: "sse" | "http"; condition?: string | null }>(inputs, ["transport", "condition"]),
      name: inputs.name,
      url: inputs.url,
      headers: inputs.headers ?? {},
    });
    return { id: server.id, outs: crud.outputsOf(server, inputs) };
  },
} satisfies KindDefinition<SiteMcpServerInputs, SiteMcpServerOutputs>;

/** The dynamic provider of SiteMcpServer (serialised through `provider/providers/siteMcpServer`). */
export const siteMcpServerProvider = makeProvider<SiteMcpServerInputs, SiteMcpServerOutputs>(siteMcpServerKind);

/** Arguments of a SiteMcpServer. */
export type SiteMcpServerArgs = ResourceArgs<SiteMcpServerInputs>;
