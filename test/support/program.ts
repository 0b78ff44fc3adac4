/** A Pulumi program run against the emulator, as the program tests set it up and tear it down. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { startEmulatorWith } from "./emulator";
import { writeNoCodeProject } from "./noCodeProject";
import { prepareProgram, runnerAgainst, type PreparedProgram, type ProgramRunner, type ProgramRunnerOptions } from "../harness";

/** An emulator, a prepared copy of a program and a runner of that copy against the emulator. */
export interface ProgramAgainstEmulator {
  emu: RunningEmulator;
  program: PreparedProgram;
  runner: ProgramRunner;
}

/** What {@link startProgram} starts besides the defaults. */
export interface StartProgramOptions {
  /** Options of the emulator (always on port 0). */
  emulator?: EmulatorOptions;
  /** Options of the runner, over {@link runnerAgainst}'s. */
  runner?: Omit<ProgramRunnerOptions, "dir" | "emulator">;
  /** A token of the test's own: the emulator's fixture accepts it as demo-admin and the provider acts with it (default: the emulator's token). */
  token?: string;
}

/**
 * Starts the emulator on port 0, copies the program at `srcDir` with the package installed (as users
 * get it) and makes a runner of the copy against the emulator ({@link runnerAgainst}). Closes what it
 * started when a later part fails.
 */
export async function startProgram(srcDir: string, opts: StartProgramOptions = {}): Promise<ProgramAgainstEmulator> {
  const started: Partial<ProgramAgainstEmulator> = {};
  try {
    const emu = (started.emu = await (opts.token === undefined ? startEmulator({ ...opts.emulator, port: 0 }) : startEmulatorWith(opts.token, opts.emulator)));
    const program = (started.program = await prepareProgram(srcDir, { installPackage: true }));
    const runner = runnerAgainst(program.dir, { url: emu.url, token: opts.token ?? emu.token, control: emu.control }, opts.runner);
    return { emu, program, runner };
  } catch (e) {
    await stopProgram(started);
    throw e;
  }
}

/** Closes what {@link startProgram} started, whichever parts exist: the runner, then the program copy and the emulator. */
export async function stopProgram(started: Partial<ProgramAgainstEmulator>): Promise<void> {
  await started.runner?.close();
  started.program?.cleanup();
  await started.emu?.close();
}

/**
 * {@link startProgram} of a no-code project written from `files` ({@link writeNoCodeProject}); the
 * written folder is removed once the program is copied from it.
 */
export async function startNoCodeProgram(name: string, files: Record<string, string>, opts: StartProgramOptions = {}): Promise<ProgramAgainstEmulator> {
  const project = writeNoCodeProject(name, files);
  try {
    return await startProgram(project.dir, opts);
  } finally {
    project.cleanup();
  }
}
