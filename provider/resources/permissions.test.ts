import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RoleOrGuest } from "../client";
import { ROLES } from "../client/types";
import { afterWrite, type DirectGrant, type Grant, type GrantTarget, grantPlan, grantWrites, lockoutProblems } from "./permissions";

/**
 * The order of a grant change's writes (issue #37): a run cut after any single write must leave a
 * state the lock-out guard accepts whenever the guard accepts the change as a whole. Before, removals
 * went first, so replacing the only admin by another left the object with none until the last write.
 */

const TEAMS = ["t1", "t2", "t3"];
const USERS = ["u1", "u2", "u3"];
const role = fc.constantFrom<RoleOrGuest>(...ROLES, null);

/** A set of grants over a few teams and users, each at most once. */
const grantSet = fc
  .tuple(fc.subarray(TEAMS), fc.subarray(USERS))
  .chain(([teams, users]) =>
    fc.tuple(fc.array(role, { minLength: teams.length, maxLength: teams.length }), fc.array(role, { minLength: users.length, maxLength: users.length })).map(([tr, ur]) => [
      ...teams.map((team, i) => ({ team, role: tr[i]! })),
      ...users.map((user, i) => ({ user, role: ur[i]! })),
    ]),
  );

const guard = fc.record({ caller: fc.option(fc.constantFrom(...USERS), { nil: undefined }), callerTeams: fc.subarray(TEAMS) });
const target = fc.constantFrom<GrantTarget>("site", "space", "collection");

/** Every state a run passes through: the live grants, then after each write. */
function states(on: GrantTarget, direct: DirectGrant[], declared: Grant[]): DirectGrant[][] {
  const plan = grantPlan(declared, direct);
  const writes = grantWrites(on, { ...plan, add: plan.add.map((g) => ({ ...g, role: g.role ?? null })) });
  const out = [direct];
  for (const w of writes) out.push(afterWrite(out[out.length - 1]!, w));
  return out;
}

const sorted = (grants: DirectGrant[]) => grants.map((g) => `${g.team ? `team ${g.team}` : `user ${g.user}`}=${g.role}`).sort();

describe("a grant change's writes", () => {
  it("every state between two writes passes the lock-out guard whenever the end state does, and the last is the declared set", () => {
    fc.assert(
      fc.property(target, grantSet, grantSet, guard, (on, direct, declared, g) => {
        const all = states(on, direct, declared);
        const end = all[all.length - 1]!;
        expect(sorted(end)).toEqual(sorted(declared));
        if (lockoutProblems(on, "x", direct, end, g).length > 0) return;
        for (const state of all) expect(lockoutProblems(on, "x", direct, state, g)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("replacing the only admin: the new admin is granted before the old one goes", () => {
    const direct: DirectGrant[] = [{ team: "owners", role: "admin" }, { user: "u1", role: "edit" }, { team: "viewers", role: "edit" }];
    const declared: Grant[] = [{ team: "editors", role: "admin" }, { user: "u1", role: "admin" }, { team: "viewers", role: "read" }];
    const plan = grantPlan(declared, direct);
    const writes = grantWrites("site", { ...plan, add: plan.add.map((g) => ({ ...g, role: g.role ?? null })) });
    expect(writes.map((w) => (w.op === "invite" ? `invite ${w.role} ${w.grants.map((x) => x.team ?? x.user).join(",")}` : `${w.op} ${w.grant.team ?? w.grant.user}${w.op === "set" ? ` ${w.role}` : ""}`))).toEqual([
      "invite admin editors",
      "set u1 admin",
      "set viewers read",
      "remove owners",
    ]);
    for (const state of states("site", direct, declared)) expect(state.some((x) => x.role === "admin")).toBe(true);
  });

  it("a site's grant lowered to guest is an invite, after the promotions and before the removals", () => {
    const direct: DirectGrant[] = [{ user: "u1", role: "admin" }, { user: "u2", role: "edit" }, { team: "t1", role: "read" }];
    const declared: Grant[] = [{ user: "u2", role: "admin" }, { team: "t1", role: null }];
    const plan = grantPlan(declared, direct);
    const writes = grantWrites("site", { ...plan, add: [] });
    expect(writes.map((w) => w.op)).toEqual(["set", "invite", "remove"]);
    expect(writes[1]).toEqual({ op: "invite", role: null, grants: [{ team: "t1", role: null }] });
    // A space's PATCH takes null: the same change there is three role sets and removals.
    expect(grantWrites("space", { ...plan, add: [] }).map((w) => w.op)).toEqual(["set", "set", "remove"]);
  });
});
