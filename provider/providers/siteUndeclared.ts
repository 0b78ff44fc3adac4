// Do not move, rename or change what this module exports. Every existing stack's state holds its
// provider as a require() of this path (pulumi-docsplatform/dist/provider/providers/<kind>.js) and
// expects the whole module.exports to be the provider; a different path or export changes the
// serialised provider, and Pulumi then replaces every resource of this kind in every existing stack.
import "../compileCache";
import { siteUndeclaredProvider } from "../resources/siteUndeclared";
export = siteUndeclaredProvider;
