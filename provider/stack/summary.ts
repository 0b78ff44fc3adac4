/** What a stack declares, counted: `validate`'s and export's summaries, read from the resolved stack. */
import { ACCESS_LISTS, type StackAccess } from "../access/model";
import { listEntries, type StackFile } from "../file/model";
import { kinds, listedKinds, type KindName, type ListedKind } from "../resources/kinds";
import type { SiteModel } from "../site";
import type { ResolvedStack } from "./resolve";

/**
 * Number of objects of each kind a stack declares, by kind name: an object the component declares a
 * resource for or, for a kind holding a set, the members of the set (redirects, team members, permission
 * grants); a site's display order is none of the file's objects (0). Site spaces include those of the
 * `space` shorthand. Keyed by the list of kinds: a new kind cannot be left out.
 */
export function countObjects({ stack, sites }: ResolvedStack): Record<KindName, number> {
  const sum = (n: (site: SiteModel) => number): number => sites.reduce((total, site) => total + n(site), 0);
  const grantLists = ACCESS_LISTS.flatMap(({ property }) => (stack[property] ?? []) as StackAccess[]);
  return {
    Site: sites.length,
    SiteSection: sum((s) => s.sectionList.length),
    SiteSectionGroup: sum((s) => s.groupList.length),
    SiteSpace: sum((s) => s.siteSpaces.length),
    SiteStructureOrder: 0,
    SiteAdaptiveSchema: sum((s) => (s.entry.adaptiveSchema === undefined ? 0 : 1)),
    ShareLink: sum((s) => s.shareLinks.length),
    SiteRedirects: sum((s) => s.entry.redirects?.length ?? 0),
    SiteCustomization: sum((s) => (s.entry.customization === undefined ? 0 : 1)),
    SiteSpaceCustomization: sum((s) => s.siteSpaces.filter((ss) => ss.entry.customization !== undefined).length),
    SiteExternalLink: sum((s) => s.linkList.length),
    Team: stack.teams?.length ?? 0,
    TeamMembers: (stack.teams ?? []).reduce((n, t) => n + (t.members?.length ?? 0), 0),
    Collection: stack.collections?.length ?? 0,
    Space: stack.spaces?.length ?? 0,
    OrganizationSettings: stack.settings === undefined ? 0 : 1,
    MemberRole: stack.members?.length ?? 0,
    Permissions: grantLists.reduce((n, e) => n + (e.permissions?.length ?? 0), 0),
    VisitorAuth: sum((s) => (s.entry.visitorAuth === undefined ? 0 : 1)),
    IntegrationInstallation: stack.installations?.length ?? 0,
    SiteGitSync: sum((s) => (s.entry.gitSync === undefined ? 0 : 1)),
    SiteMcpServer: sum((s) => s.entry.mcpServers?.length ?? 0),
    SiteAgentSettings: sum((s) => (s.entry.agent === undefined ? 0 : 1)),
    SiteAgentChannel: sum((s) => s.entry.agentChannels?.length ?? 0),
    SiteContextConnection: sum((s) => s.entry.contextConnections?.length ?? 0),
    SiteStyleGuide: sum((s) => (s.entry.styleGuide === undefined ? 0 : 1)),
    AgentInstructions: stack.agentInstructions === undefined ? 0 : 1,
    ...listCounts(stack),
  };
}

/**
 * The objects a stack declares, counted by kind in the order of the list of kinds and named as each kind
 * names them: `3 sites`, `1 redirect`, … (a kind whose singular and plural are one, `organisation
 * settings`, without its count). `validate` and export summarise a file with it.
 */
export function objectSummary(resolved: ResolvedStack): string[] {
  const counts = countObjects(resolved);
  return kinds.flatMap((kind) => {
    const n = counts[kind.name];
    if (n === 0) return [];
    const { one, many } = kind.noun;
    return [one === many ? one : `${n} ${n === 1 ? one : many}`];
  });
}

/** Number of entries of each listed kind, by kind name. */
function listCounts(stack: StackFile): Record<ListedKind["name"], number> {
  return Object.fromEntries(listedKinds().map((k) => [k.name, listEntries(stack, k.list.property).length])) as Record<ListedKind["name"], number>;
}
