// The whole module.exports is the provider, so an installed package serialises it as one require().
import { integrationInstallationProvider } from "../resources/integrationInstallation";
export = integrationInstallationProvider;
