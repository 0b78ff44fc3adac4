/**
 * What leaving a field out of a stack file means, for the fields `tree` and `diff` show: the kinds'
 * absence rules (provider/resources/*: `FieldSpec.absent`), restated here so that the offline commands
 * do not load the resource modules (and the Pulumi SDK with them). absence.test.ts checks every entry
 * against the kinds' declarations, so a rule changed there fails here until it is changed here too.
 */

/** `clear`: absence removes the value; `{reset}`: absence sets it to that value; `unmanaged`: absence leaves the live value alone. */
export type FieldAbsence = "clear" | { reset: unknown } | "unmanaged";

/** The rules, by kind name and input field name. */
export const ABSENCE = {
  Site: {
    type: "unmanaged",
    visibility: "unmanaged",
    published: { reset: false },
    basename: "unmanaged",
    proxy: "clear",
    agentsContext: { reset: "excluded" },
    adaptiveContent: { reset: { enabled: false } },
  },
  SiteSection: { title: "unmanaged", path: "unmanaged", description: "clear", icon: "clear", condition: "clear" },
  SiteSpace: { path: "unmanaged", condition: "clear" },
  SiteSectionGroup: { icon: "clear" },
  ShareLink: { active: { reset: true } },
} as const satisfies Record<string, Record<string, FieldAbsence>>;
