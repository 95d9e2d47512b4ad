/**
 * A stand-in for the Entra ID authority in tests, on 127.0.0.1: RSA keys generated here, the tenant's key
 * set at `/{tenant}/discovery/v2.0/keys` (each fetch counted), and tokens signed here with any claims or
 * header a test wants, including hostile ones (`alg: none`, HS256 keyed with the public key, unknown kid).
 * With `tls` it serves https and answers the on-behalf-of exchange as Entra does (OpenID configuration,
 * `POST /{tenant}/oauth2/v2.0/token` with a `jwt-bearer` grant): it checks the server's client secret and
 * the user's assertion, and returns a Purview-audience token of that user (its `oid` is who the emulator's
 * team mode checks the collection roles of: lib/emulator/collection_permissions.ts).
 *
 * @module
 */
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "../../lib/deps/jose.ts";
import { json } from "./local_server.ts";

export const TENANT_ID = "11111111-2222-4333-8444-555555555555";
export const SERVER_CLIENT_ID = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
export const CALLING_CLIENT_ID = "99999999-8888-4777-8666-555555555555";
export const READER = { oid: "00000000-0000-4000-8000-00000000000a", name: "Rita Reader" };
export const CURATOR = { oid: "00000000-0000-4000-8000-00000000000b", name: "Carl Curator" };
export const ADMIN = { oid: "00000000-0000-4000-8000-00000000000c", name: "Ada Admin" };

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface EntraStandIn {
  /** The authority host, e.g. http://127.0.0.1:1234 (CATALOG_MCP_ENTRA_AUTHORITY). */
  url: string;
  issuer: string;
  /** Key set fetches so far. */
  keyFetches(): number;
  /** A token of `user` for this server, valid for an hour, with the claims `overrides` changes. */
  token(user?: { oid: string; name: string }, overrides?: TokenOverrides): Promise<string>;
  /** Publishes a new signing key (rotation) and signs with it from now on. */
  rotate(): Promise<void>;
  /** The public key as a JWK, for forgeries. */
  publicJwk(): JWK;
  /** The environment of a signed-in server against this authority. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** The on-behalf-of exchanges answered: whose assertion, and the status. */
  exchanges: Array<{ oid: string; status: number }>;
  close(): Promise<void>;
}

export interface TokenOverrides {
  claims?: JWTPayload & Record<string, unknown>;
  /** Removes these claims. */
  drop?: string[];
  kid?: string;
  /** Sign with a key the authority never published. */
  foreignKey?: boolean;
}

export interface StandInOptions {
  /** Serve https with this certificate (needed for the on-behalf-of exchange). */
  tls?: { cert: string; key: string };
  /** The secret the server's app registration must present in the exchange. */
  clientSecret?: string;
}

/** Starts the stand-in with one published key. */
export async function startEntraStandIn(options: StandInOptions = {}): Promise<EntraStandIn> {
  const keys = new SigningKeys();
  await keys.add();
  return new StandIn(
    options,
    keys,
    await generateKeyPair("RS256", { extractable: true }),
    await keys.published(),
  );
}

/** The authority's signing keys: the newest signs, all are published. */
class SigningKeys {
  readonly #keys: Array<{ kid: string; pair: KeyPair }> = [];

  async add(): Promise<void> {
    this.#keys.push({
      kid: `key-${this.#keys.length + 1}`,
      pair: await generateKeyPair("RS256", { extractable: true }),
    });
  }

  /** The key that signs now. */
  current(): { kid: string; pair: KeyPair } {
    return this.#keys[this.#keys.length - 1];
  }

  /** The key set the tenant publishes. */
  async published(): Promise<JWK[]> {
    return await Promise.all(this.#keys.map(async ({ kid, pair }) => ({
      ...(await exportJWK(pair.publicKey)),
      kid,
      use: "sig",
      kty: "RSA",
    })));
  }
}

class StandIn implements EntraStandIn {
  readonly url: string;
  readonly issuer: string;
  readonly exchanges: Array<{ oid: string; status: number }> = [];
  readonly #options: StandInOptions;
  readonly #keys: SigningKeys;
  readonly #foreign: KeyPair;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  #jwks: JWK[];
  #fetches = 0;

  constructor(options: StandInOptions, keys: SigningKeys, foreign: KeyPair, jwks: JWK[]) {
    this.#options = options;
    this.#keys = keys;
    this.#foreign = foreign;
    this.#jwks = jwks;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, ...options.tls },
      (request) => this.#handle(request),
    );
    this.url = `${options.tls ? "https" : "http"}://127.0.0.1:${this.#server.addr.port}`;
    this.issuer = `${this.url}/${TENANT_ID}/v2.0`;
  }

  keyFetches(): number {
    return this.#fetches;
  }

  async token(user = READER, overrides: TokenOverrides = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: this.issuer,
      aud: SERVER_CLIENT_ID,
      tid: TENANT_ID,
      oid: user.oid,
      name: user.name,
      preferred_username: `${user.name.split(" ")[0].toLowerCase()}@contoso.test`,
      scp: "user_impersonation",
      azp: CALLING_CLIENT_ID,
      ver: "2.0",
      iat: now,
      nbf: now,
      exp: now + 3600,
      ...overrides.claims,
    };
    for (const name of overrides.drop ?? []) delete claims[name];
    const current = this.#keys.current();
    return await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: overrides.kid ?? current.kid })
      .sign(overrides.foreignKey ? this.#foreign.privateKey : current.pair.privateKey);
  }

  async rotate(): Promise<void> {
    await this.#keys.add();
    this.#jwks = await this.#keys.published();
  }

  publicJwk(): JWK {
    return this.#jwks[this.#jwks.length - 1];
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      CATALOG_MCP_ENTRA_TENANT_ID: TENANT_ID,
      CATALOG_MCP_ENTRA_CLIENT_ID: SERVER_CLIENT_ID,
      CATALOG_MCP_ENTRA_AUTHORITY: this.url,
      ...extra,
    };
  }

  close(): Promise<void> {
    return this.#server.shutdown();
  }

  async #handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === `/${TENANT_ID}/discovery/v2.0/keys`) {
      this.#fetches++;
      return json(200, { keys: this.#jwks });
    }
    if (path === `/${TENANT_ID}/v2.0/.well-known/openid-configuration`) {
      const base = `${this.url}/${TENANT_ID}`;
      return json(200, {
        issuer: this.issuer,
        token_endpoint: `${base}/oauth2/v2.0/token`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        end_session_endpoint: `${base}/oauth2/v2.0/logout`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
      });
    }
    if (path === `/${TENANT_ID}/oauth2/v2.0/token` && request.method === "POST") {
      return await this.#exchange(new URLSearchParams(await request.text()));
    }
    return json(404, { error: "not_found" });
  }

  /** The on-behalf-of exchange: the server's secret and the user's assertion checked, a catalog token. */
  async #exchange(form: URLSearchParams): Promise<Response> {
    const refuse = (error: string, description: string) => {
      this.exchanges.push({ oid: "", status: 400 });
      return json(400, { error, error_description: description });
    };
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return refuse("unsupported_grant_type", "only the on-behalf-of grant");
    }
    if (
      form.get("client_id") !== SERVER_CLIENT_ID || form.get("client_secret") !== this.#options.clientSecret
    ) {
      return refuse("invalid_client", "AADSTS7000215: Invalid client secret provided.");
    }
    let oid: string;
    try {
      const { payload } = await jwtVerify(
        form.get("assertion") ?? "",
        createLocalJWKSet({ keys: this.#jwks }),
        {
          issuer: this.issuer,
          audience: SERVER_CLIENT_ID,
          algorithms: ["RS256"],
        },
      );
      oid = String(payload.oid);
    } catch (error) {
      return refuse("invalid_grant", `AADSTS50013: Assertion failed signature validation. ${error}`);
    }
    this.exchanges.push({ oid, status: 200 });
    return json(200, {
      token_type: "Bearer",
      scope: form.get("scope"),
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: await this.#catalogToken(oid),
    });
  }

  /** A Purview-audience token of user `oid`. */
  async #catalogToken(oid: string): Promise<string> {
    const user = [READER, CURATOR, ADMIN].find((u) => u.oid === oid) ?? { oid, name: oid };
    const now = Math.floor(Date.now() / 1000);
    const current = this.#keys.current();
    return await new SignJWT({
      iss: this.issuer,
      aud: "https://purview.azure.net",
      tid: TENANT_ID,
      oid,
      name: user.name,
      iat: now,
      nbf: now,
      exp: now + 3600,
    }).setProtectedHeader({ alg: "RS256", kid: current.kid }).sign(current.pair.privateKey);
  }
}

/** base64url of a string or bytes. */
export function base64url(input: string | Uint8Array): string {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The payload of a JWT, unverified (tests only). */
export function payloadOf(token: string): Record<string, unknown> {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part + "=".repeat((4 - part.length % 4) % 4)));
}

/** An unsigned token (`alg: none`) with the claims of `token`. */
export function unsignedCopy(token: string): string {
  return `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${token.split(".")[1]}.`;
}

/** The claims of `token` signed HS256 with the public key's JSON as the secret: the key-confusion attack. */
export async function hs256WithPublicKey(token: string, publicJwk: JWK): Promise<string> {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT", kid: publicJwk.kid }));
  const body = token.split(".")[1];
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(JSON.stringify(publicJwk)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${header}.${body}`));
  return `${header}.${body}.${base64url(new Uint8Array(signature))}`;
}
