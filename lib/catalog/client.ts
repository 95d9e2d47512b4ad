/**
 * `CatalogClient`: the data map (Atlas v2, search), account and scan APIs of one catalog account,
 * grouped by area (`client.entity`, `client.types`, `client.relationships`, `client.search`). Built
 * from a {@link Config}, or around an existing {@link HttpClient}.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function findCustomers(): Promise<void> {
 *   const result = await client.search.query({ keywords: "customers", limit: 10 });
 * }
 * ```
 *
 * @module
 */
import { createTokenProvider } from "../auth/token_provider.ts";
import type { TokenProvider } from "../auth/cached_tokens.ts";
import { catalogBaseUrl, isLoopbackEndpoint, unifiedBaseUrl } from "../config/cloud.ts";
import type { Config } from "../config/config.ts";
import { HttpClient } from "../http/client.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { AccountApi } from "./account_api.ts";
import { ContactsApi } from "./account_contacts_api.ts";
import { CollectionsApi } from "./collections_api.ts";
import { GlossaryApi } from "./glossary_api.ts";
import { LineageApi } from "./lineage_api.ts";
import { PolicyApi } from "./policy_api.ts";
import { QualityApi } from "./quality_api.ts";
import { ScanApi } from "./scan_api.ts";
import { EntityApi } from "./entity_api.ts";
import { RelationshipApi } from "./relationship_api.ts";
import { SearchApi } from "./search_api.ts";
import { TypeDefApi } from "./types_api.ts";
import { WORKFLOW_API_VERSION, WorkflowApi } from "./workflow_api.ts";

/** Options of {@link CatalogClient.fromConfig} and {@link httpClientFromConfig}. */
export interface CatalogClientOptions {
  /**
   * Where diagnostics go (requests, retries); nothing is written without one. The client secret is registered
   * with it so it is masked.
   */
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
    baseUrls: {
      datamap: catalogUrl,
      account: catalogUrl,
      scan: catalogUrl,
      workflow: catalogUrl,
      unified: unifiedUrl,
    },
    apiVersions: {
      datamap: config.apiVersion,
      unified: config.unifiedApiVersion,
      account: "2019-11-01-preview",
      scan: "2023-09-01",
      workflow: WORKFLOW_API_VERSION,
    },
    tokens: options.tokens ?? createTokenProvider(config, { logger }),
    areaTokens: unifiedTokens ? { unified: unifiedTokens } : undefined,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutSeconds * 1000,
    rateLimit: config.rateLimit,
    maxResponseBytes: config.maxResponseBytes,
    maxRetryAfterMs: config.maxRetryWaitSeconds * 1000,
    requestDeadlineMs: config.requestDeadlineSeconds * 1000,
    pagingLimits: {
      maxPages: config.maxPages,
      maxItems: config.maxItems,
      maxMs: config.pagingTimeoutSeconds * 1000,
    },
    maxJsonDepth: config.maxJsonDepth,
    retryBaseMs: options.retryBaseMs,
    logger,
  });
}

/**
 * The data map, account and scanning APIs of one catalog account, grouped by area. Every area sends its
 * requests through the one {@link HttpClient} given: its base URLs and api-versions, bearer tokens, retries
 * with back-off on throttling and transient failures, and rate limit.
 *
 * Building a client sends nothing; the first request gets a token and talks to the account.
 *
 * @example Searching the catalog
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 *
 * const client = CatalogClient.fromConfig(loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }));
 *
 * // The qualified names of the tables whose names or descriptions mention `keyword`.
 * async function tablesAbout(keyword: string): Promise<string[]> {
 *   const page = await client.search.query({
 *     keywords: keyword,
 *     filter: { entityType: "azure_sql_table" },
 *     limit: 50,
 *   });
 *   return (page.value ?? []).map((item) => item.qualifiedName ?? "");
 * }
 * ```
 */
export class CatalogClient {
  /** The HTTP core shared by every area; use it for a call the client has no method for. */
  readonly http: HttpClient;
  /** The account's properties, access keys and resource set rules (account API). */
  readonly account: AccountApi;
  /**
   * Entities: read, create or update, delete, move, and their classifications, labels and business metadata.
   */
  readonly entity: EntityApi;
  /** Search, suggest, autocomplete and browse. */
  readonly search: SearchApi;
  /**
   * Type definitions: entity, classification, enum, relationship, struct, business metadata, term template.
   */
  readonly types: TypeDefApi;
  /** Relationships between two entities. */
  readonly relationships: RelationshipApi;
  /** The classic glossary: glossaries, categories, terms, term assignments, CSV import and export. */
  readonly glossary: GlossaryApi;
  /** Lineage of an entity, upstream and downstream. */
  readonly lineage: LineageApi;
  /** Collections of the account (account API). */
  readonly collections: CollectionsApi;
  /** Contact group definitions and contact assignments (account API 2023-10-01-preview). */
  readonly contacts: ContactsApi;
  /** Data sources, scans, runs, triggers, rulesets, credentials and integration runtimes (scanning API). */
  readonly scan: ScanApi;
  /** Collection roles: the metadata roles and each collection's metadata policy (policy store API). */
  readonly policies: PolicyApi;
  /** Workflows, their runs and tasks, approvals and user requests (workflow API). */
  readonly workflow: WorkflowApi;
  /** Data quality: rules of an asset, runs, outcomes and scores (data quality API). */
  readonly quality: QualityApi;

  /** A client whose every area sends its requests through `http`. */
  constructor(http: HttpClient) {
    this.http = http;
    this.account = new AccountApi(http);
    this.contacts = new ContactsApi(http);
    this.entity = new EntityApi(http);
    this.search = new SearchApi(http);
    this.types = new TypeDefApi(http);
    this.relationships = new RelationshipApi(http);
    this.glossary = new GlossaryApi(http);
    this.lineage = new LineageApi(http);
    this.collections = new CollectionsApi(http);
    this.scan = new ScanApi(http);
    this.policies = new PolicyApi(http);
    this.workflow = new WorkflowApi(http);
    this.quality = new QualityApi(http);
  }

  /**
   * A client for a configuration: the account's endpoints and api-versions, the credential it names,
   * retries, timeouts and limits. Nothing is sent until the first call.
   */
  static fromConfig(config: Config, options: CatalogClientOptions = {}): CatalogClient {
    return new CatalogClient(httpClientFromConfig(config, options));
  }
}
