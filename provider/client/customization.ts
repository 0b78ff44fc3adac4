import type { RequestCore } from "./core";
import { path } from "./path";

/** A colour: `#` and 3 or 6 hex digits. */
export type Color = string;
/** A colour for the light and the dark mode. */
export interface ThemedColor {
  light: Color;
  dark: Color;
}
/** A URL for the light and the dark mode. */
export interface ThemedURL {
  light: string;
  dark: string;
}
/** Localized values keyed by language (non-default languages only). */
export type Localized = Partial<Record<string, string>>;

/** A reference to content (one of these by `kind`). */
export type ContentRef =
  | { kind: "url"; url: string }
  | { kind: "page"; page: string; space?: string }
  | { kind: "anchor"; anchor: string; space?: string; page?: string }
  | { kind: "file"; file: string; space?: string }
  | { kind: "space"; space: string }
  | { kind: "collection"; collection: string }
  | { kind: "user"; user: string }
  | { kind: "reusable-content"; reusableContent: string; space?: string }
  | { kind: "tag"; tag: string; space?: string }
  | { kind: "openapi"; spec: string };

/** A link: title (at most 64 characters) and target. */
export interface ContentLink {
  title: string;
  localizedTitle?: Localized;
  to: ContentRef;
}

/** A header link with its sub-links. */
export interface HeaderItem {
  title: string;
  localizedTitle?: Localized;
  style?: "link" | "button-primary" | "button-secondary";
  to: ContentRef | null;
  links: ContentLink[];
  condition?: string;
}

export interface FooterGroup {
  title: string;
  localizedTitle?: Localized;
  links: ContentLink[];
}

export interface FontDefinition {
  id: string;
  custom: boolean;
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: "woff2" | "woff" }[] }[];
}

export interface CodeThemePair {
  light: string;
  dark: string;
}

export interface CustomizationStyling {
  theme: "clean" | "muted" | "bold" | "gradient";
  primaryColor: ThemedColor;
  infoColor: ThemedColor;
  successColor: ThemedColor;
  warningColor: ThemedColor;
  dangerColor: ThemedColor;
  tint?: { color: ThemedColor };
  corners: "straight" | "rounded" | "circular";
  depth: "subtle" | "flat";
  links: "default" | "accent";
  font: string | FontDefinition;
  headingFont?: string | FontDefinition | null;
  monospaceFont: string | FontDefinition;
  /** Deprecated by the API (use `tint`), still required. */
  background: "plain" | "match";
  icons: "regular" | "solid" | "duotone" | "light" | "thin";
  codeTheme: { default: CodeThemePair; openapi: CodeThemePair };
  sidebar: { background: "default" | "filled"; list: "default" | "pill" | "line" };
  search: "prominent" | "subtle";
}

export interface Announcement {
  enabled: boolean;
  message: string;
  localizedMessage?: Localized;
  link?: ContentLink;
  style: "info" | "warning" | "danger" | "success";
}

export type PageAction = "assistant" | "external-ai" | "markdown" | "mcp" | "git" | "pdf";

export interface SocialAccount {
  platform: string;
  handle: string;
  display: { footer: boolean; header: boolean };
}

/** A site's whole customization settings: what GET answers and PUT takes (without `updatedAt`). */
export interface SiteCustomizationSettings {
  title?: string;
  localizedTitle?: Localized;
  styling: CustomizationStyling;
  /** Deprecated by the API, still required. */
  internationalization: { locale: string };
  favicon: { icon: ThemedURL } | { emoji: string } | Record<string, never>;
  header: {
    /** Deprecated by the API (`styling.theme` replaces it), still required. */
    preset: "default" | "bold" | "contrast" | "custom" | "none";
    logo?: ThemedURL;
    primaryLink?: ContentRef;
    backgroundColor?: ThemedColor;
    linkColor?: ThemedColor;
    links: HeaderItem[];
  };
  footer: { logo?: ThemedURL; groups: FooterGroup[]; copyright?: string };
  announcement?: Announcement;
  themes: { default: "light" | "dark" | "system"; toggeable: boolean };
  feedback: { enabled: boolean };
  ai: { mode: "none" | "search" | "assistant"; greeting?: string; localizedGreeting?: Localized; suggestions?: string[]; instructions?: string };
  advancedCustomization: { enabled: boolean };
  pageActions: { items: PageAction[] };
  externalLinks: { target: "self" | "blank" };
  pagination: { enabled: boolean };
  trademark: { enabled: boolean };
  privacyPolicy: { url?: string };
  socialPreview: { url?: string };
  socialAccounts: SocialAccount[];
  insights: { trackingCookie: boolean };
  /** Read-only: when the settings were last written; absent: never. */
  updatedAt?: string;
}

/** A site space's effective settings: the site's, with the site space's overrides in place. */
export type SiteSpaceCustomizationSettings = SiteCustomizationSettings & { hasOverrides?: boolean };

type Nullable<T> = { [K in keyof T]?: T[K] | null };

/** Body of a site space's override PATCH: each member overrides the site's value; `null` clears that override. */
export interface SiteSpaceCustomizationBody {
  title?: string | null;
  localizedTitle?: Localized | null;
  styling?: Nullable<Omit<CustomizationStyling, "font" | "headingFont" | "monospaceFont" | "sidebar" | "codeTheme">> & {
    sidebar?: Nullable<CustomizationStyling["sidebar"]> | null;
    codeTheme?: Nullable<CustomizationStyling["codeTheme"]> | null;
  };
  internationalization?: { locale: string | null };
  favicon?: SiteCustomizationSettings["favicon"] | null;
  announcement?: Announcement;
  header?: Nullable<Omit<SiteCustomizationSettings["header"], never>>;
  footer?: Nullable<SiteCustomizationSettings["footer"]>;
  themes?: Nullable<SiteCustomizationSettings["themes"]>;
  feedback?: { enabled: boolean | null };
  externalLinks?: { target: "self" | "blank" | null };
  pagination?: { enabled: boolean | null };
  trademark?: { enabled: boolean | null };
  privacyPolicy?: { url?: string | null };
  socialPreview?: { url?: string | null };
}

/** A site's customization (look, header, footer, AI) and each site space's overrides of it. */
export class CustomizationApi {
  constructor(private readonly core: RequestCore) {}

  get(orgId: string, siteId: string): Promise<SiteCustomizationSettings> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/customization`);
  }
  /** Replaces the whole settings object (a member left out is unset): read, change, send back. */
  put(orgId: string, siteId: string, settings: SiteCustomizationSettings): Promise<SiteCustomizationSettings> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/sites/${siteId}/customization`, { body: settings });
  }
  /** A site space's effective settings (the site's, overrides in place). */
  getSiteSpace(orgId: string, siteId: string, siteSpaceId: string): Promise<SiteSpaceCustomizationSettings> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/customization`);
  }
  /** Merges overrides into the site space's (a member replaces, `null` clears one). */
  override(orgId: string, siteId: string, siteSpaceId: string, body: SiteSpaceCustomizationBody): Promise<SiteSpaceCustomizationSettings> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/customization`, { body });
  }
  /** Removes every override of the site space (none there is done too). */
  clearOverrides(orgId: string, siteId: string, siteSpaceId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/customization`);
  }
}
