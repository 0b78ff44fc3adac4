/**
 * A section's localized title, a field written in the SiteSection declaration alone (and the
 * emulator): the provider creates and updates it, export reads it back, `tree` shows it and `diff`
 * names its change — each from the declaration, with no line of its own elsewhere in provider/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { configureAgainst } from "../../test/support/emulator";
import { withOuts } from "../../test/support/providerResults";
import { ApiClient, closeSharedClients } from "../client";
import { exportOrganization } from "../export/export";
import { parseStack } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { diffStacks, renderDiffText } from "../view/diff";
import { viewStack } from "../view/sites";
import { renderTree } from "../view/tree";
import { siteProvider } from "./site";
import { siteSectionProvider } from "./siteSection";

const ORG = "demo-org";

function parse(text: string): ResolvedStack {
  const r = parseStack(text, "docs.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

const file = (localized: string) => `organization: ${ORG}
sites:
  - key: docs
    title: Docs
    sections:
      - key: guides
        title: Guides
        space: { id: space-guides }
${localized}`;

describe("a section's localized title", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    await configureAgainst(siteProvider, emulator);
  });
  afterAll(async () => {
    await closeSharedClients();
    await emulator?.close();
  });

  it("is checked against the platform's limits offline", () => {
    const r = parseStack(file(`        localizedTitle: { fr: "${"x".repeat(129)}" }`), "docs.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]!.message).toMatch(/localizedTitle/);
  });

  it("tree shows it on the section's line, and diff names its change", () => {
    const base = parse(file(""));
    const head = parse(file(`        localizedTitle: { fr: "Guides en français" }`));
    expect(renderTree(viewStack(head))).toContain(`Guides (section)  /  ★ default · path guides · localized title fr "Guides en français"`);
    expect(renderDiffText(diffStacks(base, head))).toContain(`section "Guides": localized title fr "Guides en français" added`);
    expect(renderDiffText(diffStacks(head, base))).toContain(`section "Guides": localized title fr "Guides en français" removed`);
  });

  it("is created, updated and cleared through the section's PATCH, and export reads it back", async () => {
    const site = await siteProvider.create({ organizationId: ORG, title: "Localized" } as never);
    const inputs = { organizationId: ORG, siteId: site.id, spaceId: "space-guides", title: "Guides", localizedTitle: { fr: "Guides" } };
    const created = await withOuts(siteSectionProvider.create(inputs as never));
    expect(created.outs.localizedTitle).toEqual({ fr: "Guides" });
    const updated = await withOuts(siteSectionProvider.update(created.id, created.outs, { ...inputs, localizedTitle: { fr: "Les guides", de: "Anleitungen" } } as never));
    expect(updated.outs.localizedTitle).toEqual({ fr: "Les guides", de: "Anleitungen" });

    const client = new ApiClient({ baseUrl: emulator.url, token: emulator.token });
    try {
      const exported = await exportOrganization(client, { organizationId: ORG });
      const section = exported.stack.sites?.find((s) => s.title === "Localized")?.sections?.[0] as Record<string, unknown> | undefined;
      expect(section?.localizedTitle).toEqual({ fr: "Les guides", de: "Anleitungen" });
    } finally {
      await client.close();
    }

    const cleared = await withOuts(siteSectionProvider.update(created.id, updated.outs, { ...inputs, localizedTitle: undefined } as never));
    expect(cleared.outs.localizedTitle).toBeNull();
  });
});
