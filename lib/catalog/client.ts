/**
 * `CatalogClient`: the data map (Atlas v2, search), account and scan APIs of one catalog account,
 * grouped by area (`client.entity`, `client.types`, `client.relationships`, `client.search`). Built
 * from a {@link Config}, or around an existing {@link HttpClient}.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * const result = await client.search.query({ keywords: "customers", limit: 10 });
 * ```
 *
 * @module
 */
import { createTokenProvider, type TokenProvider } from "../auth.ts";
import { catalogBaseUrl, isLoopbackEndpoint, unifiedBaseUrl } from "../cloud.ts";
import type { Config } from "../config.ts";
import { HttpClient } from "../http.ts";
import { type Logger, silentLogger } from "../log.ts";
import { AccountApi } from "./account_api.ts";
import { CollectionsApi } from "./collections_api.ts";
import { GlossaryApi } from "./glossary_api.ts";
import { LineageApi } from "./lineage_api.ts";
import { ScanApi } from "./scan_api.ts";
import { EntityApi } from "./entity_api.ts";
import { RelationshipApi } from "./relationship_api.ts";
import { SearchApi } from "./search_api.ts";
import { TypeDefApi } from "./typedef_api.ts";

export interface CatalogClientOptions {
  logger?: Logger;
  /** Overrides the credential chosen from the configuration. */
  tokens?: TokenProvider;
  /** First retry delay; tests make it small. */
  retryBaseMs?: number;
}

/** Builds the HTTP core for a configuration: base URLs, api-versions, token source, limits. */
export function httpClientFromConfig(config: Config, options: CatalogClientOptions = {}): HttpClient {
  const logger = options.logger ?? silentLogger;
  logger.addSecret(config.clientSecret);
  const catalogUrl = catalogBaseUrl(config);
  const unifiedUrl = unifiedBaseUrl(config);
  // Tokens are decided per endpoint: with the emulator for one API and a real account for the other, the
  // real one still gets tokens and the emulator none.
  const unifiedTokens = !options.tokens && isLoopbackEndpoint(unifiedUrl) !== isLoopbackEndpoint(catalogUrl)
    ? createTokenProvider(config, { logger, baseUrl: unifiedUrl })
    : undefined;
  return new HttpClient({
    baseUrls: { datamap: catalogUrl, account: catalogUrl, scan: catalogUrl, unified: unifiedUrl },
    apiVersions: {
      datamap: config.apiVersion,
      unified: config.unifiedApiVersion,
      account: "2019-11-01-preview",
      scan: "2023-09-01",
    },
    tokens: options.tokens ?? createTokenProvider(config, { logger }),
    areaTokens: unifiedTokens ? { unified: unifiedTokens } : undefined,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutSeconds * 1000,
    rateLimit: config.rateLimit,
    maxResponseBytes: config.maxResponseBytes,
    maxRetryAfterMs: config.maxRetryWaitSeconds * 1000,
    retryBaseMs: options.retryBaseMs,
    logger,
  });
}

export class CatalogClient {
  readonly http: HttpClient;
  readonly account: AccountApi;
  readonly entity: EntityApi;
  readonly search: SearchApi;
  readonly types: TypeDefApi;
  readonly relationships: RelationshipApi;
  readonly glossary: GlossaryApi;
  readonly lineage: LineageApi;
  readonly collections: CollectionsApi;
  readonly scan: ScanApi;

  constructor(http: HttpClient) {
    this.http = http;
    this.account = new AccountApi(http);
    this.entity = new EntityApi(http);
    this.search = new SearchApi(http);
    this.types = new TypeDefApi(http);
    this.relationships = new RelationshipApi(http);
    this.glossary = new GlossaryApi(http);
    this.lineage = new LineageApi(http);
    this.collections = new CollectionsApi(http);
    this.scan = new ScanApi(http);
  }

  static fromConfig(config: Config, options: CatalogClientOptions = {}): CatalogClient {
    return new CatalogClient(httpClientFromConfig(config, options));
  }
}
