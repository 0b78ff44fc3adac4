/**
 * Types of the /v1 API: resources and request bodies as the platform's API description gives
 * them (see the client's README). Fields the description marks optional are optional;
 * `null` appears where the API allows it.
 */

// The shared types, then each API area's types, each in a file of its own (none imports this barrel).
export * from "./baseTypes";
export * from "./orgTypes";
export * from "./spaceTypes";
export * from "./siteTypes";
export * from "./servicesTypes";
export * from "./guideTypes";
