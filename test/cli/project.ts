/**
 * What a CLI test starts and stops as one: an emulator on port 0, a copy of a program with the package
 * installed as users get it, and a stack of it on a local backend configured for the emulator.
 */
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { prepareProgram, REPO_ROOT, type PreparedProgram } from "../harness/program";
import { HANDBOOK_SECRET_ENV } from "../harness/handbookSecrets";
import { startEmulatorWith } from "../support/emulator";
import { PulumiCli } from "./pulumi";

/** The handbook example, the program most CLI tests run. */
export const HANDBOOK = path.join(REPO_ROOT, "examples", "handbook");

/** A program's copy, its emulator and its stack, and how to remove all three. */
export interface CliProject {
  emu: RunningEmulator;
  program: PreparedProgram;
  cli: PulumiCli;
  stop(): Promise<void>;
}

/** What {@link startCliProject} does besides the defaults. */
export interface CliProjectOptions {
  /** Options of the emulator (always on port 0). */
  emulator?: EmulatorOptions;
  /** A token of the test's own, acting as the fixture's admin (default: the emulator's token). */
  token?: string;
  /** Changes the program's copy before its stack is made. */
  prepare?: (dir: string) => void;
}

/** Starts the emulator, copies the program at `srcDir` and makes its stack `dev`, configured for the emulator. */
export async function startCliProject(srcDir: string, opts: CliProjectOptions = {}): Promise<CliProject> {
  const emu = opts.token === undefined ? await startEmulator({ ...opts.emulator, port: 0 }) : await startEmulatorWith(opts.token, opts.emulator);
  const token = opts.token ?? emu.token;
  const program = await prepareProgram(srcDir, { installPackage: true });
  const cli = new PulumiCli(program.dir, [token]);
  // The handbook's secrets, as the user's shell would export them.
  Object.assign(cli.env, HANDBOOK_SECRET_ENV);
  const stop = async () => {
    cli.close();
    program.cleanup();
    await emu.close();
  };
  try {
    opts.prepare?.(program.dir);
    await cli.initStack("dev", { url: emu.url, token });
  } catch (e) {
    await stop();
    throw e;
  }
  return { emu, program, cli, stop };
}
