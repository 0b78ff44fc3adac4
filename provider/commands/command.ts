/**
 * What every `docsplatform` subcommand does before its own work: `--help` (or `-h`) prints its usage
 * on stdout (exit 0); arguments that do not parse print `docsplatform <name>: <problem>` and the usage
 * on stderr (exit 2). One place, so that every command answers a wrong call the same way.
 */

/** Where a command's help and usage go. */
export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * Says what is wrong with the call, with the usage, and gives the exit code 2. An empty problem
 * prints the usage alone (a call with nothing to act on).
 */
export type UsageError = (problem: string) => number;

/** A subcommand: its name as typed, its help, its argument parser and its work. */
export interface Command<Args> {
  name: string;
  usage: string;
  /** The arguments, or what is wrong with them. */
  parse: (argv: string[]) => Args | string;
  /** The work, given the parsed arguments and a way to refuse a combination the parser cannot see. */
  run: (args: Args, usage: UsageError) => Promise<number>;
}

/** Runs a subcommand behind the shared preamble; resolves to its exit code. */
export async function commandMain<Args extends object>(argv: string[], out: CommandOutput, command: Command<Args>): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    out.stdout.write(command.usage);
    return 0;
  }
  const usage: UsageError = (problem) => {
    out.stderr.write(problem === "" ? command.usage : `docsplatform ${command.name}: ${problem}\n${command.usage}`);
    return 2;
  };
  const args = command.parse(argv);
  if (typeof args === "string") return usage(args);
  return command.run(args, usage);
}
