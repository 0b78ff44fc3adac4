/**
 * The one phrasebook of validation messages: every schema violation, whether found by a kind's
 * `check` in the plugin or by `docsplatform validate` on a stack file, is worded here, naming the
 * limit and what was given.
 */
import type { ErrorObject } from "ajv";
import { escapeSegment } from "./pointer";
import { redactUrl, urlProblem, urlUseOf } from "./urls";

/** A schema violation before it is given a position: where (JSON pointer), what, and whether it points at a key. */
export interface SchemaIssue {
  /** JSON pointer of the offending value (or of the property whose key is wrong). */
  pointer: string;
  /** Human sentence without the field path. */
  reason: string;
  /** Point at the mapping key rather than the value (unknown fields). */
  atKey: boolean;
}

/**
 * The annotation every `pattern` of the schemas carries beside it: the pattern in words, completing
 * "must be …" (`a hex colour, #rgb or #rrggbb, like #346ddb`). A user never reads the regular expression.
 */
export const PATTERN_WORDS = "x-patternWords";

const FORMAT_PHRASES: Record<string, string> = {
  uri: "must be an absolute URI, like https://example.com/path",
  hostname: "must be a domain name, like example.com",
  email: "must be an e-mail address",
};

/** Turn ajv errors into issues: collapse the branches of `oneOf`, drop `if`, phrase each keyword. */
export function explain(all: readonly ErrorObject[]): SchemaIssue[] {
  const errors = withoutRuledOutBranches(all);
  const unions = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (e.keyword === "oneOf" || e.keyword === "anyOf") {
      unions.set(e.instancePath, [...(unions.get(e.instancePath) ?? []), e]);
    }
  }
  // The nearest union at or above the error's path: O(depth), not O(unions), per error.
  const underUnion = (e: ErrorObject): string | undefined => {
    if (unions.size === 0) return undefined;
    for (let p = e.instancePath; ; p = p.slice(0, p.lastIndexOf("/"))) {
      if (unions.has(p)) return p;
      if (p === "") return undefined;
    }
  };

  const issues: SchemaIssue[] = [];
  const typeMisses = new Map<string, { expected: string[]; data: unknown }>();
  const explained = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "if" || e.keyword === "oneOf" || e.keyword === "anyOf") continue;
    const union = underUnion(e);
    if (union !== undefined && e.keyword === "type" && e.instancePath === union) {
      // A branch of a union whose type does not fit the value: only worth saying if no branch fits.
      const miss = typeMisses.get(union) ?? { expected: [], data: e.data };
      miss.expected.push(...typeList(e.params.type));
      typeMisses.set(union, miss);
      continue;
    }
    if (union !== undefined) explained.add(union);
    issues.push(phrase(e));
  }
  for (const [pointer, miss] of typeMisses) {
    if (explained.has(pointer)) continue;
    issues.push({ pointer, reason: `must be ${describeTypes(miss.expected)} (got ${kindOf(miss.data)})`, atKey: false });
  }
  return dedupe(withoutPatternsExplainedByFormat(errors, issues));
}

/**
 * A value that fails its format (a URL with the wrong scheme) is explained by the format: the same
 * value's pattern failure (a scheme prefix) would only say it again, less clearly.
 */
function withoutPatternsExplainedByFormat(errors: readonly ErrorObject[], issues: SchemaIssue[]): SchemaIssue[] {
  const formatFailed = new Set(errors.filter((e) => e.keyword === "format").map((e) => e.instancePath));
  if (formatFailed.size === 0) return issues;
  const patternReasons = new Set(errors.filter((e) => e.keyword === "pattern" && formatFailed.has(e.instancePath)).map((e) => phrase(e).reason));
  return issues.filter((i) => !(formatFailed.has(i.pointer) && patternReasons.has(i.reason)));
}

/**
 * The errors of a union's branches that its discriminator rules out, dropped: a `{kind: url, url}` whose
 * URL is wrong fails every branch, but only the `url` branch is meant (the others fail on `kind`'s const).
 * Kept when every branch is ruled out (no branch fits the kind at all).
 */
function withoutRuledOutBranches(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  if (unions.length === 0) return errors;
  const dropped = new Set<ErrorObject>();
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (!e.schemaPath.startsWith(prefix) || !e.instancePath.startsWith(union.instancePath)) continue;
      const branch = e.schemaPath.slice(prefix.length).split("/")[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    const isRuledOut = (list: ErrorObject[]): boolean =>
      // A discriminator is a `const` (`kind: url`); an `enum` of a member (a theme) is the value's own mistake.
      list.some((e) => e.keyword === "const" && e.instancePath.lastIndexOf("/") === union.instancePath.length && e.instancePath.length > union.instancePath.length);
    const branchCount = Array.isArray(union.schema) ? union.schema.length : branches.size;
    const ruledOut = [...branches.values()].filter(isRuledOut);
    if (ruledOut.length === 0 || ruledOut.length >= branchCount) continue;
    for (const list of ruledOut) for (const e of list) dropped.add(e);
  }
  return dropped.size === 0 ? errors : errors.filter((e) => !dropped.has(e));
}

function phrase(e: ErrorObject): SchemaIssue {
  const at = (reason: string): SchemaIssue => ({ pointer: e.instancePath, reason, atKey: false });
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "type":
      // A secret written as its value: say where it must come from instead, and never repeat the value.
      if ((e.parentSchema as Record<string, unknown> | undefined)?.["x-secretSources"] === true && typeof e.data === "string") {
        return at("is a plain-text secret: a secret value is never written in the file; give where it comes from, {env: NAME} (an environment variable) or {config: key} (set with `pulumi config set --secret key <value>`)");
      }
      return at(`must be ${describeTypes(typeList(params.type))} (got ${kindOf(e.data)})`);
    case "minLength": {
      const limit = Number(params.limit);
      if (limit === 1) return at("must not be empty");
      return at(`must be at least ${limit} characters (got ${charCount(e.data)})`);
    }
    case "maxLength":
      return at(`must be at most ${Number(params.limit)} characters (got ${charCount(e.data)})`);
    case "pattern": {
      const words = (e.parentSchema as Record<string, unknown> | undefined)?.[PATTERN_WORDS];
      // Every declared pattern has its words (a test walks them); a pattern without would still not be shown.
      const sentence = typeof words === "string" ? `must be ${words}` : "is not in the form this field takes";
      return at(`${sentence} (got ${show(e.data)})`);
    }
    case "format": {
      const format = String(params.format);
      const use = urlUseOf(format);
      if (use !== undefined && typeof e.data === "string") return at(`${urlProblem(e.data, use) ?? "is not allowed"} (got ${show(redactUrl(e.data))})`);
      return at(`${FORMAT_PHRASES[format] ?? `must be a valid ${format}`} (got ${show(e.data)})`);
    }
    case "enum": {
      const allowed = (Array.isArray(e.schema) ? (e.schema as unknown[]) : []).map((v) => (v === null ? "null" : String(v)));
      return at(`must be one of ${allowed.join(", ")} (got ${show(e.data)})`);
    }
    case "const": {
      // A value refused for a reason of the platform's (`x-because`), said instead of the bare constant.
      const because = (e.parentSchema as Record<string, unknown> | undefined)?.["x-because"];
      if (typeof because === "string") return at(`${show(e.data)} is refused: ${because}`);
      return at(`must be ${show(params.allowedValue)} (got ${show(e.data)})`);
    }
    case "required": {
      const missing = String(params.missingProperty);
      const when = e.schemaPath.endsWith("/then/required") ? " when adopt is true (it is the natural key adopt looks for)" : "";
      return { pointer: `${e.instancePath}/${escapePointer(missing)}`, reason: `is required${when}`, atKey: false };
    }
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      const known = Object.keys(propertiesOf(e.parentSchema));
      const guess = closest(field, known);
      const hint = guess
        ? `; did you mean '${guess}'?`
        : known.length > 0
          ? `; allowed fields: ${known.join(", ")}`
          : "";
      return { pointer: `${e.instancePath}/${escapePointer(field)}`, reason: `unknown field${hint}`, atKey: true };
    }
    case "minItems":
      return at(`must have at least ${Number(params.limit)} item${Number(params.limit) === 1 ? "" : "s"} (got ${lengthOf(e.data)})`);
    case "maxItems":
      return at(`must have at most ${Number(params.limit)} items (got ${lengthOf(e.data)})`);
    case "uniqueItems": {
      const later = Math.max(Number(params.i), Number(params.j));
      const earlier = Math.min(Number(params.i), Number(params.j));
      return {
        pointer: `${e.instancePath}/${later}`,
        reason: `repeats item ${earlier} (${show(Array.isArray(e.data) ? e.data[later] : undefined)}); each value may appear once`,
        atKey: false,
      };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return at(`${e.message ?? "is out of range"} (got ${show(e.data)})`);
    default:
      return at(e.message ?? `fails ${e.keyword}`);
  }
}

export function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema === "object" && schema !== null && "properties" in schema) {
    const props = (schema as { properties: unknown }).properties;
    if (typeof props === "object" && props !== null) return props as Record<string, unknown>;
  }
  return {};
}

function typeList(t: unknown): string[] {
  return Array.isArray(t) ? t.map(String) : [String(t)];
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  null: "null",
};

function describeTypes(types: string[]): string {
  const names = [...new Set(types)].map((t) => TYPE_NAMES[t] ?? t);
  if (names.length <= 1) return names[0] ?? "a value";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** How a YAML author would name the kind of a value. */
export function kindOf(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "a list";
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
      return Number.isInteger(v) ? "an integer" : "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "a mapping";
    default:
      return typeof v;
  }
}

/** A short, quoted rendering of a value for messages. */
export function show(v: unknown): string {
  if (typeof v === "string") {
    const chars = [...v];
    return visible(JSON.stringify(chars.length > 60 ? `${chars.slice(0, 57).join("")}...` : v));
  }
  if (v === undefined) return "nothing";
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Invisible, text-reordering and line-separating characters written as `\uXXXX`, so a message (or a view, or
 * a pull-request comment) shows what the file holds, reads in order and stays on its line.
 */
export function visible(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

// ajv counts code points, so the "got" count must too.
function charCount(v: unknown): number {
  return typeof v === "string" ? [...v].length : 0;
}

function lengthOf(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

/** A segment escaped for a JSON pointer (see `pointer.ts`). */
export const escapePointer = escapeSegment;


function dedupe(issues: SchemaIssue[]): SchemaIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const id = `${i.pointer}\u0000${i.reason}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The known name closest to a misspelt one, when it is close enough to be a likely typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  return nearest(word, known)[0];
}

/**
 * The known names closest to a misspelt one, when close enough to be a likely typo: every name at the
 * least distance, in the order given (the first is {@link closest}'s).
 */
export function nearest(word: string, known: readonly string[]): string[] {
  let best: string[] = [];
  let bestDistance = Infinity;
  const tolerance = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  for (const candidate of known) {
    // The distance is at least the difference in length: a far longer word (a pasted paragraph) costs nothing.
    if (Math.abs(word.length - candidate.length) > tolerance) continue;
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = [candidate];
      bestDistance = d;
    } else if (d === bestDistance) {
      best.push(candidate);
    }
  }
  return bestDistance <= tolerance ? best : [];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
