/**
 * Load once, resolve once: each command builds a stack file's site models once — when the loader
 * resolves the file — and everything after (the checks, the summaries, `tree`, `diff`, export's check of
 * what it wrote) reads that one value. Counted by wrapping the one builder of a file's site models.
 */
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
// These load with the mock below in place: vitest hoists vi.mock and vi.hoisted above the imports.
import { validateMain } from "../commands/validate";
import { exportMain } from "../export/cli";
import { diffMain, treeMain } from "../view/cli";

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("../site/build", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../site/build")>();
  return { ...actual, siteModels: (...args: Parameters<typeof actual.siteModels>) => (built.count++, actual.siteModels(...args)) };
});

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");
const PULL_REQUEST = path.resolve(__dirname, "../view/testdata/pull-request.yaml");
const quiet = { write: () => true };
const io = { env: {}, cwd: __dirname, stdin: async () => "", stdout: quiet, stderr: quiet };

describe("each command resolves a stack file once", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    built.count = 0;
  });

  it("validate: once for the checks and the summary", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await validateMain([HANDBOOK])).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(built.count).toBe(1);
  });

  it("tree: once for the checks and the drawing", async () => {
    expect(await treeMain([HANDBOOK], io)).toBe(0);
    expect(built.count).toBe(1);
  });

  it("diff: once per side, and once for the head as up leaves the platform (the paths it leaves out kept from the base)", async () => {
    expect(await diffMain([HANDBOOK, PULL_REQUEST], io)).toBe(0);
    expect(built.count).toBe(3);
  });

  it("export: once, for the check of the file it wrote and its summary", async () => {
    const code = await exportMain(["--org", "demo-org"], {
      env: { DOCSPLATFORM_API_URL: emulator.url, DOCSPLATFORM_API_TOKEN: emulator.token },
      stdout: { write: () => true },
      stderr: { write: () => true },
    });
    expect(code).toBe(0);
    expect(built.count).toBe(1);
  });
});
