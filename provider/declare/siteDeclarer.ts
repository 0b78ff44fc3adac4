/**
 * The resources of one site, declared from its resolved model (provider/site): the site, its
 * sections and site spaces (each level's default created first, so that the API makes it the default
 * with no extra call), section groups, share links, the adaptive schema, and one SiteStructureOrder
 * that depends on every structural child and restores the declared order.
 */
import * as pulumi from "@pulumi/pulumi";
import { ShareLink, Site, SiteAdaptiveSchema, SiteCustomization, SiteExternalLink, SiteRedirects, SiteSection, SiteSectionGroup, SiteSpace, SiteSpaceCustomization, SiteStructureOrder, type SiteStyleGuide } from "../classes";
import { destinationInput } from "../redirects/forms";
import type { RedirectTarget } from "../redirects/rules";
import { siteCustomizationKind } from "../resources/siteCustomization";
import { siteRedirectsKind } from "../resources/siteRedirects";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import { siteSpaceCustomizationKind } from "../resources/siteSpaceCustomization";
import type { StructurePointer } from "../client";
import type { KindDefinition, ResourceArgs } from "../resources/kind";
import { shareLinkKind } from "../resources/shareLink";
import { siteKind } from "../resources/site";
import type { SiteAdaptiveSchemaInputs } from "../resources/siteAdaptiveSchema";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { ROOT_LEVEL } from "../resources/siteStructureOrder";
import type { GroupChild, SectionEntry, SiteModel, SiteSpaceEntry, TopEntry } from "../site";
import type { Keyed, Ref } from "../file/model";
import { adoptOf, join, keysOf } from "./names";
import type { LocatedReferences, Written } from "./referenceLocations";

/** The resources of one site, by key. */
export interface SiteResources {
  site: Site;
  /** Sections by key. */
  sections: Record<string, SiteSection>;
  /** Section groups by key. */
  sectionGroups: Record<string, SiteSectionGroup>;
  /** Site spaces by key: the root-level ones and those of every section (including each section's first). */
  siteSpaces: Record<string, SiteSpace>;
  /** Share links by key. */
  shareLinks: Record<string, ShareLink>;
  /** External links by key. */
  links: Record<string, SiteExternalLink>;
  /** The site's look, when the file declares it. */
  customization?: SiteCustomization;
  /** Site spaces' look overrides, by site-space key. */
  overrides: Record<string, SiteSpaceCustomization>;
  adaptiveSchema?: SiteAdaptiveSchema;
  /** The site's whole redirect set, when the file declares one. */
  redirects?: SiteRedirects;
  /** Restores the declared order of sections, groups and site spaces; absent for a site without structure. */
  order?: SiteStructureOrder;
  /** The style guide attached to the site, when the file names one (declared after the style guides). */
  styleGuide?: SiteStyleGuide;
}

/** What declaring a site needs of the whole declaration. */
export interface SiteScope {
  /** The component's name. */
  name: string;
  org: string;
  /** The inputs an entry declares; with its pointer, a preview's also locate the references it makes. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's outputs
  inputs<I extends object>(kind: KindDefinition<I, any>, entry: object, pointer?: string): ResourceArgs<I>;
  /** In a preview, the reserved input locating the references among `written()` (referenceLocations.ts; not called in an up). */
  located(kindName: string, written: () => Record<string, Written>): LocatedReferences;
  /** Options of an object: parent and aliases for its former keys (and those of `scopes`). */
  with(obj: Keyed, scopes?: string[][], extra?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions;
  /** The space a site space publishes. */
  spaceId(ref: Ref): pulumi.Input<string>;
  /**
   * Declares what comes with the site resource before its structure (its Git Sync installation) and
   * returns what the structure's resources must wait for: under priority git the installation, whose
   * save imports the site file that makes the structure they take over. None: no wait.
   */
  withSite?(entry: SiteModel["entry"], site: Site): pulumi.Resource | undefined;
}

/** Declares the resources of one site. */
export function declareSite(scope: SiteScope, model: SiteModel): SiteResources {
  return new SiteDeclarer(scope, model).declare();
}

class SiteDeclarer {
  private readonly out: SiteResources;
  private readonly siteId: pulumi.Output<string>;
  private readonly scopes: string[][];
  /** What every structural resource waits for (the Git Sync installation whose save imports the structure). */
  private readonly owner: pulumi.Resource | undefined;

  constructor(
    private readonly scope: SiteScope,
    private readonly model: SiteModel,
  ) {
    const s = model.entry;
    const site = new Site(join(scope.name, model.key), { ...scope.inputs(siteKind, s), organizationId: scope.org, ...adoptOf(s) }, scope.with(s));
    this.siteId = site.id;
    this.scopes = [keysOf(s)];
    this.owner = scope.withSite?.(s, site);
    this.out = { site, sections: {}, sectionGroups: {}, siteSpaces: {}, shareLinks: {}, links: {}, overrides: {} };
  }

  declare(): SiteResources {
    const levels = this.sections();
    const rootIds = this.level(this.model.rootSiteSpaces, undefined);
    this.groups();
    this.links();
    this.shareLinks();
    this.look();
    const s = this.model.entry;
    if (s.adaptiveSchema !== undefined) {
      this.out.adaptiveSchema = new SiteAdaptiveSchema(
        this.name(),
        { organizationId: this.scope.org, siteId: this.siteId, jsonSchema: s.adaptiveSchema as SiteAdaptiveSchemaInputs["jsonSchema"] },
        this.scope.with(s),
      );
    }
    if (s.redirects !== undefined) this.out.redirects = this.redirects();
    this.order(levels, rootIds);
    return this.out;
  }

  /**
   * The site's redirect set: destinations by key become the IDs of this site's resources, a path on the
   * site a URL under its address. The IDs are resolved once for the whole set (each section and site
   * space it names, the site's address when a path needs it), not once per redirect: every Output costs
   * the language host several promises, each with a stack trace, and a set holds thousands of redirects.
   */
  private redirects(): SiteRedirects {
    const { out, scope } = this;
    const s = this.model.entry;
    const redirects = s.redirects ?? [];
    const named = (pick: (t: RedirectTarget) => string | undefined) => [...new Set(redirects.flatMap((r) => pick(r.destination) ?? []))];
    const sectionKeys = named((t) => ("section" in t ? t.section : undefined));
    const siteSpaceKeys = named((t) => ("siteSpace" in t ? t.siteSpace : undefined));
    const resolved = pulumi.all([
      pulumi.all(sectionKeys.map((k) => out.sections[k]?.id)),
      pulumi.all(siteSpaceKeys.map((k) => out.siteSpaces[k]?.id)),
      pulumi.all(siteSpaceKeys.map((k) => out.siteSpaces[k]?.spaceId)),
      redirects.some((r) => "path" in r.destination) ? out.site.urls.apply((u) => u?.published ?? undefined) : undefined,
    ]);
    const entries = resolved.apply(([sectionIds, siteSpaceIds, spaceIds, siteUrl]) => {
      const sections = new Map(sectionKeys.map((k, i) => [k, sectionIds[i]]));
      const siteSpaces = new Map(siteSpaceKeys.map((k, i) => [k, { siteSpaceId: siteSpaceIds[i], spaceId: spaceIds[i] ?? undefined }]));
      return redirects.map((r) => {
        const t = r.destination;
        const ids = {
          sectionId: "section" in t ? sections.get(t.section) : undefined,
          ...("siteSpace" in t ? siteSpaces.get(t.siteSpace) : {}),
          siteUrl: "path" in t ? siteUrl : undefined,
        };
        return {
          source: r.source,
          destination: destinationInput(t, ids),
          ...(r.permanent === undefined ? {} : { permanent: r.permanent }),
          ...(r.captureWildcard === undefined ? {} : { captureWildcard: r.captureWildcard }),
          ...(r.draft === undefined ? {} : { draft: r.draft }),
        };
      });
    });
    // In a preview, each page named by its path is looked up in its space's current content (references.ts).
    const written = () =>
      Object.fromEntries(
        (s.redirects ?? []).flatMap((r, j) => ("siteSpace" in r.destination && r.destination.page !== undefined ? [[`redirects[${j}].destination`, { pointer: `${this.model.pointer}/redirects/${j}/destination/page`, value: r.destination.page }]] : [])),
      );
    return new SiteRedirects(
      this.name(),
      { organizationId: scope.org, siteId: this.siteId, redirects: entries, ...adoptOf(s), ...scope.located(siteRedirectsKind.name, written) },
      scope.with(s),
    );
  }

  /** Options of a structural object: its aliases, and after the structure's owner when the repository owns it. */
  private structural(obj: Keyed, after: pulumi.Resource[] = []): pulumi.CustomResourceOptions {
    const dependsOn = [...after, ...(this.owner ? [this.owner] : [])];
    return this.scope.with(obj, this.scopes, dependsOn.length > 0 ? { dependsOn } : {});
  }

  private name(...keys: string[]): string {
    return join(this.scope.name, this.model.key, ...keys);
  }

  /** The sections, the default first (the others depend on it), each with its site spaces; returns each section's ID and its site spaces' IDs. */
  private sections(): [pulumi.Output<string>, pulumi.Output<string>[]][] {
    const list = this.model.sectionList;
    const first = list.find((section) => section.default);
    const firstCreated = first ? this.section(first, true) : undefined;
    return list.map((section) => {
      const created = section === first ? firstCreated! : this.section(section, false, firstCreated);
      this.out.sections[section.key] = created;
      return [created.id, this.level(section.siteSpaces, created)];
    });
  }

  private section(section: SectionEntry, isDefault: boolean, after?: SiteSection): SiteSection {
    const { scope } = this;
    const first = section.siteSpaces[0]!;
    return new SiteSection(
      this.name(section.key),
      {
        ...scope.inputs(siteSectionKind, section.entry),
        organizationId: scope.org,
        siteId: this.siteId,
        // The space of the site space the section is created with. Afterwards that site space is its own
        // resource (its space changes in place there), so a different first space does not replace the section.
        spaceId: scope.spaceId(first.space!),
        default: isDefault,
        ...adoptOf(section.entry),
        ...scope.located(siteSectionKind.name, () => ({ spaceId: { pointer: `${first.pointer}/space`, value: first.space } })),
      },
      { ...this.structural(section, after ? [after] : []), ignoreChanges: ["spaceId"] },
    );
  }

  /**
   * The site spaces of one level (a section's, or the root's without `section`). A section's POST
   * creates its first site space, which is taken over by ID; the level's default is created next
   * (the API makes the first object created at a level its default), then the rest after it.
   */
  private level(siteSpaces: SiteSpaceEntry[], section: SiteSection | undefined): pulumi.Output<string>[] {
    const takenOver = section === undefined ? undefined : siteSpaces[0];
    const defaultSpace = siteSpaces.find((ss) => ss.default && ss !== takenOver);
    const defaultCreated = defaultSpace ? this.siteSpace(defaultSpace, section, undefined) : undefined;
    return siteSpaces.map((ss) => {
      const r = ss === defaultSpace ? defaultCreated! : this.siteSpace(ss, section, ss === takenOver ? undefined : defaultCreated, ss === takenOver);
      this.out.siteSpaces[ss.key] = r;
      return r.id;
    });
  }

  /** `createdWith`: the section's POST created this site space. `after`: the level's default, created first. */
  private siteSpace(ss: SiteSpaceEntry, section: SiteSection | undefined, after: SiteSpace | undefined, createdWith = false): SiteSpace {
    const { scope } = this;
    return new SiteSpace(
      this.name(ss.key),
      {
        // A shorthand's pointer is its section's, whose `space` it stands for: located there.
        ...scope.inputs(siteSpaceKind, ss.entry, ss.pointer),
        organizationId: scope.org,
        siteId: this.siteId,
        ...(section === undefined ? {} : { sectionId: section.id }),
        default: ss.default,
        // A section is created with its first site space: that one is taken over by ID, not created again.
        ...(createdWith && section ? { existingId: section.siteSpaceId } : {}),
        ...adoptOf(ss.entry),
      },
      this.structural(ss, after ? [after] : []),
    );
  }

  /** Section groups, each listing its sections as the file does. */
  private groups(): void {
    const { scope, out } = this;
    for (const g of this.model.groupList) {
      out.sectionGroups[g.key] = new SiteSectionGroup(
        this.name(g.key),
        {
          ...scope.inputs(siteSectionGroupKind, g.entry),
          organizationId: scope.org,
          siteId: this.siteId,
          sections: pulumi.all(g.sections.map((section) => out.sections[section.key]!.id)),
          ...adoptOf(g.entry),
        },
        this.structural(g),
      );
    }
  }

  /** External links, each in its group (or at the root); their order among the sections is the site's order's. */
  private links(): void {
    const { scope, out } = this;
    for (const l of this.model.linkList) {
      const group = l.group === undefined ? undefined : out.sectionGroups[l.group];
      out.links[l.key] = new SiteExternalLink(
        this.name(l.key),
        { ...scope.inputs(siteExternalLinkKind, l.entry), organizationId: scope.org, siteId: this.siteId, ...(group ? { sectionGroupId: group.id } : {}), ...adoptOf(l.entry) },
        this.structural(l),
      );
    }
  }

  /** The site's look, and each site space's override of it (after the site's, which records the look first). */
  private look(): void {
    const { scope, out } = this;
    const s = this.model.entry;
    if (s.customization !== undefined) {
      out.customization = new SiteCustomization(this.name(), { ...scope.inputs(siteCustomizationKind, s.customization), organizationId: scope.org, siteId: this.siteId }, scope.with(s));
    }
    for (const ss of this.model.siteSpaces) {
      const look = ss.entry.customization;
      if (look === undefined) continue;
      out.overrides[ss.key] = new SiteSpaceCustomization(
        this.name(ss.key),
        { ...scope.inputs(siteSpaceCustomizationKind, look), organizationId: scope.org, siteId: this.siteId, siteSpaceId: out.siteSpaces[ss.key]!.id },
        scope.with(ss, this.scopes, out.customization ? { dependsOn: [out.customization] } : {}),
      );
    }
  }

  /** The navigation per level, as the structure sort takes it: the root's entries and each group's children, in display order. */
  private navigation(): pulumi.Output<Record<string, StructurePointer[]>> {
    const { out } = this;
    const pointer = (e: TopEntry | GroupChild): pulumi.Output<StructurePointer> =>
      e.kind === "section"
        ? out.sections[e.section.key]!.id.apply((id) => ({ type: "site-section" as const, id }))
        : e.kind === "link"
          ? out.links[e.link.key]!.id.apply((id) => ({ type: "site-external-link" as const, id }))
          : out.sectionGroups[e.group.key]!.id.apply((id) => ({ type: "site-section-group" as const, id }));
    const levels: pulumi.Output<[string, StructurePointer[]]>[] = [pulumi.all(this.model.entries.map(pointer)).apply((items) => [ROOT_LEVEL, items] as [string, StructurePointer[]])];
    for (const g of this.model.groups) {
      if (g.children.length === 0) continue;
      levels.push(pulumi.all([out.sectionGroups[g.key]!.id, pulumi.all(g.children.map(pointer))]).apply(([id, items]) => [id, items] as [string, StructurePointer[]]));
    }
    return pulumi.all(levels).apply((entries) => Object.fromEntries(entries));
  }

  private shareLinks(): void {
    const { scope } = this;
    for (const l of this.model.shareLinks) {
      this.out.shareLinks[l.key] = new ShareLink(
        this.name(l.key),
        { ...scope.inputs(shareLinkKind, l.entry), organizationId: scope.org, siteId: this.siteId, ...adoptOf(l.entry) },
        scope.with(l, this.scopes),
      );
    }
  }

  /** One order per site, after every structural child: siblings are created in parallel. */
  private order(levels: [pulumi.Output<string>, pulumi.Output<string>[]][], rootIds: pulumi.Output<string>[]): void {
    const { out, scope } = this;
    const sectionIds = Object.values(out.sections).map((r) => r.id);
    const groupIds = Object.values(out.sectionGroups).map((r) => r.id);
    if (sectionIds.length === 0 && rootIds.length === 0) return;
    const siteSpaces = pulumi
      .all([pulumi.all(levels.map(([id]) => id)), pulumi.all(levels.map(([, ids]) => pulumi.all(ids))), pulumi.all(rootIds)])
      .apply(([sectionLevelIds, orders, root]) => {
        const byLevel: Record<string, string[]> = {};
        sectionLevelIds.forEach((id, i) => (byLevel[id] = orders[i]!));
        if (root.length > 0) byLevel[ROOT_LEVEL] = root;
        return byLevel;
      });
    // Declared membership (known in preview): a section moving into or out of a group moves in the order.
    const groupMembers = pulumi
      .all(this.model.groupList.map((g) => pulumi.all([out.sectionGroups[g.key]!.id, pulumi.all(g.sections.map((section) => out.sections[section.key]!.id))])))
      .apply((entries) => Object.fromEntries(entries));
    // With external links, the whole navigation is ordered through the structure sort (the one operation that places a link).
    const withLinks = this.model.linkList.length > 0;
    out.order = new SiteStructureOrder(
      this.name(),
      {
        organizationId: scope.org,
        siteId: this.siteId,
        ...(sectionIds.length > 0 && !withLinks ? { sections: pulumi.all(sectionIds) } : {}),
        ...(groupIds.length > 0 ? { ...(withLinks ? {} : { sectionGroups: pulumi.all(groupIds) }), groups: groupMembers } : {}),
        ...(withLinks ? { navigation: this.navigation() } : {}),
        siteSpaces,
      },
      scope.with(this.model.entry, [], {
        dependsOn: [...Object.values(out.sections), ...Object.values(out.sectionGroups), ...Object.values(out.siteSpaces), ...Object.values(out.links), ...(this.owner ? [this.owner] : [])],
      }),
    );
  }
}
