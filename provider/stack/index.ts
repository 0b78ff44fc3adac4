/** The stack file: its typed model, the loader and the schema it is checked against. */
export * from "./model";
export { loadStackFile, parseStack, formatProblem, STACK_FILE_LIMITS, type LoadResult, type Problem } from "./load";
export { derivePath } from "../rules";
export { describe as describePointer } from "./checks";
export { STACK_SCHEMA_ID, schemasDir, stackValidator } from "./schema";
export {
  DocsPlatform,
  DOCS_PLATFORM_TYPE,
  StackFileError,
  loadForComponent,
  type DocsPlatformArgs,
  type DocsPlatformResources,
  type SiteResources,
} from "./component";
