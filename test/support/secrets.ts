import { inspect } from "node:util";
import { SECRET_SIG, SIG_KEY } from "../harness/values";

/**
 * Test support for the token scan: collects every debug line and every error a test suite
 * produces, and renders them every way a user could see them.
 */
export class SecretRecorder {
  readonly lines: string[] = [];
  readonly errors: unknown[] = [];
  /** Pass as `ClientOptions.logger`. */
  readonly logger = (line: string): void => {
    this.lines.push(line);
  };

  /** Awaits `p`, records and returns its rejection (or throws if it resolved). */
  async failure(p: Promise<unknown>): Promise<unknown> {
    try {
      await p;
    } catch (e) {
      this.errors.push(e);
      return e;
    }
    throw new Error("expected the call to fail");
  }

  /** Every recorded line and every error as message, stack, JSON and `util.inspect` (with causes). */
  texts(): string[] {
    const out = [...this.lines];
    for (const e of this.errors) {
      if (e instanceof Error) {
        out.push(e.message, e.stack ?? "");
      }
      out.push(JSON.stringify(e) ?? "", inspect(e, { depth: 6, showHidden: true }), String(e));
    }
    return out;
  }

  /** How many times `secret` occurs across `texts()`. */
  occurrences(secret: string): number {
    let n = 0;
    for (const t of this.texts()) n += t.split(secret).length - 1;
    return n;
  }
}


/**
 * Where any of `needles` occurs in a state document (parsed JSON) outside a secret: the path of each
 * string holding one. A secret is an object whose signature key marks it as one; everything under it
 * is secret.
 */
export function exposedInState(doc: unknown, needles: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown, where: string, secret: boolean): void => {
    if (typeof v === "string") {
      if (!secret && needles.some((n) => v.includes(n))) out.push(where);
      return;
    }
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${where}[${i}]`, secret));
    if (v !== null && typeof v === "object") {
      const rec = v as Record<string, unknown>;
      const s = secret || rec[SIG_KEY] === SECRET_SIG;
      for (const [k, x] of Object.entries(rec)) walk(x, `${where}.${k}`, s);
    }
  };
  walk(doc, "state", false);
  return out;
}
