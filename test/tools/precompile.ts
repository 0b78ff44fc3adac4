/**
 * The build step after tsc (`npm run build`): writes the stack file's unit validators as ajv standalone
 * code beside the compiled loader (dist/provider/stack/stackValidators.js), so that loading a stack file
 * compiles no schema. A validator made from other schemas than those in schemas/ is not used (the loader
 * then compiles them itself), so a stale file costs time, never a wrong answer.
 */
import * as fs from "node:fs";
import { PRECOMPILED_FILE, precompiledValidators } from "../../provider/stack/schema";

const code = precompiledValidators();
fs.writeFileSync(PRECOMPILED_FILE, code);
process.stdout.write(`validators: wrote ${PRECOMPILED_FILE} (${Math.round(code.length / 1024)} KiB)\n`);
