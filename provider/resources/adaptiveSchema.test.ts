/**
 * The adaptive schema as the platform requires it: the handbook's schema leaves out the `unsigned`
 * member's fixed description and `additionalProperties: false`; the provider sends them filled in (the
 * emulator stores the request body as sent, and refuses the old form), shows no drift against the
 * platform's answer, and a different description is a located error before any call.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { formatProblem, parseStack } from "../stack/load";
import { siteAdaptiveSchemaProvider, UNSIGNED_DESCRIPTION, type SiteAdaptiveSchemaInputs } from "./siteAdaptiveSchema";
import { apiOf } from "../../test/support/api";
import { configureAgainst } from "../../test/support/emulator";
import { withOuts } from "../../test/support/providerResults";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");
const org = "demo-org";
let emulator: RunningEmulator;

/** The handbook site's adaptive schema as docs.yaml declares it. */
function handbookSchema(): SiteAdaptiveSchemaInputs["jsonSchema"] {
  const docs = parse(fs.readFileSync(HANDBOOK, "utf8")) as { sites: { key: string; adaptiveSchema?: SiteAdaptiveSchemaInputs["jsonSchema"] }[] };
  return docs.sites.find((s) => s.key === "handbook")!.adaptiveSchema!;
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await configureAgainst(siteAdaptiveSchemaProvider, emulator);
});
afterAll(async () => {
  await closeSharedClients();
  await emulator?.close();
});

describe("the handbook's adaptive schema", () => {
  it("leaves out what the platform fixes (the case this covers)", () => {
    const unsigned = handbookSchema().properties["unsigned"] as Record<string, unknown>;
    expect(unsigned).not.toHaveProperty("description");
    expect(unsigned).not.toHaveProperty("additionalProperties");
  });

  it("is sent as the platform requires it, and shows no drift against the answer", async () => {
    const site = await apiOf(emulator)<{ id: string }>("POST", `/v1/orgs/${org}/sites`, { title: "Adaptive" });
    const declared = handbookSchema();
    const created = await withOuts(siteAdaptiveSchemaProvider.create({ organizationId: org, siteId: site.id, jsonSchema: declared }));
    const sent = emulator.store.org(org).sites.find((s) => s.id === site.id)!.adaptiveSchema;
    expect(sent).toEqual({
      type: "object",
      properties: {
        beta: { type: "boolean", description: "Member of the beta programme" },
        staff: { type: "boolean", description: "Works at Demo Org" },
        unsigned: {
          type: "object",
          description: "Unsigned claims of the site visitor.",
          properties: { prefersApiFirst: { type: "boolean", description: 'Chose "API first" in the site\'s visitor menu' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
    expect(created.outs.jsonSchema).toEqual(sent);
    const diff = await siteAdaptiveSchemaProvider.diff(site.id, created.outs, { organizationId: org, siteId: site.id, jsonSchema: declared });
    expect(diff.changes).toBe(false);
  });

  it("a different description of the unsigned claims: a located error in the stack file, and a check failure in the provider", async () => {
    const text = fs.readFileSync(HANDBOOK, "utf8").replace(/(\n {8}unsigned:\n {10}type: object\n)/, `$1          description: Claims visitors set themselves\n`);
    expect(text).toContain("description: Claims visitors set themselves");
    const loaded = parseStack(text, "docs.yaml");
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems.map(formatProblem);
    const line = text.split("\n").findIndex((l) => l.includes("Claims visitors set themselves")) + 1;
    expect(problems.some((p) => p.startsWith(`docs.yaml:${line}:`) && p.includes(UNSIGNED_DESCRIPTION)), problems.join("\n")).toBe(true);

    const jsonSchema = handbookSchema();
    (jsonSchema.properties["unsigned"] as Record<string, unknown>)["description"] = "Claims visitors set themselves";
    const check = await siteAdaptiveSchemaProvider.check({} as never, { organizationId: org, siteId: "s", jsonSchema } as never);
    expect(check.failures?.map((f) => f.reason).join("\n")).toContain("unsigned");
  });
});
