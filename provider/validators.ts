/**
 * The one way this package makes an ajv instance and ajv standalone code, for the stack file's
 * validators (stack/schema.ts) and the kinds' input validators (resources/inputValidators.ts). ajv is
 * loaded only here, and only when a validator is compiled: a run with the validators `npm run build`
 * precompiled never loads it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { default as Ajv, Options, ValidateFunction } from "ajv";
import { formats } from "./formats";
import { URL_FORMATS } from "./urls";
import { PATTERN_WORDS } from "./phrases";

/**
 * An ajv instance reporting every error verbosely, with the formats (ajv-formats' and the URL rules of
 * urls.ts, see formats.ts) and the limits schema (`limits`, which the schemas refer to); `source` keeps
 * the generated code for {@link standaloneCode}, to be written in the folder `source.outDir` (its
 * formats are required from there).
 */
export function ajvWithLimits(limits: object, options: Options, source: false | { outDir: string }): Ajv {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when compiling */
  const { default: AjvClass, _ } = require("ajv") as typeof import("ajv");
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ajv = new AjvClass({ allErrors: true, verbose: true, ...options, ...(source ? { code: { source: true, formats: formatsCode(source.outDir, _) } } : {}) });
  addFormats(ajv);
  for (const name of Object.values(URL_FORMATS)) ajv.addFormat(name, formats[name]!);
  // The words of a pattern, for its error message (phrases.ts); the byte limit of a text sent inline (checked by the stack's file checks).
  ajv.addVocabulary([PATTERN_WORDS, "x-maxJsonBytes"]);
  ajv.addSchema(limits);
  return ajv;
}

/** The standalone code of an instance made with `source`: one export per name, the validator of its schema reference. */
export function standaloneCode(ajv: Ajv, exportsOf: Record<string, string>): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a build step
  const { default: standalone } = require("ajv/dist/standalone") as typeof import("ajv/dist/standalone");
  return standalone(ajv, exportsOf);
}

/**
 * The module of validators `npm run build` wrote at `file` (ajv standalone code), when `current` says it
 * was made from the schemas of this run (by the fingerprint it exports); undefined when there is none or
 * it is stale, and the caller compiles instead.
 */
export function loadPrecompiled<M>(file: string, current: (made: M) => boolean): M | undefined {
  if (!fs.existsSync(file)) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- generated at build time
  const made = require(file) as M;
  return current(made) ? made : undefined;
}

/** The validator of each schema reference of an instance, compiled now, by name. */
export function compiledSchemas<N extends string>(ajv: Ajv, refs: Record<N, string>): Record<N, ValidateFunction> {
  const out = {} as Record<N, ValidateFunction>;
  for (const [name, ref] of Object.entries(refs) as [N, string][]) {
    const validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`${ref} did not compile`);
    out[name] = validate;
  }
  return out;
}

/** The code by which a validator written in `outDir` requires the formats (formats.ts, compiled beside this module). */
function formatsCode(outDir: string, _: typeof import("ajv")._): ReturnType<typeof import("ajv")._> {
  const relative = path.relative(outDir, path.join(__dirname, "formats")).split(path.sep).join("/");
  const specifier = relative.startsWith(".") ? relative : `./${relative}`;
  return _`require(${specifier}).formats`;
}
