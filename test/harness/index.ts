/**
 * Engine harness: runs the provider the way the Pulumi CLI would — the real dynamic-provider plugin over
 * gRPC, and Pulumi programs through the SDK's real language host against a fake resource monitor.
 * See test/README.md.
 */
export {
  PluginDriver,
  PluginError,
  startPlugin,
  parseUrn,
  PLUGIN_SCRIPT,
  type StartPluginOptions,
  type CheckFailure,
  type CheckResult,
  type DiffResult,
  type CreateResult,
  type ReadResult,
  type InitFailure,
} from "./plugin";
export {
  ProgramRunner,
  RunError,
  LANGUAGE_HOST,
  type ApiCall,
  type EmulatorLog,
  type RunOptions,
  type ProgramRunnerOptions,
  type RunResult,
} from "./runner";
export { pluginAgainst, providerConfig, runnerAgainst, type ProgramTarget } from "./emulatorRunner";
export { HANDBOOK_SECRET_ENV } from "./handbookSecrets";
export { StepError, makeUrn, isDynamicType, opLabel, type CrashPlan, type Registration, type Step, type StepOp } from "./deployment";
export { prepareProgram, installPackage, packPackage, REPO_ROOT, WORK_DIR, type PreparedProgram, type PrepareOptions } from "./program";
export {
  loadState,
  loadPendingOperations,
  type PendingOperation,
  saveState,
  toStateFile,
  sortByDependencies,
  STACK_TYPE,
  DYNAMIC_PROVIDER_TYPE,
  type StateFile,
  type StateResource,
} from "./state";
export type { LogEntry } from "./engine";
export {
  UNKNOWN,
  SIG_KEY,
  SECRET_SIG,
  PROVIDER_KEY,
  secret,
  isSecret,
  isStateSecret,
  stripSecrets,
  containsSecret,
  containsUnknown,
  type PropertyMap,
  type PropertyValue,
} from "./values";
