/**
 * The environment of a user's shell, for the CLI tests that run commands as a page writes them: the
 * test's own environment without what a shell of the user's would not have (PATH, HOME, Pulumi's, the
 * provider's, npm's and Go's settings), PATH holding the folders given, then Node.js and the system's
 * folders (/usr/bin, /bin), and HOME a folder of the test's. npm keeps the machine's cache and
 * configuration (the new HOME has neither), without its update notice.
 */
import * as os from "node:os";
import * as path from "node:path";

export function userShellEnv(home: string, pathFirst: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(PATH|HOME|INIT_CWD|NODE_OPTIONS|PULUMI_.*|DOCSPLATFORM_.*|npm_.*|GO.*)$/i.test(key)) env[key] = value;
  }
  return {
    ...env,
    PATH: [...pathFirst, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
    HOME: home,
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
    npm_config_userconfig: process.env["npm_config_userconfig"] ?? path.join(os.homedir(), ".npmrc"),
    npm_config_update_notifier: "false",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
}
