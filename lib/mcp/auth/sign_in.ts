/**
 * Entra ID sign-in at the HTTP front end (MCP authorization, revisions 2025-06-18 and 2025-11-25): the
 * Protected Resource Metadata document (RFC 9728) at `/.well-known/oauth-protected-resource` and its
 * path-suffixed form for the MCP path, and the bearer check of every MCP request, answered as
 * RFC 6750 §3 asks: 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` (plus
 * `error="invalid_token"` for a bad token), 403 with `error="insufficient_scope"`.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../../config/config.ts";
 * import { EntraSignIn } from "./sign_in.ts";
 * const config = loadConfig({
 *   CATALOG_ACCOUNT_NAME: "contoso",
 *   CATALOG_MCP_ENTRA_TENANT_ID: "72f988bf-86f1-41af-91ab-2d7cd011db47",
 *   CATALOG_MCP_ENTRA_CLIENT_ID: "00000000-0000-0000-0000-0000000000aa",
 * });
 * const signIn = new EntraSignIn(config.mcpSignIn!, config.region);
 * const answer = await signIn.authenticate(new Request("http://127.0.0.1:8000/mcp"), "/mcp");
 * console.log(answer instanceof Response ? answer.status : answer.name); // 401
 * ```
 *
 * @module
 */
import type { CloudRegion, EntraSignInSettings } from "../../config/config.ts";
import { signInAuthority } from "./authority.ts";
import { jsonError } from "../http_security.ts";
import {
  entraTokenVerifier,
  issuerOf,
  requiredScopeUri,
  type SignedInUser,
  TokenRefusal,
  type TokenVerifier,
  type TokenVerifierOptions,
} from "./entra_token.ts";

export type { TokenVerifierOptions };

/** RFC 9728 §3: the well-known path; the resource's own path is appended to it. */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
/**
 * Where the hosted mode serves the metadata too, and where its challenges point: the Functions host routes
 * only paths under its route prefix (`/api`) to govcat, never `/.well-known/…`. RFC 9728 §5.1 lets the
 * `resource_metadata` of the challenge name any URL, and MCP clients follow it.
 */
export const HOSTED_METADATA_PATH = "/api/oauth-protected-resource";

export interface EntraSignInOptions extends TokenVerifierOptions {
  /** The path challenges point at instead of the well-known one (hosted mode: {@link HOSTED_METADATA_PATH}). */
  metadataPath?: string;
}

export class EntraSignIn {
  readonly settings: EntraSignInSettings;
  readonly authorityHost: string;
  readonly #verify: TokenVerifier;
  readonly #metadataPath: string | undefined;

  constructor(settings: EntraSignInSettings, region: CloudRegion, options: EntraSignInOptions = {}) {
    this.settings = settings;
    this.#metadataPath = options.metadataPath;
    this.authorityHost = signInAuthority(settings, region);
    this.#verify = entraTokenVerifier(settings, this.authorityHost, options);
  }

  /** True for the paths the metadata document is served at, for an MCP endpoint at `mcpPath`. */
  isMetadataPath(pathname: string, mcpPath: string): boolean {
    return pathname === PROTECTED_RESOURCE_PATH || pathname === PROTECTED_RESOURCE_PATH + mcpPath ||
      pathname === this.#metadataPath;
  }

  /** The metadata document (GET only); `resource` is the MCP endpoint's URL as the client reached it. */
  metadataResponse(request: Request, mcpPath: string): Response {
    if (request.method !== "GET") {
      return jsonError(405, "Method not allowed; use GET.", { allow: "GET" });
    }
    const document = {
      resource: new URL(mcpPath, this.#base(request)).href,
      authorization_servers: [issuerOf(this.settings, this.authorityHost)],
      scopes_supported: [requiredScopeUri(this.settings)],
      bearer_methods_supported: ["header"],
      resource_name: "govcat data-governance catalog",
    };
    return Response.json(document, { headers: { "cache-control": "max-age=3600" } });
  }

  /**
   * The signed-in user of `request`, or the refusal to send: 401 without a bearer token or with an invalid
   * one, 403 without the required scope, 503 when the tenant's keys cannot be fetched.
   */
  async authenticate(request: Request, mcpPath: string): Promise<SignedInUser | Response> {
    const header = request.headers.get("authorization");
    const match = header === null ? null : /^Bearer +([^\s]+) *$/i.exec(header);
    try {
      if (header === null) {
        throw new TokenRefusal(
          401,
          undefined,
          `Sign-in required: send 'Authorization: Bearer <token>' with an Entra ID token for the scope ` +
            `${requiredScopeUri(this.settings)}.`,
        );
      }
      if (!match) {
        throw new TokenRefusal(
          401,
          "invalid_request",
          "The Authorization header is not 'Bearer <token>' with one token.",
        );
      }
      return await this.#verify(match[1]);
    } catch (error) {
      if (!(error instanceof TokenRefusal)) throw error;
      return this.refusal(error, request, mcpPath);
    }
  }

  /** The HTTP answer for `refusal`, with the challenge that points the client at the metadata. */
  refusal(refusal: TokenRefusal, request: Request, mcpPath: string): Response {
    if (refusal.status === 503) return jsonError(503, refusal.message, { "retry-after": "30" });
    const metadataUrl = new URL(this.#metadataPath ?? PROTECTED_RESOURCE_PATH + mcpPath, this.#base(request))
      .href;
    const parts = [`resource_metadata="${metadataUrl}"`, `scope="${requiredScopeUri(this.settings)}"`];
    if (refusal.code) {
      parts.push(`error="${refusal.code}"`, `error_description="${quotable(refusal.message)}"`);
    }
    return jsonError(refusal.status, refusal.message, { "www-authenticate": `Bearer ${parts.join(", ")}` });
  }

  /** Where the client reached this server: the configured public URL, else the request's own. */
  #base(request: Request): string {
    return this.settings.publicUrl ?? request.url;
  }
}

/** RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash). */
function quotable(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'");
}
