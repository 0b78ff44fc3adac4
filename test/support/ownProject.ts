/**
 * A user's own no-code project, distinct from the handbook and the default fixture: its own organisation
 * (`northwind-docs`), two sites, a team naming two users by e-mail, a space by `{id}` that only the
 * organisation has, and a share link. And `docsplatform emulator --seed-from docs.yaml` started as the
 * user starts it, from the package installed in the project.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { writeNoCodeProject, type WrittenProject } from "./noCodeProject";

export const OWN_ORG = "northwind-docs";
export const OWN_SPACE = "nw-manual";

export const OWN_DOCS = `# yaml-language-server: $schema=node_modules/pulumi-docsplatform/schemas/stack.schema.json
organization: ${OWN_ORG}
caller: ops@northwind.test
teams:
  - key: writers
    title: Writers
    members:
      - { user: ana@northwind.test, role: owner }
      - { user: ben@northwind.test }
sites:
  - key: product
    title: Product docs
    sections:
      - { key: manual, title: Manual, space: { id: ${OWN_SPACE} } }
  - key: partners
    title: Partner docs
    visibility: share-link
    siteSpaces:
      - { key: manual, space: { id: ${OWN_SPACE} } }
    shareLinks:
      - { key: acme, name: Acme preview }
`;

/** Resources the file declares: 2 sites, a section, 2 site spaces, a share link, a team and its members, 2 site orders. */
export const OWN_RESOURCES = 10;

/** Writes the no-code project (Pulumi.yaml, package.json, docs.yaml: {@link OWN_DOCS} unless given) into a new temporary folder. */
export function writeOwnProject(docs = OWN_DOCS): WrittenProject {
  return writeNoCodeProject("northwind", { "docs.yaml": docs });
}

/** `docsplatform emulator --port 0 --seed-from docs.yaml` running, with what it printed. */
export interface SeededEmulator {
  url: string;
  /** The token it printed, and the user it acts as. */
  token: string;
  user: string;
  /** Its `seed:` line. */
  seedLine: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the installed package's command in `projectDir` (as `npx docsplatform …` does) and reads its first lines. */
export function startSeededEmulator(projectDir: string, stackFile = "docs.yaml"): Promise<SeededEmulator> {
  const cli = path.join(projectDir, "node_modules", "pulumi-docsplatform", "dist", "provider", "cli.js");
  const child = spawn(process.execPath, [cli, "emulator", "--port", "0", "--seed-from", stackFile], { cwd: projectDir, stdio: ["ignore", "pipe", "pipe"] });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    let stderr = "";
    const seen: { url?: string; token?: string; user?: string } = {};
    child.stderr!.on("data", (d) => (stderr += String(d)));
    child.on("exit", (code) => reject(new Error(`docsplatform emulator exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const listening = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      const token = /^token: (\S+) \((.+)\)$/.exec(line);
      if (listening) seen.url = listening[1]!;
      if (token) [seen.token, seen.user] = [token[1]!, token[2]!];
      if (line.startsWith("seed: ") && seen.url && seen.token && seen.user) {
        resolve({ url: seen.url, token: seen.token, user: seen.user, seedLine: line, child, stop });
      }
    });
  });
}
