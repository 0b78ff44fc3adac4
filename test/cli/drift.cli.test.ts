/**
 * Drift in words through the Pulumi CLI: after a section is edited by hand on the platform, the nightly
 * `pulumi preview --refresh --expect-no-changes` fails, and says which field changed and both values (the
 * engine's own `--diff` cannot: a dynamic provider gives it no detailed diff); `pulumi up --refresh` puts
 * the file's values back, and the next check passes. A field the file leaves to the platform (a section's
 * path it does not declare) changed by hand is no drift and is not named. A section made
 * by hand on a site whose structure the file declares is drift too: named by the check, refused by `up`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOf, type Api } from "../support/api";
import { HANDBOOK, startCliProject, type CliProject } from "./project";

/** One site of two sections on the emulator's fixture spaces: a small project, quick to apply. */
const DOCS = `organization: demo-org
spaces:
  - key: guides
    id: space-guides
  - key: api
    id: space-api
sites:
  - key: docs
    title: Drift Docs
    sections:
      - key: guides
        title: Guides
        space: guides
      - key: api
        title: API
        space: api
`;

interface Section {
  id: string;
  title: string;
  path: string;
  description?: string | null;
}

let project: CliProject;
let api: Api;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK, { prepare: (dir) => fs.writeFileSync(path.join(dir, "docs.yaml"), DOCS) });
  api = apiOf({ url: project.emu.url, token: project.emu.token });
}, 120_000);

afterAll(() => project?.stop());

describe("drift named through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("a section edited by hand: the check fails naming each field and both values; up --refresh puts them back", async () => {
    const { cli } = project;
    await cli.run(["up", "--yes", "--skip-preview"]);
    const sites = await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites");
    const site = sites.items.find((s) => s.title === "Drift Docs")!;
    const sectionsPath = `/v1/orgs/demo-org/sites/${site.id}/sections`;
    const sections = async (): Promise<Section[]> => (await api<{ items: Section[] }>("GET", sectionsPath)).items;
    const before = await sections();
    const guides = before.find((s) => s.title === "Guides")!;
    const reference = before.find((s) => s.title === "API")!;

    // By hand: the guides section retitled and given a description (the file declares none: absence clears
    // it); the API section moved to another path (the file declares none: the platform's to choose).
    await api("PATCH", `${sectionsPath}/${guides.id}`, { title: "Guides (edited)", description: "Written on the platform" });
    await api("PATCH", `${sectionsPath}/${reference.id}`, { path: "api-by-hand" });

    const check = await cli.run(["preview", "--refresh", "--expect-no-changes"], { allowFailure: true });
    const said = `${check.stdout}\n${check.stderr}`;
    expect(check.code).not.toBe(0);
    expect(said).toMatch(/~ +pulumi-nodejs:dynamic\/docsplatform:SiteSection handbook\/docs\/guides update/);
    // The run's diagnostics: the two fields of the retitled section, nothing of the moved one.
    const diagnostics = check.stdout.slice(check.stdout.indexOf("Diagnostics:"), check.stdout.indexOf("Resources:"));
    expect(diagnostics.split("\n").filter((l) => l.includes("drift:")).map((l) => l.trim())).toEqual([
      'warning: drift: section "Guides": title is "Guides (edited)" on the platform, "Guides" in the file; `pulumi up --refresh` puts the file\'s value back',
      'warning: drift: section "Guides": description is "Written on the platform" on the platform, not set in the file; `pulumi up --refresh` puts the file\'s value back',
    ]);
    expect(said).not.toContain("api-by-hand");

    await cli.run(["up", "--refresh", "--yes", "--skip-preview"]);
    const after = await sections();
    const repaired = after.find((s) => s.id === guides.id)!;
    expect(repaired.title).toBe("Guides");
    expect(repaired.description ?? null).toBeNull();
    expect(after.find((s) => s.id === reference.id)?.path).toBe("api-by-hand");

    const again = await cli.run(["preview", "--refresh", "--expect-no-changes"]);
    expect(again.code).toBe(0);
    expect(`${again.stdout}\n${again.stderr}`).not.toContain("drift:");
  });

  it("a section made by hand on a site whose structure the file declares: the check names it; up refuses until it is deleted", async () => {
    const { cli } = project;
    const sites = await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites");
    const site = sites.items.find((s) => s.title === "Drift Docs")!;
    const sectionsPath = `/v1/orgs/demo-org/sites/${site.id}/sections`;
    const extra = await api<{ id: string }>("POST", sectionsPath, { title: "Made in the app", spaceId: "space-changelog" });

    const check = await cli.run(["preview", "--refresh", "--expect-no-changes"], { allowFailure: true });
    expect(check.code).not.toBe(0);
    expect(check.stdout).toContain(`drift: section "Made in the app" (id ${extra.id}) was made on the platform and is not in the file: \`pulumi up\` refuses until it is declared in the file or deleted on the platform`);

    const refused = await cli.run(["up", "--refresh", "--yes", "--skip-preview"], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    // The section and the site space it was made with, named, with the way out.
    const said = `${refused.stdout}\n${refused.stderr}`.replace(/\s+/g, " ");
    expect(said).toContain(`section "Made in the app" (id ${extra.id}) on site ${site.id}`);
    expect(said).toContain("made on the platform and not in the file, and it holds what readers reach, so `up` does not delete it");
    expect((await api<{ items: { id: string }[] }>("GET", sectionsPath)).items.map((s) => s.id)).toContain(extra.id);

    await api("DELETE", `${sectionsPath}/${extra.id}`);
    await cli.run(["up", "--refresh", "--yes", "--skip-preview"]);
    const again = await cli.run(["preview", "--refresh", "--expect-no-changes"]);
    expect(again.code).toBe(0);
  });
});
