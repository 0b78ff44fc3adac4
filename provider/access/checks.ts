/** The access checks a schema cannot express: grants, visitor authentication, installations. */
import { ACCESS_LISTS, subjectKey } from "./model";

/** A finding of the access checks, at a JSON pointer of the file. */
export interface AccessIssue {
  pointer: string;
  reason: string;
  warning?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const show = (v: unknown): string => JSON.stringify(v);

/** The keys of a top-level list. */
function keysOf(stack: Record<string, unknown>, property: string): Set<string> {
  return new Set(list(stack[property]).flatMap((e) => (isObject(e) && typeof e.key === "string" ? [e.key] : [])));
}

/**
 * The access checks: team keys in grants name a team of the file; a team or user at most once per
 * object; a visitor-auth block on a site whose visibility is not `visitor-auth` (a warning), and none on a
 * site whose visibility is (refused: see signInMissing); installed
 * sites and spaces name sites and spaces of the file; the file's own integration installed by its name, not
 * its key; an integration installed once.
 */
export function accessIssues(stack: unknown): AccessIssue[] {
  const issues: AccessIssue[] = [];
  if (!isObject(stack)) return issues;
  const teams = keysOf(stack, "teams");
  for (const { property, on } of ACCESS_LISTS) {
    list(stack[property]).forEach((entry, i) => {
      if (!isObject(entry)) return;
      const at = `/${property}/${i}`;
      const seen = new Map<string, number>();
      list(entry.permissions).forEach((g, j) => {
        if (!isObject(g)) return;
        if (typeof g.team === "string" && !teams.has(g.team)) {
          issues.push({ pointer: `${at}/permissions/${j}/team`, reason: `names no team of this file: ${show(g.team)} (a key of \`teams\`, or {id: ...} for a team outside the file)` });
        }
        const key = subjectKey(g);
        if (key === undefined) return;
        const first = seen.get(key);
        if (first !== undefined) issues.push({ pointer: `${at}/permissions/${j}`, reason: `repeats permissions[${first}] of this ${on}: each team and user is granted one role` });
        else seen.set(key, j);
      });
      if (on === "site" && entry.visitorAuth !== undefined && entry.visibility !== "visitor-auth") {
        issues.push({ pointer: `${at}/visitorAuth`, reason: `visitor authentication applies to a site whose visibility is visitor-auth; this site's is ${show(entry.visibility ?? "public")}`, warning: true });
      }
      if (on === "site" && entry.visibility === "visitor-auth" && entry.visitorAuth === undefined) issues.push(signInMissing(at, entry.key));
    });
  }
  const sites = keysOf(stack, "sites");
  const spaces = keysOf(stack, "spaces");
  const integrations = list(stack.integrations).filter(isObject);
  list(stack.installations).forEach((entry, i) => {
    if (!isObject(entry)) return;
    // An integration is installed by its name: the file's own integration written by its key names none.
    const byKey = integrations.find((g) => g.key === entry.integration && g.name !== entry.integration);
    if (byKey !== undefined && typeof byKey.name === "string") {
      issues.push({ pointer: `/installations/${i}/integration`, reason: `${show(entry.integration)} is the key of an integration of this file; an installation names an integration by its name: ${show(byKey.name)}` });
    }
    for (const [field, keys] of [["sites", sites], ["spaces", spaces]] as const) {
      list(entry[field]).forEach((ref, j) => {
        if (typeof ref === "string" && !keys.has(ref)) {
          issues.push({ pointer: `/installations/${i}/${field}/${j}`, reason: `names no ${field.slice(0, -1)} of this file: ${show(ref)} (a key of \`${field}\`, or {id: ...})` });
        }
      });
    }
  });
  return issues;
}

/**
 * A visitor-auth site lets in only visitors who bring a token its sign-in backend made: with no
 * `visitorAuth` block nothing in the file sets that backend up (a new site has only the platform's
 * defaults: a custom backend nobody was given the key of, no sign-in page), so readers are locked out.
 * Refused rather than warned: the platform accepts the visibility and the site goes dark without a word.
 */
function signInMissing(at: string, key: unknown): AccessIssue {
  const site = typeof key === "string" ? `site ${key}` : "this site";
  return {
    pointer: `${at}/visibility`,
    reason:
      `${site} is visitor-auth but declares no visitorAuth block: no reader could sign in. Add one — ` +
      "`visitorAuth: { fallbackURL: <your sign-in page> }` for your own backend (it signs visitors' tokens with the site's private key, a secret output), " +
      "or `visitorAuth: { backend: integration }` with an installation enabled on the site — or choose another visibility",
  };
}
