import { DocsPlatform } from "pulumi-docsplatform";

// The integration is declared in docs.yaml: its script and images are files next to it, its
// secrets name their sources (Pulumi config, environment). This program hands the file over.
const docs = new DocsPlatform("integration", { file: "docs.yaml" });

export const integrationUrls = docs.resources.integrations["status-badges"]?.url;
// What the stack holds, for the next run: a renamed key never takes over another entry's object.
export const docsplatformHeld = docs.held;
