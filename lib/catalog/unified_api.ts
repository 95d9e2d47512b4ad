/**
 * `UnifiedCatalogClient`: the unified catalog (data governance) API — terms, governance domains, data
 * products, critical data elements, objectives with their key results, policies, relationships, and the
 * 2026-03-20-preview data assets and data columns —
 * typed with zod and sent through the shared {@link HttpClient} (`area: "unified"`: its base URL and
 * api-version, tokens, retries and rate limit).
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * async function financeGlossary(): Promise<void> {
 *   const domain = await client.domains.create({ name: "Finance", type: "FunctionalUnit" });
 *   const term = await client.terms.create({ name: "Revenue", status: "draft", domain: domain.id });
 *   for await (const each of client.terms.list({ domainId: domain.id })) console.log(each.name);
 * }
 * ```
 *
 * @module
 */
import { type CatalogClientOptions, httpClientFromConfig } from "./client.ts";
import { type Config, DEFAULT_UNIFIED_ASSETS_API_VERSION } from "../config/config.ts";
import type { HttpClient } from "../http/client.ts";
import { DataAssetsApi, DataColumnsApi } from "./unified_data_assets.ts";
import { OBJECTIVE_STATUSES } from "./unified_enums.ts";
import { KeyResultsApi, TermsApi } from "./unified_kinds.ts";
import { RelatedResource, RelationshipsApi } from "./unified_relationships.ts";
import { UnifiedResource } from "./unified_resource.ts";
import type { Policy, PolicyInput } from "./unified_policy_schemas.ts";
import type { Objective, ObjectiveInput } from "./unified_okr_schemas.ts";
import type {
  CriticalDataElement,
  CriticalDataElementInput,
  DataProduct,
  DataProductInput,
} from "./unified_product_schemas.ts";
import type { Domain, DomainInput } from "./unified_domain_schemas.ts";

/**
 * The unified catalog (data governance) API of one tenant, grouped by kind. Inputs are checked before they
 * are sent, with enumerations accepted in any letter case and sent in the service's spelling; answers are
 * checked too, and fields this version does not know are kept. Lists follow `nextLink` on the configured
 * origin only.
 *
 * Building a client sends nothing; the first request gets a token and talks to the service.
 *
 * @example Publishing a glossary term in a new governance domain
 * ```ts
 * import { UnifiedCatalogClient } from "./unified_api.ts";
 * import { loadConfig } from "../config/config.ts";
 *
 * const client = UnifiedCatalogClient.fromConfig(loadConfig({ CATALOG_ACCOUNT_NAME: "contoso" }));
 *
 * async function publishTerm(domainName: string, termName: string): Promise<string> {
 *   const domain = await client.domains.create({ name: domainName, type: "functionalunit" });
 *   const term = await client.terms.create({ name: termName, status: "published", domain: domain.id });
 *   return term.id;
 * }
 * ```
 */
export class UnifiedCatalogClient {
  /** The HTTP core shared by every kind; use it for a call the client has no method for. */
  readonly http: HttpClient;
  /** Glossary terms: the generic calls, relationships and a term's hierarchy. */
  readonly terms: TermsApi;
  /** Governance domains. */
  readonly domains: UnifiedResource<Domain, DomainInput>;
  /** Data products, with their relationships (to data assets, terms, ...). */
  readonly dataProducts: RelatedResource<DataProduct, DataProductInput>;
  /** Critical data elements, with their relationships. */
  readonly criticalDataElements: RelatedResource<CriticalDataElement, CriticalDataElementInput>;
  /** Objectives (OKRs); their status is `Draft`, `Published` or `Closed`. */
  readonly objectives: UnifiedResource<Objective, ObjectiveInput>;
  /** Key results, each addressed under its objective. */
  readonly keyResults: KeyResultsApi;
  /** Policies: `list`, `get`, `update` (PUT of the full policy) and `delete`. */
  readonly policies: UnifiedResource<Policy, PolicyInput>;
  /** Relationships addressed by kind and id (`/{entityType}/{entityId}/relationships`). */
  readonly relationships: RelationshipsApi;
  /** Data assets made from Data Map assets, with their relationships (api-version 2026-03-20-preview). */
  readonly dataAssets: DataAssetsApi;
  /** Data columns ingested from the Data Map, with their relationships (api-version 2026-03-20-preview). */
  readonly dataColumns: DataColumnsApi;

  /**
   * A client whose every kind sends its requests through `http` (`area: "unified"`); the data asset and
   * data column calls send `options.assetsApiVersion` instead of the area's api-version.
   */
  constructor(http: HttpClient, options: { assetsApiVersion?: string } = {}) {
    this.http = http;
    this.terms = new TermsApi(http, {
      kind: "term",
      collection: "terms",
      schemas: (s) => ({ entity: s.termSchema, input: s.termInputSchema }),
    });
    this.domains = new UnifiedResource(http, {
      kind: "domain",
      collection: "businessdomains",
      schemas: (s) => ({ entity: s.domainSchema, input: s.domainInputSchema }),
    });
    this.dataProducts = new RelatedResource(http, {
      kind: "data product",
      collection: "dataProducts",
      schemas: (s) => ({ entity: s.dataProductSchema, input: s.dataProductInputSchema }),
    });
    this.criticalDataElements = new RelatedResource(http, {
      kind: "critical data element",
      collection: "criticalDataElements",
      schemas: (s) => ({ entity: s.criticalDataElementSchema, input: s.criticalDataElementInputSchema }),
    });
    this.objectives = new UnifiedResource(http, {
      kind: "objective",
      collection: "objectives",
      schemas: (s) => ({ entity: s.objectiveSchema, input: s.objectiveInputSchema }),
      filterStatuses: OBJECTIVE_STATUSES,
    });
    this.keyResults = new KeyResultsApi(http);
    this.policies = new UnifiedResource(http, {
      kind: "policy",
      collection: "policies",
      schemas: (s) => ({ entity: s.policySchema, input: s.policyInputSchema }),
    });
    this.relationships = new RelationshipsApi(http);
    const assetsApiVersion = options.assetsApiVersion ?? DEFAULT_UNIFIED_ASSETS_API_VERSION;
    this.dataAssets = new DataAssetsApi(http, assetsApiVersion);
    this.dataColumns = new DataColumnsApi(http, assetsApiVersion);
  }

  /** A client for a configuration: the unified base URL, api-version, credential and limits. */
  static fromConfig(config: Config, options: CatalogClientOptions = {}): UnifiedCatalogClient {
    return new UnifiedCatalogClient(httpClientFromConfig(config, options), {
      assetsApiVersion: config.unifiedAssetsApiVersion,
    });
  }
}
