/**
 * The one way this package makes an ajv instance and ajv standalone code, for the stack file's
 * validators (stack/schema.ts) and the kinds' input validators (resources/inputValidators.ts). ajv is
 * loaded only here, and only when a validator is compiled: a run with the validators `npm run build`
 * precompiled never loads it.
 */
import type { default as Ajv, Options } from "ajv";

/**
 * An ajv instance reporting every error verbosely, with the formats and the limits schema (`limits`,
 * which the schemas refer to); `source` keeps the generated code for {@link standaloneCode}.
 */
export function ajvWithLimits(limits: object, options: Options, source: boolean): Ajv {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when compiling */
  const { default: AjvClass, _ } = require("ajv") as typeof import("ajv");
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const formats = _`require("ajv-formats/dist/formats").fullFormats`;
  const ajv = new AjvClass({ allErrors: true, verbose: true, ...options, ...(source ? { code: { source: true, formats } } : {}) });
  addFormats(ajv);
  ajv.addSchema(limits);
  return ajv;
}

/** The standalone code of an instance made with `source`: one export per name, the validator of its schema reference. */
export function standaloneCode(ajv: Ajv, exportsOf: Record<string, string>): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a build step
  const { default: standalone } = require("ajv/dist/standalone") as typeof import("ajv/dist/standalone");
  return standalone(ajv, exportsOf);
}
