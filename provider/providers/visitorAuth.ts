// The whole module.exports is the provider, so an installed package serialises it as one require().
import { visitorAuthProvider } from "../resources/visitorAuth";
export = visitorAuthProvider;
