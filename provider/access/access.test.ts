import { describe, expect, it } from "vitest";
import { accessIssues } from "./checks";
import { callerTeamKeys, type StackGrant } from "./model";
import { accessSummary, grantChangeText, grantChanges } from "./view";

const titles: Record<string, string> = { writers: "Writers", reviewers: "Reviewers" };
const title = (k: string) => titles[k];

describe("access in the stack file", () => {
  it("checks team keys, repeated subjects, installed sites and spaces, and warns about visitor auth on another visibility", () => {
    const issues = accessIssues({
      teams: [{ key: "writers" }],
      sites: [{ key: "docs", visibility: "public", visitorAuth: { rotation: 1 }, permissions: [{ team: "nobody", role: "read" }, { user: "A@x.test", role: "read" }, { user: "a@x.test", role: "edit" }] }],
      spaces: [{ key: "api", permissions: [{ team: "writers", role: "edit" }, { team: { id: "t1" }, role: "read" }] }],
      collections: [{ key: "c", permissions: [{ team: "writers", role: "admin" }, { team: "writers", role: "read" }] }],
      installations: [{ key: "i", integration: "x", sites: ["docs", "nope"], spaces: ["api", { id: "s1" }, "gone"] }],
    });
    expect(issues).toEqual([
      { pointer: "/sites/0/permissions/0/team", reason: 'names no team of this file: "nobody" (a key of `teams`, or {id: ...} for a team outside the file)' },
      { pointer: "/sites/0/permissions/2", reason: "repeats permissions[1] of this site: each team and user is granted one role" },
      { pointer: "/sites/0/visitorAuth", reason: 'visitor authentication applies to a site whose visibility is visitor-auth; this site\'s is "public"', warning: true },
      { pointer: "/collections/0/permissions/1", reason: "repeats permissions[0] of this collection: each team and user is granted one role" },
      { pointer: "/installations/0/sites/1", reason: 'names no site of this file: "nope" (a key of `sites`, or {id: ...})' },
      { pointer: "/installations/0/spaces/2", reason: 'names no space of this file: "gone" (a key of `spaces`, or {id: ...})' },
    ]);
    expect(accessIssues({ sites: "not a list" })).toEqual([]);
  });

  it("finds the caller's teams among the file's by user ID or e-mail", () => {
    const stack = { teams: [{ key: "a", members: [{ user: "Admin@demo.test" }] }, { key: "b", members: [{ user: "u1" }] }, { key: "c" }] };
    expect(callerTeamKeys(stack, "admin@demo.test")).toEqual(["a"]);
    expect(callerTeamKeys(stack, "u1")).toEqual(["b"]);
    expect(callerTeamKeys(stack, undefined)).toEqual([]);
  });

  it("summarises who can reach an object by role, teams by name and users counted", () => {
    const grants: StackGrant[] = [{ team: "writers", role: "edit" }, { user: "a@x.test", role: "read" }, { user: "b@x.test", role: "read" }, { team: { id: "t9" }, role: "admin" }, { user: "g@x.test", role: null }];
    expect(accessSummary(grants, title)).toEqual(["admin: team {id: t9}", "edit: team Writers", "read: 2 users", "guest: 1 user"]);
  });

  it("names every grant added, removed or changed", () => {
    const before: StackGrant[] = [{ team: "writers", role: "edit" }, { user: "a@x.test", role: "read" }, { user: "b@x.test", role: "read" }];
    const after: StackGrant[] = [{ team: "writers", role: "review" }, { user: "B@x.test", role: "read" }, { team: "reviewers", role: "comment" }];
    expect(grantChanges(before, after, title).map(grantChangeText)).toEqual([
      "role changed: team Writers edit → review",
      "grant removed: user a@x.test (read)",
      "grant added: team Reviewers (comment)",
    ]);
  });
});
