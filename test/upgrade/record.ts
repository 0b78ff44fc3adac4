/**
 * `node dist/test/upgrade/record.js <release>`: deploys the handbook with the package as built now, against
 * an emulator that keeps its journal, and writes the state and the journal to test/upgrade/fixtures as
 * that release's (upgrade.test.ts runs the next releases against them). The emulator's URL, a fresh port
 * each run, is kept in the state as {@link URL_PLACEHOLDER}.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { prepareProgram, runnerAgainst } from "../harness";

/** Where the fixtures live (the source folder, also when run from dist/). */
const FIXTURES = path.resolve(__dirname, "..", "..", ...(path.basename(path.resolve(__dirname, "..", "..")) === "dist" ? [".."] : []), "test", "upgrade", "fixtures");
const HANDBOOK = path.resolve(FIXTURES, "..", "..", "..", "examples", "handbook");

/** Stands for the emulator's URL in the recorded state. */
export const URL_PLACEHOLDER = "http://127.0.0.1:EMULATOR_PORT";

/** A release's recorded state file (the harness's, shaped as `pulumi stack export --show-secrets`). */
export const stateFixture = (release: string): string => path.join(FIXTURES, `handbook-${release}.state.json`);

/** The emulator's journal of the platform that state describes. */
export const journalFixture = (release: string): string => path.join(FIXTURES, `handbook-${release}.emulator.jsonl`);

async function record(release: string): Promise<void> {
  const program = await prepareProgram(HANDBOOK, { installPackage: true });
  const dataFile = path.join(program.dir, "emulator.jsonl");
  const emu = await startEmulator({ port: 0, dataFile });
  const runner = runnerAgainst(program.dir, { url: emu.url, token: emu.token, control: emu.control });
  try {
    const result = await runner.up();
    if (result.error) throw result.error;
    fs.mkdirSync(FIXTURES, { recursive: true });
    fs.writeFileSync(stateFixture(release), fs.readFileSync(runner.stateFile, "utf8").split(emu.url).join(URL_PLACEHOLDER));
  } finally {
    await runner.close();
    await emu.close();
  }
  fs.copyFileSync(dataFile, journalFixture(release));
  program.cleanup();
  process.stdout.write(`recorded release ${release}: ${stateFixture(release)}, ${journalFixture(release)}\n`);
}

if (require.main === module) {
  const release = process.argv[2];
  if (release === undefined) {
    process.stderr.write("usage: node dist/test/upgrade/record.js <release>\n");
    process.exitCode = 2;
  } else {
    record(release).catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    });
  }
}
