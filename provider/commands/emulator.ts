/**
 * `docsplatform emulator`, with `--seed-from STACK_FILE`: the emulator seeded with the organisation a
 * stack file takes as existing (emulatorSeed.ts), so one's own file runs against it. The emulator reads no
 * stack file (it follows the API's contract, not the provider): the seed is made here and handed over.
 */
import { emulatorMain as runEmulator } from "../../emulator/cli";

/** The value of `--seed-from FILE` / `--seed-from=FILE`, and the other arguments. */
function seedFromOption(argv: string[]): { file?: string; rest: string[]; missing?: true } {
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--seed-from") {
      file = argv[++i];
      if (file === undefined) return { rest, missing: true };
    } else if (arg.startsWith("--seed-from=")) {
      file = arg.slice("--seed-from=".length);
    } else {
      rest.push(arg);
    }
  }
  return { file, rest };
}

/** Runs the emulator; with `--seed-from`, seeded from the stack file (its problems instead, exit 1, when it does not validate). */
export async function emulatorMain(argv: string[]): Promise<number> {
  const { file, rest, missing } = seedFromOption(argv);
  if (missing || file === "") {
    process.stderr.write("docsplatform emulator: --seed-from needs a stack file (e.g. --seed-from docs.yaml)\n");
    return 1;
  }
  if (file === undefined) return runEmulator(argv);
  // Loaded only here: the plain emulator starts without the stack model's validators.
  const { seedFromStackFile, describeSeed } = await import("./emulatorSeed");
  const made = seedFromStackFile(file);
  if (!made.ok) {
    for (const p of made.problems) process.stderr.write(`${p}\n`);
    process.stderr.write(`docsplatform emulator: no seed from ${file}: it does not validate (docsplatform validate ${file})\n`);
    return 1;
  }
  return runEmulator(rest, { seed: made.seed, describe: `${describeSeed(made.seed)} (from ${file})` });
}
