import type { Site } from "./siteTypes";
import type { Space } from "./spaceTypes";

/** Types of the /v1 API for style guides and the organisation's agent instructions (extensions §15). */

/** A rich-text document: blocks of the content document model (`paragraph`, `heading-1`, … each holding text leaves). */
export interface ContentDocument {
  object: "document";
  data: Record<string, unknown>;
  nodes: Record<string, unknown>[];
  meta?: { token?: string };
}

/** A style guide space of the organisation and the sites it is attached to. */
export interface StyleGuideEntry {
  space: Space;
  sites: Site[];
}

/** A built-in style guide template. */
export interface StyleGuideTemplate {
  id: string;
  title: string;
  subtitle?: string;
  emoji?: string;
  /** Preview of the template's content. */
  markdown: string;
}

/** Body of `POST {site}/styleguide`: a template for a new guide (omitted: blank). */
export interface EnsureStyleGuideBody {
  template?: string;
}

/** One run of a site's style guide over some of its content spaces. */
export interface StyleGuideRun {
  object: "styleguide-run";
  id: string;
  site: string;
  /** The guide space checked against. */
  styleguide: string;
  /** The spaces asked for. */
  spaces: string[];
  createdAt: string;
  createdBy: { id: string };
}

/** The organisation's instructions for the platform's docs agent. */
export interface OrganizationAgentInstructions {
  object: "agent-instructions";
  instructions: ContentDocument;
  updatedAt: string;
  updatedBy: string;
  urls: { location: string };
}
