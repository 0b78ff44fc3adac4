/**
 * Adaptive-content conditions, read offline: the expressions sections and site spaces are shown on
 * (`visitor.claims.beta == true`), parsed as the platform evaluates them — a JavaScript expression over
 * the visitor — so a mistake of meaning is found by `docsplatform validate` and `pulumi preview`
 * instead of by readers. What is read:
 *
 * - literals (`true`, `false`, `null`, numbers, strings in '…' or "…"), names, member access (`a.b`,
 *   `a["b"]`), calls (`visitor.claims.roles.includes("admin")`), parentheses;
 * - unary `!` and `-`; binary `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `??`, `+`, `-`,
 *   `*`, `/`, `%`, `in`; the conditional `a ? b : c`.
 *
 * A syntax error names the column and what was expected. Every `visitor.claims.<name>` (and
 * `visitor.claims.unsigned.<name>`) is collected with its column, so the checks can name a claim the
 * site's adaptive schema does not declare.
 */

/** A claim a condition reads: `beta`, or `unsigned.prefersApiFirst`; `column` is 1-based in the condition. */
export interface ClaimReference {
  claim: string;
  column: number;
}

/** What parsing a condition found: its claims, or the first syntax error. */
export type ParsedCondition = { ok: true; claims: ClaimReference[] } | { ok: false; column: number; message: string };

type Token =
  | { kind: "name"; text: string; at: number }
  | { kind: "number" | "string"; text: string; at: number }
  | { kind: "op"; text: string; at: number }
  | { kind: "end"; text: ""; at: number };

const OPERATORS = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ".", ",", "?", ":"];

/** Binding power of each binary operator (higher binds tighter). */
const BINARY: Record<string, number> = {
  "??": 1, "||": 2, "&&": 3,
  "==": 4, "!=": 4, "===": 4, "!==": 4,
  "<": 5, "<=": 5, ">": 5, ">=": 5, in: 5,
  "+": 6, "-": 6, "*": 7, "/": 7, "%": 7,
};

class SyntaxProblem extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (/[A-Za-z_$]/.test(c)) {
      while (i < text.length && /[\w$]/.test(text[i]!)) i++;
      tokens.push({ kind: "name", text: text.slice(start, i), at: start });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < text.length && /[0-9.]/.test(text[i]!)) i++;
      const n = text.slice(start, i);
      if (!/^\d+(\.\d+)?$/.test(n)) throw new SyntaxProblem(start + 1, `${JSON.stringify(n)} is not a number`);
      tokens.push({ kind: "number", text: n, at: start });
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
      if (i >= text.length) throw new SyntaxProblem(start + 1, "a string that is never closed");
      i++;
      tokens.push({ kind: "string", text: text.slice(start + 1, i - 1), at: start });
      continue;
    }
    if (c === "=" && !text.startsWith("==", i)) throw new SyntaxProblem(start + 1, "a single '=' (compare with '==')");
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op === undefined) throw new SyntaxProblem(start + 1, `unexpected character ${JSON.stringify(c)}`);
    tokens.push({ kind: "op", text: op, at: start });
    i += op.length;
  }
  tokens.push({ kind: "end", text: "", at: text.length });
  return tokens;
}

/** A member path as far as it is static (`visitor.claims.beta`), with where its last segment starts. */
type Path = { segments: string[]; columns: number[] } | undefined;

class Parser {
  private i = 0;
  readonly claims: ClaimReference[] = [];

  constructor(private readonly tokens: Token[]) {}

  private get next(): Token {
    return this.tokens[this.i]!;
  }

  private describe(t: Token): string {
    return t.kind === "end" ? "the end of the condition" : `'${t.text}'`;
  }

  private expect(op: string): void {
    const t = this.next;
    if (t.kind !== "op" || t.text !== op) throw new SyntaxProblem(t.at + 1, `expected '${op}' but found ${this.describe(t)}`);
    this.i++;
  }

  whole(): void {
    this.expression(0);
    const t = this.next;
    if (t.kind !== "end") throw new SyntaxProblem(t.at + 1, `expected an operator or the end of the condition but found ${this.describe(t)}`);
  }

  private expression(minPower: number): void {
    this.unary();
    for (;;) {
      const t = this.next;
      if (t.kind === "op" && t.text === "?" && minPower === 0) {
        this.i++;
        this.expression(0);
        this.expect(":");
        this.expression(0);
        continue;
      }
      const power = (t.kind === "op" || (t.kind === "name" && t.text === "in")) ? BINARY[t.text] : undefined;
      if (power === undefined || power <= minPower) return;
      this.i++;
      this.expression(power);
    }
  }

  private unary(): void {
    const t = this.next;
    if (t.kind === "op" && (t.text === "!" || t.text === "-")) {
      this.i++;
      this.unary();
      return;
    }
    this.postfix();
  }

  private postfix(): void {
    let path = this.primary();
    for (;;) {
      const t = this.next;
      if (t.kind === "op" && t.text === ".") {
        this.i++;
        const name = this.next;
        if (name.kind !== "name") throw new SyntaxProblem(name.at + 1, `expected a name after '.' but found ${this.describe(name)}`);
        this.i++;
        path = path && { segments: [...path.segments, name.text], columns: [...path.columns, name.at + 1] };
      } else if (t.kind === "op" && t.text === "[") {
        this.i++;
        const key = this.next;
        const literal = key.kind === "string" && this.tokens[this.i + 1]?.text === "]";
        this.expression(0);
        this.expect("]");
        path = path && literal ? { segments: [...path.segments, key.text], columns: [...path.columns, key.at + 1] } : undefined;
      } else if (t.kind === "op" && t.text === "(") {
        this.record(path, true);
        path = undefined;
        this.i++;
        if (!(this.next.kind === "op" && this.next.text === ")")) {
          this.expression(0);
          while (this.next.kind === "op" && this.next.text === ",") {
            this.i++;
            this.expression(0);
          }
        }
        this.expect(")");
      } else {
        this.record(path, false);
        return;
      }
    }
  }

  /** Records the claim a member path names; a called path's last segment is a method of the claim. */
  private record(path: Path, called: boolean): void {
    if (!path || path.segments[0] !== "visitor" || path.segments[1] !== "claims") return;
    const rest = called ? path.segments.slice(2, -1) : path.segments.slice(2);
    const columns = path.columns.slice(2);
    if (rest.length === 0) return;
    if (rest[0] === "unsigned") {
      if (rest.length >= 2) this.claims.push({ claim: `unsigned.${rest[1]}`, column: columns[1]! });
      return;
    }
    this.claims.push({ claim: rest[0]!, column: columns[0]! });
  }

  private primary(): Path {
    const t = this.next;
    if (t.kind === "name" && t.text !== "in") {
      this.i++;
      return ["true", "false", "null", "undefined"].includes(t.text) ? undefined : { segments: [t.text], columns: [t.at + 1] };
    }
    if (t.kind === "number" || t.kind === "string") {
      this.i++;
      return undefined;
    }
    if (t.kind === "op" && t.text === "(") {
      this.i++;
      this.expression(0);
      this.expect(")");
      return undefined;
    }
    throw new SyntaxProblem(t.at + 1, `expected a value (a claim such as visitor.claims.beta, true, a number or a string) but found ${this.describe(t)}`);
  }
}

/** Parses one condition. */
export function parseCondition(text: string): ParsedCondition {
  try {
    const parser = new Parser(tokenize(text));
    parser.whole();
    return { ok: true, claims: parser.claims };
  } catch (e) {
    if (e instanceof SyntaxProblem) return { ok: false, column: e.column, message: e.message };
    throw e;
  }
}

/** The claims an adaptive schema declares, dotted (`beta`, `unsigned.prefersApiFirst`). */
export function declaredClaims(schema: unknown): Set<string> {
  const out = new Set<string>();
  const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  for (const [name, claim] of Object.entries(props)) {
    if (name === "unsigned" && isRecord(claim) && isRecord(claim.properties)) {
      for (const u of Object.keys(claim.properties)) out.add(`unsigned.${u}`);
    } else out.add(name);
  }
  return out;
}

/** One mistake in one condition: its message, already naming the claim or the column. */
export interface ConditionIssue {
  /** JSON pointer of the condition. */
  pointer: string;
  reason: string;
  /** Does not make the file invalid (a condition on a site that leaves adaptive content out of the file). */
  warning?: boolean;
}

/**
 * The mistakes of a site's conditions: syntax errors; conditions on a site whose adaptive content is
 * off (`enabled: false`; a warning when `adaptiveContent` is left out, which resets it to disabled); claims its declared
 * adaptive schema does not declare (not checked when the file declares no schema: the live one is
 * then not managed and unknown offline).
 */
export function conditionIssues(conditions: readonly { pointer: string; text: string }[], site: { adaptiveContent?: unknown; adaptiveSchema?: unknown }): ConditionIssue[] {
  const issues: ConditionIssue[] = [];
  const enabled = isRecord(site.adaptiveContent) && site.adaptiveContent.enabled === true;
  const declared = site.adaptiveSchema === undefined ? undefined : declaredClaims(site.adaptiveSchema);
  for (const { pointer, text } of conditions) {
    const parsed = parseCondition(text);
    if (!parsed.ok) {
      issues.push({ pointer, reason: `condition has a syntax error at column ${parsed.column}: ${parsed.message}` });
      continue;
    }
    if (!enabled) {
      const off = site.adaptiveContent !== undefined;
      issues.push({
        pointer,
        reason: off
          ? "the site's adaptive content is off (adaptiveContent.enabled: false), so this condition never takes effect; enable it or remove the condition"
          : "the site leaves adaptiveContent out (reset to disabled), so this condition never takes effect; declare adaptiveContent: {enabled: true}",
        ...(off ? {} : { warning: true }),
      });
      continue;
    }
    if (declared === undefined) continue;
    for (const ref of parsed.claims) {
      if (declared.has(ref.claim)) continue;
      const known = declared.size === 0 ? "it declares none" : `it declares ${[...declared].sort().join(", ")}`;
      issues.push({ pointer, reason: `condition reads claim '${ref.claim}' (column ${ref.column}), which the site's adaptiveSchema does not declare (${known})` });
    }
  }
  return issues;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
