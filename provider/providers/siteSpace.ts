// The whole module.exports is the provider, so an installed package serialises it as one require().
import "../compileCache";
import { siteSpaceProvider } from "../resources/siteSpace";
export = siteSpaceProvider;
