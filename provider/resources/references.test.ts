/**
 * The provider's check and the reserved input the component adds in a preview (references.ts): the
 * references are looked up only when it is present, each failure led by its stack-file location, and the
 * checked inputs never carry it (failing or passing), so it cannot reach diff, create or the state. The
 * providers run in-process against the emulator on port 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { configureAgainst } from "../../test/support/emulator";
import { closeSharedClients } from "../client";
import { inputSchema } from "./kind";
import { memberRoleProvider } from "./memberRole";
import { checkInputs } from "./provider";
import { REFERENCES_INPUT } from "./references";
import { samlProviderKind } from "./samlProvider";
import { siteSpaceProvider } from "./siteSpace";
import { teamMembersProvider } from "./teamMembers";

const ORG = "demo-org";
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  await configureAgainst(memberRoleProvider, emu);
});

afterAll(async () => {
  await closeSharedClients();
  await emu.close();
});

describe("check and the reserved input", () => {
  it("is not refused by the kind's input schema", () => {
    // A kind whose provider this file does not check (the validator is compiled once per schema $id).
    const inputs = { organizationId: ORG, label: "Okta", defaultTeam: "team-x", [REFERENCES_INPUT]: { defaultTeam: "docs.yaml:52:18" } };
    expect(checkInputs(samlProviderKind.name, inputSchema(samlProviderKind), samlProviderKind.fields, inputs)).toEqual([]);
  });

  it("without it (an `up`), nothing is looked up: a member who does not exist is left to the write", async () => {
    emu.control.clearLog();
    const news = { organizationId: ORG, userId: "ghost@demo.test", role: "read" as const };
    const result = await memberRoleProvider.check({} as never, news);
    expect(result).toEqual({ inputs: news });
    expect(emu.control.log()).toEqual([]);
  });

  it("with it, a reference that does not exist fails at its location, and the input is stripped", async () => {
    emu.control.clearLog();
    const inputs = { organizationId: ORG, userId: "ghost@demo.test", role: "read" as const };
    const result = await memberRoleProvider.check({} as never, { ...inputs, [REFERENCES_INPUT]: { userId: "docs.yaml:25:11" } } as never);
    expect(result.failures).toEqual([
      { property: "userId", reason: 'docs.yaml:25:11: userId: "ghost@demo.test" is not a member of organization demo-org (no member has this e-mail address)' },
    ]);
    expect(result.inputs).toEqual(inputs);
    expect(emu.control.log().map((c) => c.method)).toEqual(["GET"]);
  });

  it("with it, references that exist pass, and the input is stripped", async () => {
    const inputs = { organizationId: ORG, siteId: "site-x", spaceId: "space-guides", path: "guides" };
    const result = await siteSpaceProvider.check({} as never, { ...inputs, [REFERENCES_INPUT]: { spaceId: "docs.yaml:9:20" } } as never);
    expect(result).toEqual({ inputs });
  });

  it("locates each item of a list by its own place; a property without a location is still named", async () => {
    const inputs = { organizationId: ORG, teamId: "team-x", members: [{ user: "writer-1" }, { user: "wrtier@demo.test" }, { user: "nobody-1" }] };
    const result = await teamMembersProvider.check({} as never, { ...inputs, [REFERENCES_INPUT]: { "members[1].user": "docs.yaml:41:15" } } as never);
    expect(result.failures?.map((f) => f.reason)).toEqual([
      'docs.yaml:41:15: members[1].user: "wrtier@demo.test" is not a member of organization demo-org (no member has this e-mail address)',
      'members[2].user: "nobody-1" is not a member of organization demo-org (no member has this user ID)',
    ]);
    expect(result.failures?.map((f) => f.property)).toEqual(["members", "members"]);
    expect(result.inputs).toEqual(inputs);
  });

  it("refuses one of another shape (a program of one's own passing it), naming it, and strips it too", async () => {
    const inputs = { organizationId: ORG, userId: "reader-1", role: "read" as const };
    const result = await memberRoleProvider.check({} as never, { ...inputs, [REFERENCES_INPUT]: ["userId"] } as never);
    expect(result.failures).toEqual([{ property: REFERENCES_INPUT, reason: expect.stringContaining(`${REFERENCES_INPUT}: is reserved for the DocsPlatform component's previews`) }]);
    expect(result.inputs).toEqual(inputs);
  });
});
