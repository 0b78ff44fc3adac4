/**
 * What the two customization kinds share: the members of a site's customization settings as the API
 * names them, read from `schemas/limits.json` (one source for the emulator, `check` and the stack file),
 * and the three operations on partial settings: merge a declaration over a whole object, project a whole
 * object onto the shape of a declaration, and list the leaves of a declaration.
 *
 * A member whose schema is an inline object with `properties` (styling, header, ai, …) is a container: it
 * is declared partly, member by member. Every other value (a colour, a favicon, a list of header links, an
 * announcement) is whole: declared, compared and replaced as one value.
 */
import limits from "../../schemas/limits.json";
import { LIMITS_ID, type FieldSpec, type ValueSchema } from "./kind";

type Json = unknown;
type Obj = Record<string, unknown>;

const DEFINITIONS = limits.definitions as unknown as Record<string, ValueSchema>;

/** The schema of a site's whole settings (the PUT body) and of a site space's overrides (the PATCH body). */
export const SITE_SETTINGS = DEFINITIONS.siteCustomization! as { properties: Record<string, ValueSchema> };
export const OVERRIDE_SETTINGS = DEFINITIONS.siteSpaceCustomization! as { properties: Record<string, ValueSchema> };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A fragment of limits.json with its internal references made absolute, usable from any schema. */
function rebase(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${LIMITS_ID}${v}` : rebase(v);
  return out;
}

/** `X or null` as the override body spells a member: X. */
function notNull(schema: ValueSchema): ValueSchema {
  const any = schema.anyOf as ValueSchema[] | undefined;
  if (any && any.length === 2 && any.some((s) => s.type === "null")) return any.find((s) => s.type !== "null")!;
  return schema;
}

/** True when a member's schema is a container (declared member by member). */
export function isContainer(schema: ValueSchema | undefined): boolean {
  return schema !== undefined && isObj(notNull(schema).properties);
}

/** The stack file's schema of one member: containers with every member optional (a declaration is partial), whole values as the API takes them. */
export function partialSchema(schema: ValueSchema): ValueSchema {
  const s = notNull(schema);
  if (!isContainer(s)) return rebase(s) as ValueSchema;
  const properties: Record<string, ValueSchema> = {};
  for (const [k, v] of Object.entries(s.properties as Record<string, ValueSchema>)) {
    const inner = partialSchema(v);
    properties[k] = { ...inner, description: (inner.description as string | undefined) ?? `The API's \`${k}\` member (see the platform's customization settings).` };
  }
  return { type: "object", additionalProperties: false, properties };
}

/** The child schema of a container member, if it is one. */
function child(schema: ValueSchema | undefined, key: string): ValueSchema | undefined {
  if (schema === undefined || !isContainer(schema)) return undefined;
  const inner = (notNull(schema).properties as Record<string, ValueSchema>)[key];
  return inner ? notNull(inner) : undefined;
}

/** `base` with `declared` in place: containers merge member by member, every other value replaces. */
export function mergeDeclared(base: Json, declared: Json, schema: ValueSchema | undefined): Json {
  if (!isContainer(schema) || !isObj(declared) || !isObj(base)) return structuredClone(declared);
  const out: Obj = structuredClone(base);
  for (const [k, v] of Object.entries(declared)) if (v !== undefined && v !== null) out[k] = mergeDeclared(base[k], v, child(schema, k));
  return out;
}

/** `live` seen through the shape of a declaration: the declared members only (a missing one is null). */
export function project(live: Json, shape: Json, schema: ValueSchema | undefined): Json {
  if (!isContainer(schema) || !isObj(shape)) return live === undefined ? null : structuredClone(live);
  const out: Obj = {};
  const from = isObj(live) ? live : {};
  for (const k of Object.keys(shape)) out[k] = project(from[k], shape[k], child(schema, k));
  return out;
}

/**
 * A declared member's outputs: `live` through the declaration's shape, plus the members outside the shape
 * whose live value differs from `base` (what an omitted member stands for), so a hand-made change there is drift.
 */
export function observed(live: Json, shape: Json, base: Json, schema: ValueSchema | undefined): Json {
  const seen = project(live, shape, schema);
  const extra = differing(live, base, schema);
  if (extra === undefined || !isContainer(schema) || !isObj(extra) || !isObj(seen)) return seen;
  const out: Obj = structuredClone(extra);
  for (const [k, v] of Object.entries(seen)) out[k] = isObj(v) && isObj(out[k]) ? observed((live as Obj)[k], (shape as Obj)[k], (base as Obj | undefined)?.[k], child(schema, k)) : v;
  return out;
}

/** The members of `value` that differ from `base`, at the depth containers allow (undefined: none differ). */
export function differing(value: Json, base: Json, schema: ValueSchema | undefined): Json | undefined {
  if (!isContainer(schema) || !isObj(value) || !isObj(base)) return sameJson(value, base) ? undefined : (value ?? null);
  const out: Obj = {};
  for (const k of new Set([...Object.keys(value), ...Object.keys(base)])) {
    const d = differing(value[k], base[k], child(schema, k));
    if (d !== undefined) out[k] = d;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * `next` with `null` at every leaf `prev` has and `next` does not: a merging PATCH that clears what a
 * declaration no longer holds. Undefined when neither holds anything.
 */
export function withCleared(prev: Json, next: Json, schema: ValueSchema | undefined): Json | undefined {
  if (!isContainer(schema) || !isObj(prev)) return next === undefined || next === null ? (prev === undefined || prev === null ? undefined : null) : next;
  const out: Obj = isObj(next) ? structuredClone(next) : {};
  for (const k of Object.keys(prev)) {
    if (out[k] !== undefined && out[k] !== null && !isContainer(child(schema, k))) continue;
    const c = withCleared(prev[k], out[k], child(schema, k));
    if (c !== undefined) out[k] = c;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** JSON equality where key order does not matter and undefined is null. */
export function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = canonical(v[k]);
  return out;
}

/**
 * The page actions as the platform keeps them: on a non-empty list, `assistant` follows `ai.mode` (put
 * first when missing and the assistant is on, taken out when it is off); an empty list stays empty.
 */
export function keptPageActions(items: readonly string[], aiMode: string | undefined): string[] {
  if (items.length === 0) return [];
  if (aiMode !== "assistant") return items.filter((i) => i !== "assistant");
  return items.includes("assistant") ? [...items] : ["assistant", ...items];
}

/** One field per member of `settings`, as the kind declares them (`doc` per member, `absent` the kind's rule). */
export function memberFields(settings: { properties: Record<string, ValueSchema> }, docs: Record<string, string>, absent: FieldSpec["absent"], skip: readonly string[] = []): Record<string, FieldSpec> {
  const out: Record<string, FieldSpec> = {};
  for (const [name, schema] of Object.entries(settings.properties)) {
    if (skip.includes(name)) continue;
    out[name] = { schema: partialSchema(schema), doc: docs[name] ?? `The API's \`${name}\` member.`, absent };
  }
  return out;
}

/** One sentence per member for editors and the reference (the API's own member names). */
export const MEMBER_DOCS: Record<string, string> = {
  title: "Title of the published site, 2 to 128 characters.",
  localizedTitle: "Title per language (non-default languages), each at most 128 characters.",
  styling: "Theme, colours (#rgb or #rrggbb, light and dark), tint, corners, depth, links, fonts, icons, code themes, sidebar and search.",
  internationalization: "Deprecated by the API: locale of the built-in interface texts.",
  favicon: "The favicon: {icon: {light, dark}} (URLs), {emoji}, or {} for none.",
  header: "Header: logo ({light, dark} URLs), primary link, and links (each with title, to, style, sub-links and condition).",
  footer: "Footer: logo, groups of links, copyright (at most 512 characters).",
  announcement: "Announcement banner: enabled, message (2 to 128), style (info, warning, danger, success), link.",
  themes: "Light, dark or system by default, and whether readers may switch (`toggeable`, the API's spelling).",
  feedback: "Whether readers' feedback is gathered.",
  ai: "AI mode (none, search, assistant), the assistant's greeting (at most 256), suggestions (at most 5, 3 to 64 each) and instructions.",
  advancedCustomization: "Whether advanced customization is on.",
  pageActions: "The page menu's actions in order (assistant, external-ai, markdown, mcp, git, pdf); `assistant` follows `ai.mode`.",
  externalLinks: "Whether external links open in the same tab (self) or a new one (blank).",
  pagination: "Whether pagination links are shown on pages.",
  trademark: "Whether the platform's trademark is shown.",
  privacyPolicy: "URL of a custom privacy policy.",
  socialPreview: "URL of the social preview image.",
  socialAccounts: "Social accounts (at most 10): platform, handle, shown in footer and header.",
  insights: "Whether the platform identifies visitors with a cookie.",
};
