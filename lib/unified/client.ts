/**
 * `UnifiedCatalogClient`: the unified catalog (data governance) API — terms, governance domains, data
 * products, critical data elements, objectives with their key results, policies, and relationships —
 * typed with zod and sent through the shared {@link HttpClient} (`area: "unified"`: its base URL and
 * api-version, tokens, retries and rate limit).
 *
 * @example
 * ```ts
 * import { UnifiedCatalogClient } from "./client.ts";
 * import { loadConfig } from "../config.ts";
 * const url = "http://127.0.0.1:8085";
 * const client = UnifiedCatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_UNIFIED_ENDPOINT: url }),
 * );
 * const domain = await client.domains.create({ name: "Finance", type: "FunctionalUnit" });
 * const term = await client.terms.create({ name: "Revenue", status: "draft", domain: domain.id });
 * for await (const each of client.terms.list({ domainId: domain.id })) console.log(each.name);
 * ```
 *
 * @module
 */
import { type CatalogClientOptions, httpClientFromConfig } from "../catalog/client.ts";
import type { Config } from "../config.ts";
import type { HttpClient } from "../http.ts";
import { OBJECTIVE_STATUSES } from "./enums.ts";
import { KeyResultsApi, TermsApi } from "./kinds.ts";
import { RelatedResource, RelationshipsApi } from "./relationships.ts";
import { UnifiedResource } from "./resource.ts";
import {
  type CriticalDataElement,
  type CriticalDataElementInput,
  criticalDataElementInputSchema,
  criticalDataElementSchema,
  type DataProduct,
  type DataProductInput,
  dataProductInputSchema,
  dataProductSchema,
  type Domain,
  type DomainInput,
  domainInputSchema,
  domainSchema,
  type Objective,
  type ObjectiveInput,
  objectiveInputSchema,
  objectiveSchema,
  type Policy,
  type PolicyInput,
  policyInputSchema,
  policySchema,
  termInputSchema,
  termSchema,
} from "./schemas.ts";

/** The unified catalog API of one tenant, grouped by kind. */
export class UnifiedCatalogClient {
  readonly http: HttpClient;
  readonly terms: TermsApi;
  readonly domains: UnifiedResource<Domain, DomainInput>;
  readonly dataProducts: RelatedResource<DataProduct, DataProductInput>;
  readonly criticalDataElements: RelatedResource<CriticalDataElement, CriticalDataElementInput>;
  readonly objectives: UnifiedResource<Objective, ObjectiveInput>;
  readonly keyResults: KeyResultsApi;
  /** Policies: `list`, `get`, `update` (PUT of the full policy) and `delete`. */
  readonly policies: UnifiedResource<Policy, PolicyInput>;
  /** Relationships addressed by kind and id (`/{entityType}/{entityId}/relationships`). */
  readonly relationships: RelationshipsApi;

  constructor(http: HttpClient) {
    this.http = http;
    this.terms = new TermsApi(http, {
      kind: "term",
      collection: "terms",
      entitySchema: termSchema,
      inputSchema: termInputSchema,
    });
    this.domains = new UnifiedResource(http, {
      kind: "domain",
      collection: "businessdomains",
      entitySchema: domainSchema,
      inputSchema: domainInputSchema,
    });
    this.dataProducts = new RelatedResource(http, {
      kind: "data product",
      collection: "dataProducts",
      entitySchema: dataProductSchema,
      inputSchema: dataProductInputSchema,
    });
    this.criticalDataElements = new RelatedResource(http, {
      kind: "critical data element",
      collection: "criticalDataElements",
      entitySchema: criticalDataElementSchema,
      inputSchema: criticalDataElementInputSchema,
    });
    this.objectives = new UnifiedResource(http, {
      kind: "objective",
      collection: "objectives",
      entitySchema: objectiveSchema,
      inputSchema: objectiveInputSchema,
      filterStatuses: OBJECTIVE_STATUSES,
    });
    this.keyResults = new KeyResultsApi(http);
    this.policies = new UnifiedResource(http, {
      kind: "policy",
      collection: "policies",
      entitySchema: policySchema,
      inputSchema: policyInputSchema,
    });
    this.relationships = new RelationshipsApi(http);
  }

  /** A client for a configuration: the unified base URL, api-version, credential and limits. */
  static fromConfig(config: Config, options: CatalogClientOptions = {}): UnifiedCatalogClient {
    return new UnifiedCatalogClient(httpClientFromConfig(config, options));
  }
}
