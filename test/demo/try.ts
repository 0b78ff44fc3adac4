/**
 * `npm run try -- PROJECT [--keep] [--api-url URL [--token TOKEN]] [--harness | --cli]`: one's own project
 * (a folder with Pulumi.yaml, or a stack file) run against the emulator seeded with the organisation its
 * stack file refers to — preview, up, a second up (no API call), destroy — through the Pulumi CLI where
 * it can be built, else the bundled engine harness (project.ts). `npm run demo` is the handbook example
 * on the emulator's default fixture (`--fixture`).
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { tryProject } from "./project";

const usage = `usage: npm run try -- PROJECT [--keep] [--api-url URL [--token TOKEN]] [--harness | --cli]

  PROJECT          a project folder (Pulumi.yaml and docs.yaml), or a stack file (its folder is the project)
  --keep           leave the stack deployed and the emulator running until Ctrl-C (no destroy)
  --api-url URL    use a running emulator (docsplatform emulator --seed-from docs.yaml) instead of starting one
  --token TOKEN    its token (default: DOCSPLATFORM_API_TOKEN, else dev-token)
  --harness        the bundled engine harness even where the Pulumi CLI can be built
  --cli            the Pulumi CLI only (fail where it cannot be built)
  --fixture        seed the emulator with its default fixture instead of the stack file (the handbook demo)
`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((a) => a !== "--"),
      options: {
        keep: { type: "boolean" },
        "api-url": { type: "string" },
        token: { type: "string" },
        harness: { type: "boolean" },
        cli: { type: "boolean" },
        fixture: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    process.stderr.write(`try: ${err instanceof Error ? err.message : String(err)}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (positionals.length !== 1 || (values.harness && values.cli) || (values.token !== undefined && values["api-url"] === undefined)) {
    process.stderr.write(usage);
    return 2;
  }
  const apiUrl = values["api-url"];
  try {
    await tryProject({
      // npm runs scripts in the checkout; a relative path is the user's, from where they typed it.
      project: path.resolve(process.env["INIT_CWD"] ?? process.cwd(), positionals[0]!),
      keep: values.keep ?? false,
      engine: values.harness ? "harness" : values.cli ? "cli" : "auto",
      seed: values.fixture ? "fixture" : "file",
      ...(apiUrl !== undefined ? { api: { url: apiUrl, token: values.token ?? process.env["DOCSPLATFORM_API_TOKEN"] ?? "dev-token" } } : {}),
    });
    return 0;
  } catch (err) {
    process.stderr.write(`try: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`try: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
