/**
 * The rows of the hint table (see `error_hints.ts` for how a row is chosen): for each cause govcat
 * recognises, the hint that says what to do next. Specific causes come first, grouped by API area; the rows
 * without a kind at the end are the fallbacks of each status (401: sign in; 403: a role too low for a write;
 * 404: a wrong GUID or missing entity; 429: smaller batches or a pause; and so on).
 *
 * Hints name commands as users type them (`govcat glossary unassign-term …`) and, in `(MCP: …)`, the tool
 * a model calls, or `invoke_operation <operation id>` when no tool covers the command. Every command and
 * tool a hint names is checked against the registries by the tests.
 *
 * @module
 */
import { withArticle } from "./articles.ts";
import type { FailureFacts, HintRule, ResourceKind } from "./error_hints.ts";

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

const ENTITY_SEARCH = "Check the GUID or name; search_entities (or `govcat search query --keywords=…`) " +
  "finds entities.";
const GLOSSARY_NOT_FOUND = 'Check the GUID: "govcat glossary list" lists the glossaries, ' +
  '"govcat glossary read-terms-headers --glossary-guid=…" the terms of one and ' +
  '"govcat glossary read-categories-headers --glossary-guid=…" its categories (MCP: get_glossary_terms).';
const TYPE_NOT_FOUND = "Check the type name: `govcat types list-headers` lists every type definition with " +
  "its name, GUID and category (MCP: list_typedefs).";
const UNASSIGN_FIRST = "The term (its GUID is in the message) is still assigned to entities: remove " +
  "the assignments first with `govcat glossary unassign-term --term-guid=… --entity-guids=…` (MCP: " +
  "invoke_operation glossary.unassign-term); `govcat glossary read-terms-assigned-entities " +
  "--term-guid=…` lists them. Then delete again.";
const READ_AGAIN = "The resource changed since it was read: read it again and retry the change.";

/** The not-found row of a unified catalog kind: the list command that shows valid ids. */
function unifiedNotFound(kind: ResourceKind, word: string, label: string, find: string): HintRule {
  return {
    cause: `uc-${word}-not-found`,
    kinds: [kind],
    statuses: [404],
    hint: `Check the ${label} id: ${find}`,
  };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The duplicate-name row of a unified catalog kind. */
function unifiedExists(kind: ResourceKind, word: string, label: string, idOption: string): HintRule {
  return {
    cause: `uc-${word}-exists`,
    kinds: [kind],
    statuses: [409],
    said: { message: /already exists/i },
    hint: `${capitalized(withArticle(label))} with this name (or id) exists already: ` +
      `\`govcat uc ${word} list\` finds it and \`govcat uc ${word} update ${idOption}=…\` changes it.`,
  };
}

/** Whether the message names the id in the path's `terms/{id}/…` segment (the term, not an entity). */
function namesTermOfPath(facts: FailureFacts & { path: string }): boolean {
  const id = /\/terms\/([^/]+)\//.exec(facts.path)?.[1];
  return !!id && !!facts.message?.toLowerCase().includes(decodeURIComponent(id).toLowerCase());
}

/** The table: specific causes first, then the fallback of each status. */
export const HINT_RULES: readonly HintRule[] = [
  // ---- Data map: glossary ---------------------------------------------------------------------------
  {
    cause: "term-assigned",
    kinds: ["datamap.glossary-term", "datamap.glossary"],
    statuses: [400, 409],
    said: { code: /^ATLAS-400-00-086$/, message: /can'?t be deleted as it has been assigned/i },
    hint: UNASSIGN_FIRST,
  },
  {
    cause: "assignment-missing",
    kinds: ["datamap.term-assignment"],
    statuses: [400],
    said: { code: /^ATLAS-400-00-0(?:78|80)$/, message: /relationship ?guid/i },
    hint: "The entity does not carry this term: `govcat glossary read-terms-assigned-entities " +
      "--term-guid=…` lists the entities that do.",
  },
  {
    cause: "assigned-term-not-found",
    kinds: ["datamap.term-assignment"],
    statuses: [404],
    when: namesTermOfPath,
    hint: GLOSSARY_NOT_FOUND,
  },
  {
    cause: "assigned-entity-not-found",
    kinds: ["datamap.term-assignment"],
    statuses: [404],
    hint: ENTITY_SEARCH,
  },
  {
    cause: "glossary-exists",
    kinds: ["datamap.glossary"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-007$/, message: /already exists/i },
    hint: "A glossary of this name exists already (names are unique): `govcat glossary list` shows its " +
      "GUID, and `govcat glossary put --glossary-guid=…` changes it.",
  },
  {
    cause: "term-exists",
    kinds: ["datamap.glossary-term"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-009$/, message: /already exists/i },
    hint: "A term of this name exists already in the glossary: `govcat glossary read-terms-headers " +
      "--glossary-guid=…` shows its GUID (MCP: get_glossary_terms), and `govcat glossary put-term " +
      "--term-guid=…` changes it.",
  },
  {
    cause: "category-exists",
    kinds: ["datamap.glossary-category"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-00A$/, message: /already exists/i },
    hint: "A category of this name exists already under the same parent: `govcat glossary " +
      "read-categories-headers --glossary-guid=…` shows its GUID, and `govcat glossary put-category " +
      "--category-guid=…` changes it.",
  },
  {
    cause: "term-import-not-found",
    kinds: ["datamap.term-import"],
    statuses: [404],
    hint: "Check the operation id: `govcat glossary import-terms` prints it when it starts an import.",
  },
  {
    cause: "glossary-not-found",
    kinds: ["datamap.glossary", "datamap.glossary-term", "datamap.glossary-category"],
    statuses: [404],
    hint: GLOSSARY_NOT_FOUND,
  },

  // ---- Data map: type definitions, entities, relationships -------------------------------------------
  {
    // Reading or removing a classification the entity does not carry.
    cause: "classification-not-on-entity",
    kinds: ["datamap.entity"],
    statuses: [404],
    methods: ["GET", "DELETE"],
    said: { code: /^ATLAS-404-00-00[38]$/ },
    hint: "The entity does not carry that classification: `govcat entity list-classifications --guid=…` " +
      "lists those it does.",
  },
  {
    // POST /navigate (2024-03-01-preview) of an itemPath naming nothing: the level above says what is there.
    cause: "navigate-path-not-found",
    statuses: [404],
    when: ({ path }) => /\/navigate$/.test(path),
    hint: "Nothing is at that path: navigate the level above with `govcat search navigate --path=…` and " +
      "give one of its items' fullPath.",
  },
  {
    // Also what an entity write naming an unknown type or classification gets, whatever its path.
    cause: "type-not-found",
    statuses: [404],
    said: { code: /^ATLAS-404-00-00[128]$/ },
    hint: TYPE_NOT_FOUND,
  },
  { cause: "typedef-not-found", kinds: ["datamap.typedef"], statuses: [404], hint: TYPE_NOT_FOUND },
  {
    cause: "typedef-exists",
    kinds: ["datamap.typedef"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-001$/, message: /already exists/i },
    hint: "The type definition exists already: change it with `govcat types updateTypeDefs " +
      "--payload-file=…` (the same payload), or read it with `govcat types get-any --name=…` " +
      "(MCP: get_typedef).",
  },
  {
    cause: "typedef-in-use",
    kinds: ["datamap.typedef"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-00[25]$/, message: /has references|relationshipDefs/i },
    hint: "Entities, other type definitions or relationship definitions still use the type: delete or " +
      "change those first. `govcat search query --entity-type=…` finds its entities; `govcat types " +
      "list-headers` lists the definitions.",
  },
  {
    cause: "relationship-exists",
    kinds: ["datamap.relationship", "datamap.entity"],
    statuses: [409],
    said: { code: /^ATLAS-409-00-004$/, message: /relationship .* already exists/i },
    hint: "The two entities are related this way already: `govcat entity get --guid=…` shows the " +
      "entity's relationships with their GUIDs, and `govcat entity update-relationship --guid=…` changes one.",
  },
  {
    cause: "relationship-fixed",
    kinds: ["datamap.relationship"],
    statuses: [400, 404],
    said: { code: /^ATLAS-400-00-06[9A]$/, message: /is not permitted/i },
    hint: "A relationship's type and ends cannot change: delete it with `govcat entity " +
      "delete-relationship --guid=…` and create the one you want with `govcat entity create-relationship`.",
  },
  {
    cause: "relationship-not-found",
    kinds: ["datamap.relationship"],
    statuses: [404],
    said: { code: /^ATLAS-404-00-00C$/, message: /relationship guid/i },
    hint: "Check the relationship GUID: `govcat entity get --guid=…` shows an entity's relationships with " +
      "their GUIDs (MCP: get_entity); search_entities (or `govcat search query --keywords=…`) finds the " +
      "entity.",
  },
  {
    cause: "entity-exists",
    kinds: ["datamap.entity"],
    statuses: [409],
    said: { message: /qualifiedName .* already exists/i },
    hint: "An entity of this type and qualified name exists already: `govcat entity " +
      "get-by-unique-attribute --type-name=… --qualified-name=…` reads it; `govcat entity create` " +
      "updates it (it is a create or update).",
  },
  {
    cause: "entity-not-found",
    kinds: ["datamap.entity", "datamap.lineage", "datamap.relationship", "datamap.search"],
    statuses: [404],
    hint: ENTITY_SEARCH,
  },

  // ---- Unified catalog ---------------------------------------------------------------------------------
  {
    cause: "domain-not-empty",
    kinds: ["unified.domain"],
    statuses: [409],
    said: { message: /still has|not empty|contains/i },
    hint: "The governance domain still holds terms, data products, critical data elements, objectives or " +
      "child domains (the message says which): delete them or move them to another domain first. " +
      "`govcat uc term list --domain-id=…` lists its terms, `govcat uc term update --term-id=… " +
      "--domain-id=<other>` moves one and `govcat uc term delete --term-id=…` deletes one (MCP: " +
      "uc_list_terms); `govcat uc dataproduct list`, `govcat uc cde list` and `govcat uc objective list` " +
      "take --domain-id too, and `govcat uc domain list` shows the child domains (parentId).",
  },
  {
    cause: "term-has-children",
    kinds: ["unified.term"],
    statuses: [409],
    said: { message: /parent of/i },
    hint: "The term is the parent of other terms: delete them or give them another parent first. " +
      "`govcat uc term hierarchy --term-id=…` lists them, and `govcat uc term update --term-id=<child> " +
      "--parent-id=<other>` moves one.",
  },
  {
    cause: "term-relationship-not-found",
    kinds: ["unified.term"],
    statuses: [404],
    said: { message: /relationship/i },
    hint: "The term is not related to that entity: `govcat uc term relationships --term-id=…` lists what " +
      "it is related to.",
  },
  {
    cause: "domain-unknown",
    kinds: [
      "unified.term",
      "unified.dataproduct",
      "unified.cde",
      "unified.objective",
      "unified.keyresult",
    ],
    statuses: [400, 404],
    said: { message: /not name an existing business domain|domain .* (?:was )?not found/i },
    hint: "Check the domain id: `govcat uc domain list` lists the governance domains with their ids " +
      "(MCP: uc_list_domains).",
  },
  unifiedExists("unified.domain", "domain", "governance domain", "--domain-id"),
  unifiedExists("unified.term", "term", "term", "--term-id"),
  unifiedExists("unified.dataproduct", "dataproduct", "data product", "--data-product-id"),
  unifiedExists("unified.cde", "cde", "critical data element", "--cde-id"),
  unifiedNotFound(
    "unified.domain",
    "domain",
    "domain",
    "`govcat uc domain list` lists the governance domains with their ids (MCP: uc_list_domains).",
  ),
  unifiedNotFound(
    "unified.term",
    "term",
    "term",
    "`govcat uc term query --keyword=…` finds terms by name across domains and `govcat uc term list " +
      "--domain-id=…` lists one domain's terms (MCP: uc_search_terms, uc_list_terms).",
  ),
  unifiedNotFound(
    "unified.dataproduct",
    "dataproduct",
    "data product",
    "`govcat uc dataproduct list` lists the data products with their ids.",
  ),
  unifiedNotFound(
    "unified.cde",
    "cde",
    "critical data element",
    "`govcat uc cde list` lists the critical data elements with their ids.",
  ),
  unifiedNotFound(
    "unified.objective",
    "objective",
    "objective",
    "`govcat uc objective list` lists the objectives with their ids.",
  ),
  unifiedNotFound(
    "unified.keyresult",
    "keyresult",
    "objective or key result",
    "`govcat uc objective list` lists the objectives and `govcat uc keyresult list --objective-id=…` " +
      "the key results of one.",
  ),
  unifiedNotFound(
    "unified.policy",
    "policy",
    "policy",
    "`govcat uc policy list` lists the governance policies with their ids.",
  ),
  unifiedNotFound(
    "unified.dataasset",
    "data-asset",
    "data asset",
    "`govcat uc data-asset list` lists the data assets with their ids (MCP: uc_list_data_assets).",
  ),
  unifiedNotFound(
    "unified.datacolumn",
    "data-column",
    "data column",
    "`govcat uc data-column query --asset-id=<Data Map asset>` lists the data columns of an asset.",
  ),
  {
    cause: "uc-data-asset-exists",
    kinds: ["unified.dataasset"],
    statuses: [409],
    said: { message: /already has data asset/i },
    hint: "The Data Map asset already has a data asset (its id is in the message): `govcat uc data-asset " +
      "update --data-asset-id=…` changes it.",
  },

  // ---- Collection roles (policy store) -----------------------------------------------------------------
  {
    cause: "metadata-policy-not-found",
    kinds: ["account.metadata-policy"],
    statuses: [404],
    hint: "Check the collection's name (not its friendly name) with `govcat collections list` (MCP: " +
      "list_collections), or the policy id with `govcat policy list`.",
  },

  // ---- Any area ----------------------------------------------------------------------------------------
  {
    cause: "changed-meanwhile",
    statuses: [409, 412],
    said: { message: /conflicting change|changed since|modified since|etag|precondition/i },
    hint: READ_AGAIN,
  },
  { cause: "precondition-failed", statuses: [412], hint: READ_AGAIN },

  // ---- Fallbacks of each status -------------------------------------------------------------------------
  {
    cause: "bad-request",
    statuses: [400],
    hint: "Check the request body and parameters against the message above.",
  },
  {
    cause: "unauthenticated",
    statuses: [401],
    hint: "Log in with `az login` (or `azd auth login`), or set CLOUD_TENANT_ID, CLOUD_CLIENT_ID and " +
      "CLOUD_CLIENT_SECRET for a service principal; on Azure, managed identity is used automatically.",
  },
  {
    cause: "forbidden-write",
    statuses: [403],
    methods: WRITES,
    hint: "The identity lacks the Data Curator role on this collection; ask a collection admin to assign it.",
  },
  {
    cause: "forbidden-read",
    statuses: [403],
    hint: "The identity lacks the Data Reader role on this collection; ask a collection admin to assign it.",
  },
  { cause: "not-found", statuses: [404], hint: ENTITY_SEARCH },
  {
    cause: "conflict",
    statuses: [409],
    hint: "The request conflicts with the resource as it is now (the message above says how): if it " +
      "exists already, change it rather than create it; if it changed meanwhile, read it again and retry.",
  },
  {
    cause: "throttled",
    statuses: [429],
    hint:
      "The catalog is throttling: reduce CATALOG_BATCH_SIZE or CATALOG_RATE_LIMIT, or pause between calls.",
  },
  {
    cause: "server-failed",
    statuses: "5xx",
    hint: "The catalog failed; retry later. Quote the request id if you open a support case.",
  },
];
