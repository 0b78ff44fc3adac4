/**
 * The build step after tsc (`npm run build`): writes the stack file's unit validators as ajv standalone
 * code beside the compiled loader (dist/provider/stack/stackValidators.js), so that loading a stack file
 * compiles no schema; and each kind's input validator (dist/provider/resources/kindValidators/), so the
 * plugin's first check compiles none either. A validator made from other schemas than those in schemas/ is not used (the loader
 * then compiles them itself), so a stale file costs time, never a wrong answer.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PRECOMPILED_FILE, precompiledValidators } from "../../provider/stack/schema";
import { PRECOMPILED_INPUTS_DIR, precompiledInputValidator } from "../../provider/resources/inputValidators";
import { inputSchema } from "../../provider/resources/kind";
import { kinds } from "../../provider/resources/kinds";

const code = precompiledValidators();
fs.writeFileSync(PRECOMPILED_FILE, code);
process.stdout.write(`validators: wrote ${PRECOMPILED_FILE} (${Math.round(code.length / 1024)} KiB)\n`);

fs.mkdirSync(PRECOMPILED_INPUTS_DIR, { recursive: true });
for (const kind of kinds) fs.writeFileSync(path.join(PRECOMPILED_INPUTS_DIR, `${kind.name}.js`), precompiledInputValidator(inputSchema(kind)));
process.stdout.write(`validators: wrote ${kinds.length} kinds' input validators to ${PRECOMPILED_INPUTS_DIR}\n`);
