/**
 * What the stack holds, so that finding a live object by its natural key never takes one that another
 * resource of the same stack holds.
 *
 * A create may take over a live object found by its natural key: one an earlier run made and died before
 * recording, one a create whose answer was lost made, or one `adopt: true` asks for. The provider sees one
 * resource at a time and the engine does not tell it what the state holds, so on its own it cannot tell
 * such an object from one that another resource of the stack holds: a key renamed without `previousKeys`
 * would take over the live site its old resource holds, and the old resource's delete would then delete it.
 *
 * The program knows the whole file; the stack's last outputs know what the state held. The component
 * exports the IDs its resources hold as a stack output ({@link HELD_OUTPUT}, a secret so that `up` prints
 * one line of it), reads the last run's outputs of its own stack, and gives every resource
 * that the last run did not hold the IDs held by its siblings of the same kind (same parent, as its name
 * says): the provider never takes one of those over. A resource the last run held never creates, and is
 * given nothing. The same reading says, in the preview, what a key that left the file will delete.
 *
 * A program of one's own that declares a `DocsPlatform` exports `docs.held` as `docsplatformHeld` to have
 * the same protection (the ready-made program does).
 */
import * as pulumi from "@pulumi/pulumi";

/** The stack output the component's held IDs are exported as. */
export const HELD_OUTPUT = "docsplatformHeld";

export { HELD_INPUT } from "../resources/kind";

/** The engine's built-in function that reads a stack's outputs (what a stack reference reads). */
const READ_STACK_OUTPUTS = "pulumi:pulumi:readStackOutputs";

/** Kind name → resource name → ID of the object it holds. */
export type HeldMap = Record<string, Record<string, string>>;

/** One resource of a kind whose create may find a live object by its natural key. */
interface Declared {
  kind: string;
  name: string;
  /** Its former names (`previousKeys`), which the engine takes as the same resource. */
  aliases: string[];
  id: pulumi.Output<string>;
}

/** The parent part of a resource name (`docs/handbook/guides` → `docs/handbook`). */
const parentOf = (name: string): string => name.slice(0, Math.max(0, name.lastIndexOf("/")));

/** The key a resource name ends with (`docs/handbook/guides` → `guides`). */
const keyOf = (name: string): string => name.slice(name.lastIndexOf("/") + 1);

/** Whether the last run held a resource of `kind` under its name or one of its former names. */
const heldBefore = (last: HeldMap, kind: string, name: string, aliases: readonly string[]): boolean =>
  [name, ...aliases].some((n) => last[kind]?.[n] !== undefined);

/** The held IDs of a run of the component: the last run's (read) and this run's (declared). */
export class HeldRegistry {
  private readonly declared: Declared[] = [];
  private last: Promise<HeldMap> | undefined;

  /**
   * Reads the last run's held IDs (once; nothing held when the stack has none): the engine's built-in
   * `readStackOutputs` of this same stack, the read a stack reference makes, without a resource in the
   * state (whose outputs a refresh would then find changed after every `up` that changed the stack's).
   */
  start(): void {
    if (this.last !== undefined) return;
    let stack: string;
    try {
      stack = `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
    } catch {
      return; // not run by an engine (a program loaded on its own): nothing to read, nothing to protect
    }
    this.last = pulumi.runtime.invoke(READ_STACK_OUTPUTS, { name: stack }).then(
      (r: { outputs?: Record<string, unknown> } | undefined) => asHeldMap(r?.outputs?.[HELD_OUTPUT]),
      () => ({}),
    );
  }

  /**
   * The IDs a new resource must not take over: those its siblings of the same kind held at the end of
   * the last run. Undefined (no input) when the last run held this resource (under its name or a former
   * one), and when no reading was started (the classes used without the component).
   */
  siblingsHeld(kind: string, name: string, aliases: readonly string[]): pulumi.Output<string[] | undefined> | undefined {
    if (this.last === undefined) return undefined;
    const parent = parentOf(name);
    return pulumi.output(
      this.last.then((map) => {
        if (heldBefore(map, kind, name, aliases)) return undefined;
        return Object.entries(map[kind] ?? {})
          .filter(([n]) => parentOf(n) === parent)
          .map(([, id]) => id)
          .sort();
      }),
    );
  }

  /** Records a declared resource (its name, former names and ID). */
  declare(kind: string, name: string, aliases: readonly string[], id: pulumi.Output<string>): void {
    this.declared.push({ kind, name, aliases: [...aliases], id });
  }

  /** The IDs this run's resources hold, to export as {@link HELD_OUTPUT} (a secret). */
  output(): pulumi.Output<HeldMap> {
    const declared = [...this.declared];
    return pulumi.secret(
      pulumi.all(declared.map((d) => d.id)).apply((ids) => {
        const out: HeldMap = {};
        declared.forEach((d, i) => ((out[d.kind] ??= {})[d.name] = ids[i]!));
        return out;
      }),
    );
  }

  /**
   * In words, what each object the last run held and this run no longer declares becomes: deleted by
   * `up`, with what it holds; when a new entry of the same kind and parent appeared, as a rename that
   * replaces the live object unless the new entry keeps the old key in `previousKeys`.
   */
  async departures(noun: (kind: string) => { one: string; many: string }): Promise<string[]> {
    const describe = (kind: string): string => noun(kind).one;
    const last = await (this.last ?? Promise.resolve({} as HeldMap));
    const declaredNames = new Set(this.declared.flatMap((d) => [`${d.kind} ${d.name}`, ...d.aliases.map((a) => `${d.kind} ${a}`)]));
    const departing = Object.entries(last).flatMap(([kind, names]) => Object.keys(names).filter((name) => !declaredNames.has(`${kind} ${name}`)));
    // What a departing object holds is told with it, not again on its own.
    const within = (name: string): boolean => departing.some((d) => name.startsWith(`${d}/`));
    const out: string[] = [];
    for (const [kind, names] of Object.entries(last)) {
      for (const [name, id] of Object.entries(names)) {
        if (declaredNames.has(`${kind} ${name}`) || within(name)) continue;
        const key = keyOf(name);
        const parent = parentOf(name);
        const held = heldUnder(last, name, noun);
        const holds = held.length > 0 ? `, with ${held.join(", ")}` : "";
        const newcomers = this.declared.filter((d) => d.kind === kind && parentOf(d.name) === parent && !heldBefore(last, kind, d.name, d.aliases));
        if (newcomers.length === 1) {
          const to = keyOf(newcomers[0]!.name);
          out.push(
            `renaming ${describe(kind)} ${key} to ${to} replaces the live ${describe(kind)} (id ${id})${holds}: \`up\` makes a new one and deletes this one, and what readers reach by its URLs goes with it. To keep it, give ${to} \`previousKeys: [${key}]\``,
          );
        } else {
          out.push(`${describe(kind)} ${key} is no longer in the file: \`up\` deletes the live ${describe(kind)} (id ${id})${holds}. If another entry is this one renamed, give it \`previousKeys: [${key}]\` to keep the live object`);
        }
      }
    }
    return out.sort();
  }
}

/** What the last run held under `name` (a site's share links, sections, …), counted by kind. */
function heldUnder(last: HeldMap, name: string, noun: (kind: string) => { one: string; many: string }): string[] {
  const counts: string[] = [];
  for (const [kind, names] of Object.entries(last)) {
    const n = Object.keys(names).filter((child) => child.startsWith(`${name}/`)).length;
    if (n > 0) counts.push(`its ${noun(kind).many} (${n})`);
  }
  return counts.sort();
}

/** The held map a stack output holds; anything else (no output yet, another shape) is nothing held. */
function asHeldMap(value: unknown): HeldMap {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const out: HeldMap = {};
  for (const [kind, names] of Object.entries(value as Record<string, unknown>)) {
    if (names === null || typeof names !== "object" || Array.isArray(names)) continue;
    for (const [name, id] of Object.entries(names as Record<string, unknown>)) if (typeof id === "string") (out[kind] ??= {})[name] = id;
  }
  return out;
}

/** The registry of this program (one component per program is the ready-made case; several share it). */
export const held = new HeldRegistry();
