/**
 * Bearer tokens for the catalog. {@link createTokenProvider} picks the credential from the configuration
 * (none for a loopback emulator, a service principal, or a chain of environment, workload identity, managed
 * identity, Azure CLI and Azure Developer CLI) and wraps it in the caching provider of `cached_tokens.ts`,
 * which keeps the token until shortly before it expires, so a long-running server asks the identity
 * platform about once an hour.
 *
 * The client secret and tokens never reach a message, a hint, a log line or a description.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/config.ts";
 * import { createTokenProvider } from "./token_provider.ts";
 * const tokens = createTokenProvider(loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }));
 * console.log(tokens.description); // "default chain: environment, managed identity, Azure CLI, ..."
 * // The first call asks the credential (the chain tries each member in turn); later ones use the cache.
 * async function bearer(): Promise<string | undefined> {
 *   return await tokens.getToken(); // undefined for a loopback emulator
 * }
 * ```
 *
 * @module
 */
import { catalogBaseUrl, type CloudSettings, cloudSettings, isLoopbackEndpoint } from "../config/cloud.ts";
import { type Config, type EnvSource, processEnv } from "../config/config.ts";
import type { TokenCredential } from "../deps/azure_identity.ts";
import { hintForStatus } from "../core/errors.ts";
import { type Logger, redactSecrets, silentLogger } from "../core/log.ts";
import { cachedTokenProvider, type CredentialSource, reasonOf, type TokenProvider } from "./cached_tokens.ts";

export type { TokenCredential };

type IdentitySdk = typeof import("../deps/azure_identity.ts");
let identitySdk: Promise<IdentitySdk> | undefined;

/**
 * A credential built on its first token request. `@azure/identity` is large: loading it only when a real
 * token is needed keeps it out of the start-up of commands and servers that never ask for one.
 */
export function lazyCredential(build: (sdk: IdentitySdk) => TokenCredential): TokenCredential {
  let credential: Promise<TokenCredential> | undefined;
  return {
    async getToken(scopes, options) {
      credential ??= (identitySdk ??= import("../deps/azure_identity.ts")).then(build);
      return await (await credential).getToken(scopes, options);
    },
  };
}

/** Options of {@link createTokenProvider}. */
export interface TokenProviderOptions {
  /** Receives debug lines (which credential, when the token expires) and refresh warnings. */
  logger?: Logger;
  /** Used instead of the configured credential (kind "custom"); never asked for a loopback endpoint. */
  credential?: CredentialSource;
  /** Clock in epoch milliseconds; tests inject their own. */
  now?: () => number;
  /** Environment consulted for workload and user-assigned managed identity; the process environment by default. */
  env?: EnvSource;
  /**
   * The endpoint the tokens are for, which decides whether any is needed (none for loopback); the
   * catalog's base URL by default.
   */
  baseUrl?: string;
}

/**
 * Picks the credential for `config` and wraps it in a caching {@link TokenProvider}:
 * - a loopback endpoint (`options.baseUrl`, the catalog's by default: the emulator): kind "none", never asks
 *   for a token;
 * - `options.credential`: kind "custom";
 * - CLOUD_TENANT_ID + CLOUD_CLIENT_ID + CLOUD_CLIENT_SECRET: kind "service-principal";
 * - otherwise kind "chain": environment, workload identity (when configured), managed identity, Azure CLI,
 *   Azure Developer CLI, all against the cloud's authority host.
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/config.ts";
 * import { createTokenProvider } from "./token_provider.ts";
 * const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:8085" });
 * const tokens = createTokenProvider(config);
 * tokens.kind; // "none"
 * await tokens.getToken(); // undefined
 * ```
 */
export function createTokenProvider(config: Config, options: TokenProviderOptions = {}): TokenProvider {
  const logger = options.logger ?? silentLogger;
  logger.addSecret(config.clientSecret);
  const baseUrl = options.baseUrl ?? catalogBaseUrl(config);
  if (isLoopbackEndpoint(baseUrl)) return noTokenProvider(`none (loopback endpoint ${baseUrl})`);

  const cloud = cloudSettings(config.region);
  const common = { logger, now: options.now, secrets: [config.clientSecret] };
  if (options.credential) {
    return cachedTokenProvider(options.credential, config.tokenScope, {
      ...common,
      kind: "custom",
      description: "custom credential",
      hint: "The credential supplied by the calling program could not get a token; see the message above.",
    });
  }

  if (config.tenantId && config.clientId && config.clientSecret) {
    const { tenantId, clientId, clientSecret } = config;
    // The constructor only checks its arguments, which config validation has already done; no request yet.
    const credential = lazyCredential((sdk) =>
      new sdk.ClientSecretCredential(tenantId, clientId, clientSecret, { authorityHost: cloud.authorityHost })
    );
    return cachedTokenProvider(credential, config.tokenScope, {
      ...common,
      kind: "service-principal",
      description: `service principal (client id ${abbreviate(config.clientId)}, tenant ${
        abbreviate(config.tenantId)
      }, ${new URL(cloud.authorityHost).host})`,
      hint:
        "Check CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET: the secret may have expired or " +
        "belong to another app registration" +
        (config.region ? "." : "; for a sovereign cloud also set CLOUD_REGION (usgov or china)."),
    });
  }

  const members = defaultChainMembers(config, cloud, options.env ?? processEnv(), logger);
  let lastSource: string | undefined;
  const chain = lazyCredential((sdk) => {
    const tracked: TokenCredential[] = [];
    for (const { name, build } of members) {
      let credential: TokenCredential;
      try {
        credential = build(sdk);
      } catch (error) {
        // A credential whose environment is incomplete cannot be built; the rest of the chain still can.
        logger.debug(`Skipping ${name}: ${redactSecrets(reasonOf(error))}`);
        continue;
      }
      // Each member reports success, so logs and `profile status` can say which one produced the token.
      tracked.push({
        async getToken(scopes, getTokenOptions) {
          const token = await credential.getToken(scopes, getTokenOptions);
          if (token) lastSource = name;
          return token;
        },
      });
    }
    return new sdk.ChainedTokenCredential(...tracked);
  });
  const tenant = config.tenantId ? `; tenant ${abbreviate(config.tenantId)}` : "";
  return cachedTokenProvider(chain, config.tokenScope, {
    ...common,
    kind: "chain",
    description: `default chain: ${members.map((m) => m.name).join(", ")}${tenant}`,
    hint: chainHint(config),
    source: () => lastSource,
  });
}

function noTokenProvider(description: string): TokenProvider {
  return {
    kind: "none",
    description,
    getToken(signal?: AbortSignal) {
      signal?.throwIfAborted();
      return Promise.resolve(undefined);
    },
  };
}

interface NamedCredential {
  name: string;
  build: (sdk: IdentitySdk) => TokenCredential;
}

/** The members of DefaultAzureCredential that make sense for a command-line tool and a server. */
function defaultChainMembers(
  config: Config,
  cloud: CloudSettings,
  env: EnvSource,
  logger: Logger,
): NamedCredential[] {
  const { authorityHost } = cloud;
  const tenantId = config.tenantId;
  const members: NamedCredential[] = [];
  const add = (name: string, build: NamedCredential["build"]) => members.push({ name, build });

  add("environment", (sdk) => new sdk.EnvironmentCredential({ authorityHost }));

  // Its constructor throws unless the federated token file, client id and tenant are all known.
  const tokenFilePath = env.AZURE_FEDERATED_TOKEN_FILE;
  const workloadClientId = env.AZURE_CLIENT_ID;
  const workloadTenantId = tenantId ?? env.AZURE_TENANT_ID;
  if (tokenFilePath && workloadClientId && workloadTenantId) {
    add("workload identity", (sdk) =>
      new sdk.WorkloadIdentityCredential({
        tenantId: workloadTenantId,
        clientId: workloadClientId,
        tokenFilePath,
        authorityHost,
      }));
  } else if (tokenFilePath) {
    logger.debug(
      "AZURE_FEDERATED_TOKEN_FILE is set without AZURE_CLIENT_ID or a tenant id: skipping workload identity.",
    );
  }

  // As in DefaultAzureCredential: AZURE_CLIENT_ID selects a user-assigned identity, and a short probe of the
  // instance metadata endpoint lets machines without managed identity fall through to the CLI logins at
  // once instead of after several retries. `sendProbeRequest` is an SDK option its types do not list.
  const managedIdentityOptions = { clientId: env.AZURE_CLIENT_ID || undefined, sendProbeRequest: true };
  add("managed identity", (sdk) => new sdk.ManagedIdentityCredential(managedIdentityOptions));
  add("Azure CLI", (sdk) => new sdk.AzureCliCredential({ tenantId }));
  add("Azure Developer CLI", (sdk) => new sdk.AzureDeveloperCliCredential({ tenantId }));
  return members;
}

function chainHint(config: Config): string {
  const cloudName = config.region === "usgov"
    ? "AzureUSGovernment"
    : config.region === "china"
    ? "AzureChinaCloud"
    : undefined;
  const base = hintForStatus(401) ??
    "Log in with `az login`, or set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and CLOUD_CLIENT_SECRET.";
  return cloudName
    ? `${base} For this cloud run \`az cloud set --name ${cloudName}\` before \`az login\`.`
    : base;
}

function abbreviate(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}
