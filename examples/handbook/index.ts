import { DocsPlatform } from "pulumi-docsplatform";

// Everything is declared in docs.yaml; this program hands it to the provider.
const docs = new DocsPlatform("handbook", { file: "docs.yaml" });

export const siteUrls = docs.siteUrls;
export const siteIds = docs.siteIds;
