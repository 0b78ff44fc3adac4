/**
 * pulumi-docsplatform: Pulumi dynamic resources for every declarative object of the docs
 * platform's /v1 API. Each kind exports its class, its args/outputs types and its provider.
 */

export { kinds, kindByName, type KindName } from "./resources/kinds";
export type { KindDefinition, KindContext, FieldSpec, ResourceArgs, AdoptInput, AnyKind } from "./resources/kind";
export { makeProvider, CONFIG } from "./resources/provider";

// Site structure
export { Site, siteProvider, siteKind, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export {
  ShareLink,
  shareLinkProvider,
  shareLinkKind,
  type ShareLinkArgs,
  type ShareLinkInputs,
  type ShareLinkOutputs,
} from "./resources/shareLink";

// Organisation

// Stack file (component and loader)
