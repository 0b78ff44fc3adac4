#!/usr/bin/env node
/** The `docsplatform` command: one entry point whose subcommands live beside the parts they drive. */

type Subcommand = (argv: string[]) => Promise<number>;

const usage = `usage: docsplatform <command> [options]

commands:
  validate [--format text|github] <stack.yaml>
                                             check a stack file; prints file:line:col: message per problem
                                             (github: as workflow commands that annotate the lines)
  emulator [--port N] [--host H] [--allowed-host NAME]... [--data FILE] [--seed FILE | --seed-from STACK_FILE]
                                             run the local /v1 emulator (default port 4010, loopback);
                                             --seed-from: the organisation a stack file refers to;
                                             it answers only loopback names, --host and --allowed-host
  export --org <organizationId> [--out FILE] [--site-file DIR]
                                             write a stack file that adopts an organisation's live objects
                                             (--site-file: each site's structure as a Git Sync site file)
  pull [stack.yaml] [--check | --diff] [--include-new]
                                             bring what people changed on the platform back into the
                                             stack file in place, comments and layout kept (--check:
                                             exit 1 with a unified diff when the file is behind)
  site-file <stack.yaml> [--out DIR] [--dirs KEY=DIR,...]
                                             write each site's structure as a Git Sync site file
  tree <stack.yaml> | tree --live --org <id> [--keys] [--redirects]
                                             draw each site's sections, site spaces and URL paths
  diff <base> <head> [--format text|markdown] [--base-may-be-missing] [--fail-on-broken] [--keys]
                                             what readers would notice between two stack files
                                             (a side may be - or git:<rev>:<path>); exit 1 only for
                                             --fail-on-broken, 2 for a side that cannot be read

docsplatform <command> --help tells each command's options.
`;

// Subcommands are loaded lazily so that `validate` does not pay for the emulator's framework and vice versa.
const commands: Record<string, () => Subcommand> = {
  validate: () => require("./commands/validate").validateMain as Subcommand,
  emulator: () => require("./commands/emulator").emulatorMain as Subcommand,
  export: () => require("./export/cli").exportMain as Subcommand,
  pull: () => require("./pull/cli").pullMain as Subcommand,
  "site-file": () => require("./export/structureCli").siteFileMain as Subcommand,
  tree: () => require("./view/cli").treeMain as Subcommand,
  diff: () => require("./view/cli").diffMain as Subcommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage);
    return name === undefined ? 1 : 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`docsplatform: unknown command '${name}'\n${usage}`);
    return 1;
  }
  return load()(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`docsplatform: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
