/**
 * The Entra authority of sign-in, in a module of its own so that the tool server can name it without
 * loading the token verifier (and `jose`) on every start-up.
 *
 * @module
 */
import { cloudSettings } from "../../config/cloud.ts";
import type { CloudRegion, EntraSignInSettings } from "../../config/config.ts";

/** The authority that issues this server's tokens: the configured one, else CLOUD_REGION's login host. */
export function signInAuthority(settings: EntraSignInSettings, region: CloudRegion): string {
  return settings.authorityHost ?? cloudSettings(region).authorityHost;
}
