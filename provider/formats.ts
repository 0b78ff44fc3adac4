/**
 * The JSON Schema formats every validator of this package knows: ajv-formats' own, and the URL rules
 * of urls.ts. The precompiled validators (`npm run build`) require this module for their formats.
 */
import type { Format } from "ajv";
import { fullFormats } from "ajv-formats/dist/formats";
import { isUrlFor, URL_FORMATS } from "./urls";

/** Format name → its test, for ajv. */
export const formats: Record<string, Format> = {
  ...fullFormats,
  [URL_FORMATS.followed]: isUrlFor("followed"),
  [URL_FORMATS.fetched]: isUrlFor("fetched"),
  [URL_FORMATS.credentialed]: isUrlFor("credentialed"),
};
