import { DocsPlatform } from "pulumi-docsplatform";

// The integration is declared in docs.yaml: its script and images are files next to it, its
// secrets name their sources (Pulumi config, environment). This program hands the file over.
const docs = new DocsPlatform("integration", { file: "docs.yaml" });

export const integrationUrls = docs.resources.integrations["status-badges"]?.url;
