/**
 * Export of the organisation's own integrations (those it owns; the platform lists everyone's). Each
 * becomes an entry with `adopt: true` from the kind's declaration. What cannot be read back is not
 * exported: the script (a placeholder path is written, to be supplied before `pulumi up`), the icon
 * and preview images, and the secrets (the API never serves their values).
 */
import type { Integration } from "../client";
import type { FieldSpec } from "../resources/kind";
import { integrationKind } from "../resources/integration";
import { declaredEntry } from "../stack/declared";
import type { StackIntegration } from "../stack/model";
import { fileOf, stackFields } from "../stack/stackSchema";
import { KeyAllocator } from "./keys";

/** The entries, the placeholder paths written for files that must be supplied, and notes for the header. */
export interface ExportedIntegrations {
  entries: StackIntegration[];
  placeholders: string[];
  notes: string[];
}

/** Where a required file of an exported entry is to be supplied: `supply/<key>/<field>`. */
export function placeholderPath(key: string, field: string): string {
  return `supply/${key}/${field}`;
}

/** The integrations `organizationId` owns, as stack-file entries that adopt them. */
export function exportIntegrations(integrations: readonly Integration[], organizationId: string): ExportedIntegrations {
  const own = integrations.filter((g) => g.owner?.id === organizationId).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const keys = new KeyAllocator();
  const out: ExportedIntegrations = { entries: [], placeholders: [], notes: [] };
  const files = stackFields(integrationKind).filter((f) => fileOf(f.spec) !== undefined);
  const secretFields = stackFields(integrationKind).filter((f) => f.spec.stack === "secretSources");
  for (const g of own) {
    const key = keys.from(g.name, "integration");
    const entry: Record<string, unknown> = { key, ...declaredEntry(integrationKind, integrationKind.outputsOf(g, { organizationId, siteId: "" }), (_list, id) => ({ id })) };
    const left: string[] = [];
    for (const f of files) {
      if ((f.spec as FieldSpec).required) {
        const p = placeholderPath(key, f.as);
        entry[f.as] = p;
        out.placeholders.push(p);
      } else {
        left.push(f.as);
      }
    }
    entry.adopt = true;
    out.entries.push(entry as unknown as StackIntegration);
    const supplied = files.filter((f) => f.spec.required).map((f) => f.as);
    out.notes.push(
      `integration '${g.name}': its ${supplied.join(" and ")} cannot be read back; supply the file${supplied.length > 1 ? "s" : ""} at the placeholder path${supplied.length > 1 ? "s" : ""} before \`pulumi up\`, or it fails as a missing file` +
        (left.length + secretFields.length > 0
          ? `; ${[...left, ...secretFields.map((f) => f.as)].join(", ")} are not exported: declare them (secrets by their source), or the first up publishes without them`
          : ""),
    );
  }
  return out;
}
