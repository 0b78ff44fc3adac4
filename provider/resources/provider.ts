import { isDeepStrictEqual } from "node:util";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { explain } from "../phrases";
import { dottedPath, valuesAlong } from "../pointer";
import type { ApiClient } from "../client";
import { ApiError, isConflict, isNotFound, isOutcomeUnknown } from "../client/errors";
import { API_URL, connectionSettings, CREDENTIAL, tuningFromEnv, type Tuning } from "../env";
import { configureListViews, throughLag } from "./lists";
import { inputValidator } from "./inputValidators";
import { missingReferences, takeReferences } from "./references";
import { tellEngine } from "./engineLog";
import { driftWarnings, rememberDrift } from "./drift";
import { isTokenRefused } from "../client/tokenRefusal";
import { explainRefusedToken, TOKEN_SETTINGS } from "../refusedToken";
import {
  type AdoptInput,
  type Created,
  type FieldSpec,
  type KindContext,
  type KindDefinition,
  HELD_INPUT,
  containsUnknown,
  makesObjects,
  jsonEqual,
  storedOutputs,
  storedValue,
  expandedOutputs,
  declaredInputs,
  desiredValue,
  inputSchema,
} from "./kind";

/**
 * `makeProvider(kind)` turns a kind definition into a Pulumi dynamic `ResourceProvider` with
 * generic configure, check, diff, create (with adopt), read, update and delete. The provider
 * object holds no credential: `configure` stores the API URL and token in process-wide state and
 * every call obtains the shared client for them.
 */

/** Config keys and the environment variables that win over them (env.ts `connectionSettings`). */
export const CONFIG = {
  apiToken: { key: CREDENTIAL.config[0], env: CREDENTIAL.env[0] },
  apiUrl: { key: API_URL.config, env: API_URL.env },
} as const;

/** The provider type of a kind: inputs are the kind's inputs plus `adopt`. */
export type KindProvider<I extends object, O extends object> = dynamic.ResourceProvider<I & AdoptInput, O> & {
  check: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["check"]>;
  diff: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["diff"]>;
  read: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["read"]>;
  update: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["update"]>;
  delete: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["delete"]>;
  configure: NonNullable<dynamic.ResourceProvider<I & AdoptInput, O>["configure"]>;
};

// ---------------------------------------------------------------------------------------------
// Connection: process-wide, set synchronously by configure (the plugin caches the provider before
// awaiting configure, so concurrent first calls must already see it).

interface Settings {
  url: string | undefined;
  token: string | undefined;
  /** The setting the token came from (its environment variable or its config key), for the refused-token message. */
  tokenFrom: string | undefined;
  /** The tuning environment variables, read once here (the client reads none). */
  tuning: Tuning;
}

let configured: Settings | undefined;
/** The settings from the environment alone, when configure never ran (programs using the provider in-process). */
let fromEnv: Settings | undefined;

/** The URL and token by the package's one rule (the environment wins over config), and the tuning variables. */
function settingsFrom(config: { get(key: string): string | undefined } | undefined): Settings {
  const { url, token } = connectionSettings(config);
  return { url: url?.value, token: token?.value, tokenFrom: token?.from, tuning: tuningFromEnv() };
}

/**
 * Records the API URL and token: `DOCSPLATFORM_API_URL` and `DOCSPLATFORM_API_TOKEN` when set, else
 * Pulumi config (`config` is what the engine configures the provider with: the stack's config in a
 * preview or up, the config an earlier run stored in a refresh). Synchronous.
 */
export function configureConnection(config: { get(key: string): string | undefined }): void {
  configured = settingsFrom(config);
  configureListViews(configured.tuning);
}

/**
 * The shared client for the configured URL and token (environment when configure never ran). The
 * client's modules load with the first call that needs one: a check or diff (a preview, a no-op `up`)
 * never loads them.
 */
export async function kindContext(): Promise<KindContext> {
  if (configured === undefined && fromEnv === undefined) {
    fromEnv = settingsFrom(undefined);
    configureListViews(fromEnv.tuning);
  }
  const settings = (configured ?? fromEnv)!;
  if (settings.url === undefined) {
    throw new Error(
      `The docsplatform API URL is not set: run \`pulumi config set ${CONFIG.apiUrl.key} <url>\` or set ${CONFIG.apiUrl.env}`,
    );
  }
  if (settings.token === undefined) {
    throw new Error(
      `The docsplatform API token is not set: run \`pulumi config set --secret ${CONFIG.apiToken.key} <token>\` or set ${CONFIG.apiToken.env}`,
    );
  }
  // The settings' client, kept between calls (a read per resource would otherwise key the shared clients anew).
  if (current?.settings !== settings || current.client.closed) {
    const { sharedClient } = await import("../client/client");
    current = { settings, client: sharedClient({ baseUrl: settings.url, token: settings.token, ...settings.tuning.client }) };
  }
  return { client: current.client };
}

let current: { settings: Settings; client: ApiClient } | undefined;

// ---------------------------------------------------------------------------------------------
// Values

export { jsonEqual };

/** Deep copy with every `undefined` replaced by `null` (the plugin rejects undefined in outputs). */
export function toOutputs<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clean(v);
    return out;
  }
  return value;
}

/**
 * The inputs a kind sees: only its declared fields (not the plugin's `__provider`, not `adopt`,
 * not the `null` placeholders the class passes for its outputs).
 */
function pickFields<T>(fields: Record<string, FieldSpec>, values: object): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(declaredInputs(fields, values))) {
    if (Object.prototype.hasOwnProperty.call(fields, k) && v !== undefined) out[k] = v;
  }
  return out as T;
}

/**
 * The inputs as a desired state: every field left out is given what its absence means (`null` for
 * a field absence clears, the API's default for one it resets); fields not managed stay out.
 */
export function desiredInputs<I extends object>(fields: { [K in keyof I & string]-?: FieldSpec }, inputs: I): I {
  const out: Record<string, unknown> = { ...(inputs as Record<string, unknown>) };
  for (const [name, spec] of Object.entries(fields) as [string, FieldSpec][]) {
    const value = desiredValue(spec, out[name]);
    if (value !== undefined) out[name] = value;
  }
  return out as I;
}

/** Fields whose desired value differs from the stored outputs, split into in-place and replacing. */
export function declaredChanges<I extends object>(
  fields: { [K in keyof I & string]-?: FieldSpec },
  olds: object,
  news: object,
): { changed: string[]; replaces: string[] } {
  const changed: string[] = [];
  const replaces: string[] = [];
  const o = olds as Record<string, unknown>;
  const n = news as Record<string, unknown>;
  for (const [name, spec] of Object.entries(fields) as [string, FieldSpec][]) {
    const next = desiredValue(spec, n[name]);
    if (next === undefined) continue; // not managed: the server's value is not drift
    const stored = storedValue(spec, o, name);
    if (stored === undefined) continue; // state from before the field
    const norm = spec.normalize ?? ((v: unknown) => v);
    // Unknown in preview is a change, unless the field's compared form does not depend on it (a
    // site space's existingId while its section is updated: never a change, known or not).
    const differs = containsUnknown(next) ? containsUnknown(norm(next)) : !jsonEqual(norm(next), norm(stored));
    if (!differs) continue;
    changed.push(name);
    if (spec.createOnly) replaces.push(name);
  }
  return { changed, replaces };
}

// ---------------------------------------------------------------------------------------------
// check

/** Validates inputs against a kind's schema; preview unknowns are skipped. Reports every failure. */
export function checkInputs(kindName: string, schema: object, fields: object, news: object): dynamic.CheckFailure[] {
  const subject: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(news)) {
    if (k.startsWith("__") || v === undefined) continue;
    // Output placeholders (`null` for keys that are not inputs) come from the class, not the user.
    if (v === null && k !== "adopt" && !Object.prototype.hasOwnProperty.call(fields, k)) continue;
    subject[k] = v;
  }
  const validate = inputValidator(kindName, schema);
  if (validate(subject)) return [];
  // Errors under a preview-unknown value are not errors: the value is checked once it is known.
  const known = (validate.errors ?? []).filter(
    (e) => !valuesAlong(subject, e.instancePath).some((v) => v !== undefined && containsUnknown(v) && typeof v === "string"),
  );
  // Worded by the one phrasebook, as `docsplatform validate` words the same mistake in a stack file.
  const failures: dynamic.CheckFailure[] = [];
  for (const issue of explain(known)) {
    const path = dottedPath(issue.pointer);
    // The property is the input (or the field inside it); a repeated list item names its list.
    failures.push({ property: path.replace(/\[\d+\]$/, ""), reason: `${path || kindName}: ${issue.reason}` });
  }
  return failures;
}

// ---------------------------------------------------------------------------------------------
// Partial creates

/** The input key under which the plugin passes the serialised provider (it must be in stored outputs too). */
const PROVIDER_KEY = "__provider";

/**
 * A create that made (or took over) its object but failed to finish it. It carries what the
 * dynamic-provider plugin turns into `ErrorResourceInitFailed`: `id`, `properties` (the outputs
 * so far) and `reasons`. The engine then keeps the object in state with these init errors instead
 * of losing track of it: the next update diffs against `properties` and finishes the object, and
 * destroy deletes it.
 */
export class PartialCreateError extends Error {
  override readonly name = "PartialCreateError";
  /** The object's ID. */
  readonly id: string;
  /** Its outputs as far as they are known (`null` where unknown), with the plugin's `__provider`. */
  readonly properties: Record<string, unknown>;
  /** Why it is not finished, shown by the engine as the resource's init errors. */
  readonly reasons: string[];

  constructor(kindName: string, id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${kindName} ${id} was created but could not be finished: ${reason} (it is kept in state; the next update finishes it)`, { cause });
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}

/**
 * The partial-create error for `progress`: its outputs cleaned of `undefined`, secret outputs left
 * out (`null`: the next update returns them, so a secret never reaches state unmarked), and the
 * serialised provider the plugin needs to find in stored outputs for later reads and deletes.
 */
function partialCreate(kind: { name: string; secretOutputs?: readonly string[] }, progress: Created<object>, news: object, cause: unknown): PartialCreateError {
  const properties = toOutputs(progress.outs) as Record<string, unknown>;
  for (const k of kind.secretOutputs ?? []) if (k in properties) properties[k] = null;
  const provider = (news as Record<string, unknown>)[PROVIDER_KEY];
  if (provider !== undefined) properties[PROVIDER_KEY] = provider;
  return new PartialCreateError(kind.name, progress.id, properties, cause);
}

// ---------------------------------------------------------------------------------------------
// The provider

/**
 * `op()`, with a refused token told in one line naming the setting and the organisation (the client
 * then sends nothing more, so every other resource of the run fails at once, without repeating it).
 */
async function tellingRefusedToken<T>(values: object | undefined, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    const org = (values as { organizationId?: unknown } | undefined)?.organizationId;
    // The setting that gave the refused token: the environment variable when set, else the config key.
    const tokenFromEnv = (configured ?? fromEnv)?.tokenFrom === CONFIG.apiToken.env;
    const told = explainRefusedToken(e, typeof org === "string" ? org : undefined, tokenFromEnv ? TOKEN_SETTINGS.providerFromEnv : TOKEN_SETTINGS.provider);
    if (told === undefined) throw e;
    throw new Error(told);
  }
}

/**
 * `op()` with the kind's secret values known to the client first — the fields the stack file gives from
 * secret sources, and the secret outputs, in `values` and in what `op` answers — and every error it
 * throws redacted with all the secret values the run knows: a server may echo a request body (secrets
 * included) into its error, and a kind's own message may quote a value.
 */
async function keepingSecrets<T>(kind: SecretFields, values: readonly (object | undefined)[], op: () => Promise<T>): Promise<T> {
  // Not configured: `op` fails with the message saying so.
  const client = await kindContext().then((c) => c.client, () => undefined);
  if (client) registerSecrets(client, kind, values);
  try {
    const result = await op();
    const answered = result as { outs?: object; props?: object } | undefined;
    if (client) registerSecrets(client, kind, [answered?.outs, answered?.props]);
    return result;
  } catch (e) {
    throw redactError(e, client);
  }
}

/** What a kind declares secret: its fields given from secret sources, and its secret outputs. */
interface SecretFields {
  fields: Record<string, FieldSpec>;
  secretOutputs?: readonly string[];
}

/** Registers with `client` every string under the kind's secret fields of `values`. */
function registerSecrets(client: ApiClient, kind: SecretFields, values: readonly (object | undefined)[]): void {
  const names = [...Object.keys(kind.fields).filter((n) => kind.fields[n]!.stack === "secretSources" || kind.fields[n]!.stack === "secretSource"), ...(kind.secretOutputs ?? [])];
  for (const v of values) {
    if (v === undefined || v === null) continue;
    for (const n of names) client.secrets.add(...stringsIn((v as Record<string, unknown>)[n]));
  }
}

/** Every string in a value, at any depth. */
function stringsIn(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (v === null || typeof v !== "object") return [];
  return Object.values(v).flatMap(stringsIn);
}

/** `e` with its message (and a partial create's reasons) redacted with the run's secret values. */
function redactError(e: unknown, client: ApiClient | undefined): unknown {
  if (!client || !(e instanceof Error)) return e;
  e.message = client.secrets.redact(e.message);
  const reasons = (e as { reasons?: unknown }).reasons;
  if (Array.isArray(reasons)) for (let i = 0; i < reasons.length; i++) if (typeof reasons[i] === "string") reasons[i] = client.secrets.redact(reasons[i] as string);
  return e;
}

/** Builds the dynamic provider of a kind: generic check and diff, and its CRUD through the framework's rules below. */
export function makeProvider<I extends object, O extends object>(kind: KindDefinition<I, O>): KindProvider<I, O> {
  const schema = inputSchema(kind);
  const secretFields: SecretFields = { fields: kind.fields, ...(kind.secretOutputs ? { secretOutputs: kind.secretOutputs } : {}) };
  return {
    async configure(req: dynamic.ConfigureRequest): Promise<void> {
      configureConnection(req.config);
    },

    async check(olds: I & AdoptInput, news: I & AdoptInput): Promise<dynamic.CheckResult<I & AdoptInput>> {
      // A preview's reserved input (references.ts): read here, never passed on to diff, create or the state.
      const { inputs, at, adoptionPreview, failures: reserved } = takeReferences(news);
      // The inputs this resource already has: checked when they were written, and sending nothing
      // (diff finds no change), so not checked again. A no-op up loads no validator.
      if (reserved.length === 0 && isDeepStrictEqual(inputs, olds)) return { inputs };
      // Checked as declared (internal fields under their own names); returned as registered, so the state keeps them under `__` names.
      const [declared, before] = [declaredInputs(kind.fields, inputs), declaredInputs(kind.fields, olds ?? {})];
      let failures = [...reserved, ...checkInputs(kind.name, schema, kind.fields, declared)];
      if (failures.length === 0 && kind.refuse) failures = await kind.refuse(pickFields<Partial<I>>(kind.fields, before), pickFields<I>(kind.fields, declared), kindContext);
      // In a preview, the members, spaces and teams a new or changed declaration names, looked up read-only.
      if (failures.length === 0 && at) failures = await tellingRefusedToken(inputs, () => missingReferences(kind.name, kindContext, before, declared, at));
      // A preview of a new declaration with adopt: true says what the up will take over (olds are empty for a new resource).
      if (failures.length === 0 && adoptionPreview && inputs.adopt === true && Object.keys(olds ?? {}).length === 0) await tellAdoption(kind, pickFields<I>(kind.fields, declared));
      return failures.length > 0 ? { inputs, failures } : { inputs };
    },

    async diff(id: string, olds: O, news: I & AdoptInput): Promise<dynamic.DiffResult> {
      const declared = pickFields<I>(kind.fields, news);
      const { changed, replaces } = declaredChanges<I>(kind.fields, olds, declared);
      // After a refresh that found the object edited by hand, the fields and both values in words (drift.ts).
      for (const warning of driftWarnings(kind, id, olds, declared, changed)) await tellEngine("warning", current?.client.secrets.redact(warning) ?? warning);
      return {
        changes: changed.length > 0,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && kind.deleteBeforeReplace === true,
      };
    },

    create: (news: I & AdoptInput): Promise<dynamic.CreateResult<O>> => keepingSecrets(secretFields, [news], () => tellingRefusedToken(news, () => createObject(kind, news))),
    read: (id: string, props?: O): Promise<dynamic.ReadResult<O>> => keepingSecrets(secretFields, [props], () => tellingRefusedToken(props, () => readObject(kind, id, props))),
    update: (id: string, olds: O, news: I & AdoptInput): Promise<dynamic.UpdateResult<O>> =>
      keepingSecrets(secretFields, [olds, news], () => tellingRefusedToken(olds, () => updateObject(kind, id, olds, news))),
    delete: (id: string, olds: O): Promise<void> => keepingSecrets(secretFields, [olds], () => tellingRefusedToken(olds, () => deleteObject(kind, id, olds))),
  };
}

/**
 * In a preview, the live object an adopting create will take over, told to the engine as an info line:
 * `adopt: will take over the live site "Handbook" (id site-1) instead of creating one`, or that none
 * is found and one will be created; a lookup that fails (several objects with the key, no API) is a
 * warning with its reason. Read-only; never a failure of the check (the up reports what goes wrong).
 */
async function tellAdoption<I extends object, O extends object>(kind: KindDefinition<I, O>, inputs: I): Promise<void> {
  const field = kind.naturalKey?.field;
  if (!kind.adopt || field === undefined) return;
  const values = inputs as Record<string, unknown>;
  const value = values[field];
  // A key or a parent (siteId, sectionId, …) made or taken over in this run is unknown in a preview: nothing to look up yet.
  if (containsUnknown(value) || Object.entries(values).some(([k, v]) => /Id$/.test(k) && containsUnknown(v))) return;
  const compound = kind.naturalKey?.compound?.of(values);
  const what = `${kind.noun.one} ${compound !== undefined ? JSON.stringify(compound) : typeof value === "string" ? JSON.stringify(value) : `with ${field} ${JSON.stringify(value)}`}`;
  let message: string;
  let severity: "info" | "warning" = "info";
  try {
    const found = await kind.adopt(await kindContext(), inputs);
    message = found ? `adopt: will take over the live ${what} (id ${found.id}) instead of creating one` : `adopt: no live ${what} to take over: it will be created`;
  } catch (e) {
    if (isTokenRefused(e)) throw e;
    severity = "warning";
    message = `adopt: the live ${what} could not be looked up: ${e instanceof Error ? e.message : String(e)}`;
  }
  await tellEngine(severity, message);
}

/**
 * Create: adopt when asked (through the list lag), else the kind's create; a create whose outcome is
 * unknown is resolved by looking for what it made; a failure once the object exists is a partial create.
 */
async function createObject<I extends object, O extends object>(kind: KindDefinition<I, O>, news: I & AdoptInput): Promise<dynamic.CreateResult<O>> {
  // The object once it exists, with its outputs so far: a later failure is a partial create.
  let progress: Created<O> | undefined;
  const ctx: KindContext = {
    client: (await kindContext()).client,
    created: (id, outs) => {
      progress = { id, outs: outs as O };
    },
  };
  const inputs = pickFields<I>(kind.fields, news);
  const kept = (outs: O): O => toOutputs(storedOutputs(kind, outs, (name) => (inputs as Record<string, unknown>)[name] !== undefined));
  // Objects other resources of this stack hold: never taken over by this create (classes/held.ts).
  const heldIds = (news as Record<string, unknown>)[HELD_INPUT];
  const heldElsewhere = new Set(Array.isArray(heldIds) ? heldIds.filter((x): x is string => typeof x === "string") : []);
  const free = (found: Created<O> | undefined): Created<O> | undefined => (found !== undefined && heldElsewhere.has(found.id) ? undefined : found);
  try {
    if (news.adopt === true && kind.adopt) {
      // Through the list lag: an object created a moment ago may not be listed yet.
      const found = free(await throughLag(() => kind.adopt!(ctx, inputs)));
      if (found) {
        const settled = await settle(kind, ctx, found, inputs, "adopting existing");
        return { id: settled.id, outs: kept(settled.outs) };
      }
    }
    // An earlier run may have made this object and died before the engine recorded it.
    const earlier = news.adopt === true ? undefined : free(await madeEarlier(kind, ctx, inputs));
    if (earlier) {
      const settled = await settle(kind, ctx, earlier, inputs, "taking over what an earlier run made,");
      createdHere.add(settled.id);
      return { id: settled.id, outs: kept(settled.outs) };
    }
    let created: Created<O>;
    try {
      created = await kind.create(ctx, inputs);
      // Only an object of its own: a kind that configures one (a site's look, its visitor auth, …) answers
      // with that object's ID, and the site it configures is not one this process created.
      if (makesObjects(kind)) createdHere.add(created.id);
    } catch (e) {
      if (progress === undefined && isConflict(e)) throw await enforcedConflict(kind, ctx, inputs, e);
      // An object known to exist is not looked up again: it is reported as a partial create below.
      if (progress !== undefined || !isOutcomeUnknown(e) || !(kind.recover ?? kind.adopt)) throw e;
      // The create may have taken effect: find what it made rather than creating a duplicate.
      // Through the list lag: "not listed" right after the write is not yet "not made".
      const found = free(await throughLag(() => (kind.recover ? kind.recover(ctx, inputs) : kind.adopt!(ctx, inputs))));
      if (!found) throw e;
      created = await settle(kind, ctx, found, inputs, "resolving an uncertain create found");
    }
    return { id: created.id, outs: kept(created.outs) };
  } catch (e) {
    if (progress === undefined) throw e;
    throw partialCreate(kind, { id: progress.id, outs: kept(progress.outs) }, news, e);
  }
}

/** IDs of the objects this process created: their children cannot be left over from an earlier run. */
const createdHere = new Set<string>();

/**
 * The object an earlier run created for these inputs and never recorded (the plugin or the engine
 * killed between the platform's commit and the engine's record, with a pending create the CLI keeps
 * or none): the one live object with the declared natural key. Where the API lets two objects share
 * the key (a site's title, a share link's name, …), that one is taken over unless it differs in what
 * cannot change in place; where the API refuses a second object (`enforced`) nothing can be made
 * twice and the create's conflict is told with what to do (`enforcedConflict`). A section or site
 * space (unique path per level) is taken over as a finished create leaves it (every declared field
 * equal), or as a create that died between its POST and its PATCH leaves it (`asPosted`): at the
 * declared level, the declared title (a section) or space (a site space), nothing the PATCH sets
 * other than the declared values, its path still the one the platform derived from the title, and
 * the declared path not held by another object there. Not looked for under a parent this process
 * created (it holds nothing of an earlier run), nor when several match.
 */
async function madeEarlier<I extends object, O extends object>(kind: KindDefinition<I, O>, ctx: KindContext, inputs: I): Promise<Created<O> | undefined> {
  const key = kind.naturalKey;
  // A kind that makes nothing new (see makesObjects): its create converges.
  if (!kind.adopt || key === undefined || !makesObjects(kind) || key.enforced !== undefined) return undefined;
  const { siteId, sectionId } = inputs as { siteId?: unknown; sectionId?: unknown };
  if ([siteId, sectionId].some((parent) => typeof parent === "string" && createdHere.has(parent))) return undefined;
  const declaredKey = (inputs as Record<string, unknown>)[key.field];
  let found: Created<O> | undefined;
  try {
    found = await kind.adopt(ctx, inputs);
    // The declared key is held by none: the object a POST left before the PATCH setting the key.
    if (found === undefined && kind.asPosted && declaredKey !== undefined) found = await kind.adopt(ctx, { ...inputs, [key.field]: undefined });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    return undefined; // several match: none of them is known to be this one
  }
  // One this process made belongs to another entry with the same key (two help-desk connections of one token-only connector).
  if (found === undefined || createdHere.has(found.id)) return undefined;
  const { changed, replaces } = declaredChanges<I>(kind.fields, found.outs, inputs);
  if (replaces.length > 0) return undefined;
  if (key.scope === "level" && changed.length > 0 && !kind.asPosted?.(found.outs, inputs)) return undefined;
  return found;
}

/**
 * A create the API refused because an object with the same key exists (`enforced`): never taken over
 * on its own, since it may be one a person made and the file would then manage and could destroy it.
 * Told once, naming the object and its ID, with the two ways on: take it over on purpose with
 * `adopt: true` for one `up` (or import the pending create an interrupted run left), or declare
 * another key. Other conflicts are the API's error as it came.
 */
async function enforcedConflict<I extends object, O extends object>(kind: KindDefinition<I, O>, ctx: KindContext, inputs: I, e: unknown): Promise<unknown> {
  const key = kind.naturalKey;
  if (key?.enforced === undefined || /Id$/.test(key.field)) return e;
  const value = JSON.stringify((inputs as Record<string, unknown>)[key.field]);
  // One read, on this failure only, for the ID an import needs.
  const existing = await Promise.resolve(kind.adopt?.(ctx, inputs)).catch(() => undefined);
  const which = existing ? ` (id ${existing.id})` : "";
  return new Error(
    `${kind.name} ${key.field} ${value}: one already exists${which}, and ${key.enforced}, so none was made. ` +
      `If an earlier \`up\` made it and was killed before recording it, or it is to be managed here, declare \`adopt: true\` on this entry for one \`up\` ` +
      `(or \`pulumi refresh --import-pending-creates <urn> --import-pending-creates ${existing?.id ?? "<id>"}\` when the state keeps the interrupted create: the flag takes the URN and the ID in turn); otherwise declare another ${key.field}. ` +
      `(${e instanceof Error ? e.message : String(e)})`,
  );
}

/** An adopted or found object brought to what the user declared; fields that cannot change in place must already match. */
async function settle<I extends object, O extends object>(kind: KindDefinition<I, O>, ctx: KindContext, found: Created<O>, inputs: I, how: string): Promise<Created<O>> {
  const { changed, replaces } = declaredChanges<I>(kind.fields, found.outs, inputs);
  if (replaces.length > 0) {
    const live = found.outs as Record<string, unknown>;
    const declared = inputs as Record<string, unknown>;
    const detail = replaces
      .map((f) => `${f} is ${JSON.stringify(live[f] ?? null)} but ${JSON.stringify(declared[f])} is declared`)
      .join("; ");
    throw new Error(
      `${kind.name}: ${how} ${found.id}, but it differs in fields that cannot change in place: ${detail}`,
    );
  }
  if (changed.length === 0) return found;
  // From here on the object is held: a failed update leaves it in state, to be finished next time.
  ctx.created?.(found.id, found.outs);
  return { id: found.id, outs: await kind.update(ctx, found.id, found.outs, desiredInputs(kind.fields, inputs), changed) };
}

/** Read: the live object, or an empty ID when it is gone. */
async function readObject<I extends object, O extends object>(kind: KindDefinition<I, O>, id: string, props?: O): Promise<dynamic.ReadResult<O>> {
  const ctx = await kindContext();
  const live = await kind.read(ctx, id, expandedOutputs(kind, (props ?? {}) as O));
  if (live === undefined) return { id: "", props: {} as O };
  // A field left unmanaged is kept where the state kept it: where the file declared it (there is no other record of that in a read).
  const outs = toOutputs(storedOutputs(kind, live, (name) => props !== undefined && Object.prototype.hasOwnProperty.call(props, name)));
  // A refresh: the fields that differ from the stored outputs, for the diff that follows to name (drift.ts).
  rememberDrift(kind, id, props, outs);
  return { id, props: outs };
}

/** Update: the declared fields whose value differs, in one call of the kind (none: no call). */
async function updateObject<I extends object, O extends object>(kind: KindDefinition<I, O>, id: string, olds: O, news: I & AdoptInput): Promise<dynamic.UpdateResult<O>> {
  const ctx = await kindContext();
  const inputs = pickFields<I>(kind.fields, news);
  const { changed } = declaredChanges<I>(kind.fields, olds, inputs);
  if (changed.length === 0) return { outs: olds };
  const outs = await kind.update(ctx, id, expandedOutputs(kind, olds), desiredInputs(kind.fields, inputs), changed);
  return { outs: toOutputs(storedOutputs(kind, outs, (name) => (inputs as Record<string, unknown>)[name] !== undefined)) };
}

/** Delete: a 404 counts as done. */
async function deleteObject<I extends object, O extends object>(kind: KindDefinition<I, O>, id: string, olds: O): Promise<void> {
  const ctx = await kindContext();
  try {
    await kind.delete(ctx, id, expandedOutputs(kind, olds));
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
