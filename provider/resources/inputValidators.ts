/**
 * The kinds' input validators. `npm run build` writes them as ajv standalone code beside this module
 * (dist/provider/resources/kindValidators/<Kind>.js, a file per kind, so the plugin loads only the kinds
 * it serves), so the plugin's first `check` compiles no schema: loading ajv and compiling a kind's schema was most of what the plugin spends on
 * our side in an `up` (measured in bench/). Each precompiled validator carries the fingerprint of the
 * schema it was made from and serves only that schema; any other (a stale file, a schema not made at
 * build time) is compiled on first use, so a stale file costs time, never a wrong answer.
 */
import { createHash, type Hash } from "node:crypto";
import * as path from "node:path";
import type { default as Ajv, ValidateFunction } from "ajv";
import limits from "../../schemas/limits.json";
import { ajvWithLimits, loadPrecompiled, standaloneCode } from "../validators";

/** The folder `npm run build` writes next to this module: a kind's validator is `<folder>/<Kind>.js`. */
export const PRECOMPILED_INPUTS_DIR = path.join(__dirname, "kindValidators");

/** The hash of the limits every schema refers to, made once: each fingerprint continues a copy of it. */
let limitsHash: Hash | undefined;

/** A schema's fingerprint (with the limits it refers to): a precompiled validator serves only its own. */
function fingerprint(schema: object): string {
  limitsHash ??= createHash("sha256").update(JSON.stringify(limits)).update("\0");
  return limitsHash.copy().update(JSON.stringify(schema)).digest("hex");
}

/** An ajv instance with the limits; `source` keeps the generated code for {@link precompiledInputValidator}. */
function newAjv(source: boolean): Ajv {
  return ajvWithLimits(limits, { strict: false }, source ? { outDir: PRECOMPILED_INPUTS_DIR } : false);
}

/** The source of a kind's precompiled input validator: the function (`validate`) and its schema's fingerprint (`fingerprint`). */
export function precompiledInputValidator(schema: object): string {
  const ajv = newAjv(true);
  ajv.addSchema(schema);
  const code = standaloneCode(ajv, { validate: (schema as { $id: string }).$id });
  return `${code}\nexports.fingerprint = ${JSON.stringify(fingerprint(schema))};\n`;
}

let ajv: Ajv | undefined;
/** Validators by schema object, and by fingerprint (two providers of one kind share theirs). */
const validators = new WeakMap<object, ValidateFunction>();
const byFingerprint = new Map<string, ValidateFunction>();

/** The kind's validator made at build time, if there is one and it was made from this schema. */
function precompiled(kindName: string, print: string): ValidateFunction | undefined {
  const made = loadPrecompiled<{ validate: ValidateFunction; fingerprint: string }>(path.join(PRECOMPILED_INPUTS_DIR, `${kindName}.js`), (m) => m.fingerprint === print);
  return made?.validate;
}

/** Compiles a schema now, in place of any earlier one with its `$id`. */
function compile(schema: object): ValidateFunction {
  ajv ??= newAjv(false);
  const id = (schema as { $id?: string }).$id;
  if (id !== undefined) ajv.removeSchema(id);
  return ajv.compile(schema);
}

/** The validator of a kind's input schema: the one made at build time from this schema, else compiled now (once). */
export function inputValidator(kindName: string, schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (validate) return validate;
  const print = fingerprint(schema);
  validate = byFingerprint.get(print) ?? precompiled(kindName, print) ?? compile(schema);
  byFingerprint.set(print, validate);
  validators.set(schema, validate);
  return validate;
}
