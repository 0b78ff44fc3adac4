// The whole module.exports is the provider, so an installed package serialises it as one require().
import "../compileCache";
import { siteProvider } from "../resources/site";
export = siteProvider;
