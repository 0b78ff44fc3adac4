/** Every /v1 area, registered in one place. */
import type { Route } from "../context";
import { registerSites } from "./sites";
import { registerStructure } from "./structure";
import { registerTeams } from "./teams";

/** Registers every /v1 route. */
export function registerAll(route: Route): void {
  registerSites(route);
  registerStructure(route);
  registerTeams(route);
}
