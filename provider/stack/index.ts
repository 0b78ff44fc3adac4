/** The stack file: its typed model, the loader (which resolves it) and the schema it is checked against. */
export * from "../file/model";
export { loadStackFile, parseStack, formatProblem, STACK_FILE_LIMITS, type LoadResult, type Problem } from "./load";
export type { ResolvedStack } from "./resolve";
export { derivePath } from "../rules";
export { describe as describePointer } from "./checks";
export { STACK_SCHEMA_ID, schemasDir, stackValidator } from "./schema";
