/** How the program tests read a run: the steps that changed something and the writes that reached the API. */
import { expect } from "vitest";
import { opLabel, type ProgramRunner, type RunResult } from "../harness";

/** Custom-resource steps that are not `same`, as `op Kind name` (a retained delete `delete[retain]`, as the CLI shows it), sorted. */
export function changes(result: RunResult): string[] {
  return result.steps
    .filter((s) => s.custom && s.op !== "same")
    .map((s) => `${opLabel(s)} ${s.type.slice(s.type.lastIndexOf(":") + 1)} ${s.urn.slice(s.urn.lastIndexOf("::") + 2)}`)
    .sort();
}

/** API writes as `METHOD route status`, in order (organisation routes without their prefix). */
export function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")} ${c.status}`);
}

/**
 * The row's `up`, then a second `up` that changes nothing and makes no API call (`between` checks the
 * live platform after the first).
 */
export async function upAndSettle(runner: ProgramRunner, between?: () => void): Promise<RunResult> {
  const up = await runner.up();
  between?.();
  const again = await runner.up();
  expect(changes(again)).toEqual([]);
  expect(again.apiCalls).toEqual([]);
  return up;
}
