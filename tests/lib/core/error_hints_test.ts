/**
 * The hint table (`lib/core/error_hints.ts`): one case per cause, every row reached by a case, paths mapped to
 * the right resource kind, and every command, operation and MCP tool a hint names existing.
 */
import assert from "node:assert/strict";
import {
  type FailureFacts,
  HINT_RULES,
  hintFor,
  hintRuleFor,
  type ResourceKind,
  resourceKindOf,
} from "../../../lib/core/error_hints.ts";
import { errorForStatus, hintForStatus } from "../../../lib/core/errors.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";

const DATAMAP = "http://127.0.0.1:8085/datamap/api/atlas/v2";
const CATALOG = "http://127.0.0.1:8085/catalog/api";
const UNIFIED = "http://127.0.0.1:8085/datagovernance/catalog";
const T = "8a7f65ec-6429-0b9b-3734-ec57bf1e34c2";
const E = "16feb2a1-2c79-ade1-338d-fb24fcb8b8bd";

/** Facts of a refusal and the cause the table must find for them. */
const CASES: Array<[FailureFacts, string]> = [
  // Data map: glossary.
  [{
    status: 400,
    method: "DELETE",
    url: `${DATAMAP}/glossary/term/${T}`,
    code: "ATLAS-400-00-086",
    message: `Term (guid=${T}) can't be deleted as it has been assigned to 1 entities.`,
  }, "term-assigned"],
  [{
    status: 409,
    method: "DELETE",
    url: `${CATALOG}/atlas/v2/glossary/term/${T}`,
    message: `Term (guid=${T}) can't be deleted as it has been assigned to 1 entities.`,
  }, "term-assigned"],
  [{
    status: 400,
    method: "DELETE",
    url: `${DATAMAP}/glossary/${T}`,
    code: "ATLAS-400-00-086",
    message: "Term (guid=x) can't be deleted as it has been assigned to 2 entities.",
  }, "term-assigned"],
  [{
    status: 400,
    method: "DELETE",
    url: `${DATAMAP}/glossary/terms/${T}/assignedEntities`,
    code: "ATLAS-400-00-080",
    message: `Given relationshipGuid(r) is invalid for term (guid=${T}) and entity(guid=${E})`,
  }, "assignment-missing"],
  [{
    status: 404,
    method: "POST",
    url: `${DATAMAP}/glossary/terms/${T}/assignedEntities`,
    code: "ATLAS-404-00-005",
    message: `Given instance guid ${T} is invalid/not found`,
  }, "assigned-term-not-found"],
  [{
    status: 404,
    method: "POST",
    url: `${DATAMAP}/glossary/terms/${T}/assignedEntities`,
    code: "ATLAS-404-00-005",
    message: `Given instance guid ${E} is invalid/not found`,
  }, "assigned-entity-not-found"],
  [{ status: 409, method: "POST", url: `${DATAMAP}/glossary`, code: "ATLAS-409-00-007" }, "glossary-exists"],
  [{ status: 409, method: "POST", url: `${DATAMAP}/glossary/term`, code: "ATLAS-409-00-009" }, "term-exists"],
  [
    { status: 409, method: "POST", url: `${DATAMAP}/glossary/terms`, message: "already exists" },
    "term-exists",
  ],
  [{
    status: 409,
    method: "POST",
    url: `${DATAMAP}/glossary/category`,
    code: "ATLAS-409-00-00A",
  }, "category-exists"],
  [{ status: 404, url: `${CATALOG}/glossary/terms/import/op-1?api-version=x` }, "term-import-not-found"],
  [{ status: 404, url: `${DATAMAP}/glossary/${T}` }, "glossary-not-found"],
  [{ status: 404, url: `${DATAMAP}/glossary/term/${T}` }, "glossary-not-found"],
  [{ status: 404, url: `${DATAMAP}/glossary/category/${T}/terms` }, "glossary-not-found"],
  [{ status: 404, method: "POST", url: `${CATALOG}/glossary/${T}/terms/import` }, "glossary-not-found"],
  // Data map: types, entities, relationships.
  [{
    status: 404,
    method: "DELETE",
    url: `${DATAMAP}/entity/guid/${E}/classification/PII`,
    code: "ATLAS-404-00-008",
  }, "classification-not-on-entity"],
  [{
    status: 404,
    url: `${DATAMAP}/entity/guid/${E}/classification/PII`,
    code: "ATLAS-404-00-003",
  }, "classification-not-on-entity"],
  [{ status: 404, method: "POST", url: `${DATAMAP}/entity`, code: "ATLAS-404-00-001" }, "type-not-found"],
  [{
    status: 404,
    method: "POST",
    url: "http://127.0.0.1:8085/datamap/api/navigate",
    code: "ATLAS-404-00-001",
    message: "Nothing is at itemPath /azure_sql_server/x: no asset of this name is at this level.",
  }, "navigate-path-not-found"],
  [{
    status: 404,
    method: "POST",
    url: `${DATAMAP}/entity/guid/${E}/classifications`,
    code: "ATLAS-404-00-008",
  }, "type-not-found"],
  [{ status: 404, method: "DELETE", url: `${DATAMAP}/types/typedef/name/X` }, "typedef-not-found"],
  [{
    status: 409,
    method: "POST",
    url: `${DATAMAP}/types/typedefs`,
    code: "ATLAS-409-00-001",
  }, "typedef-exists"],
  [{
    status: 409,
    method: "DELETE",
    url: `${DATAMAP}/types/typedef/name/X`,
    code: "ATLAS-409-00-002",
  }, "typedef-in-use"],
  [{
    status: 409,
    method: "POST",
    url: `${DATAMAP}/relationship`,
    code: "ATLAS-409-00-004",
  }, "relationship-exists"],
  [{
    status: 404,
    method: "PUT",
    url: `${DATAMAP}/relationship`,
    code: "ATLAS-400-00-06A",
  }, "relationship-fixed"],
  [{
    status: 404,
    url: `${DATAMAP}/relationship/guid/${E}`,
    code: "ATLAS-404-00-00C",
  }, "relationship-not-found"],
  [{
    status: 409,
    method: "POST",
    url: `${DATAMAP}/entity`,
    code: "ATLAS-409-00-003",
    message: "failed to update entity: azure_sql_table with qualifiedName mssql://s/d/t already exists",
  }, "entity-exists"],
  [{ status: 404, url: `${DATAMAP}/entity/guid/${E}`, code: "ATLAS-404-00-005" }, "entity-not-found"],
  [{ status: 404, url: `${DATAMAP}/lineage/${E}?direction=BOTH` }, "entity-not-found"],
  // Unified catalog.
  [{
    status: 409,
    method: "DELETE",
    url: `${UNIFIED}/businessdomains/${T}?api-version=2025-09-15-preview`,
    code: "Conflict",
    message:
      `The business domain 'Fin' (${T}) cannot be deleted: it still has 5 terms. Delete or move them first.`,
  }, "domain-not-empty"],
  [{
    status: 409,
    method: "DELETE",
    url: `${UNIFIED}/terms/${T}`,
    code: "Conflict",
    message: `The term 'Revenue' (${T}) cannot be deleted: it is the parent of 2 terms (A, B).`,
  }, "term-has-children"],
  [{
    status: 404,
    method: "DELETE",
    url: `${UNIFIED}/terms/${T}/relationships?entityId=${E}`,
    code: "EntityNotFound",
    message: `The relationship of term '${T}' with id '${E}' was not found.`,
  }, "term-relationship-not-found"],
  [{
    status: 400,
    method: "POST",
    url: `${UNIFIED}/terms`,
    code: "InvalidRequest",
    message: `domain '${T}' does not name an existing business domain. (target: domain)`,
  }, "domain-unknown"],
  ...([
    ["businessdomains", "domain"],
    ["terms", "term"],
    ["dataProducts", "dataproduct"],
    ["criticalDataElements", "cde"],
  ] as const).map(([path, word]): [FailureFacts, string] => [{
    status: 409,
    method: "POST",
    url: `${UNIFIED}/${path}`,
    code: "Conflict",
    message: "A thing named 'X' already exists (id 1).",
  }, `uc-${word}-exists`]),
  ...([
    ["businessdomains", "domain"],
    ["terms", "term"],
    ["dataProducts", "dataproduct"],
    ["criticalDataElements", "cde"],
    ["objectives", "objective"],
    [`objectives/${T}/keyResults`, "keyresult"],
    ["policies", "policy"],
  ] as const).map(([path, word]): [FailureFacts, string] => [{
    status: 404,
    method: "DELETE",
    url: `${UNIFIED}/${path}/${E}`,
    code: "EntityNotFound",
    message: `The ${word} with id '${E}' was not found. (target: id)`,
  }, `uc-${word}-not-found`]),
  // Collection roles.
  [{
    status: 404,
    method: "GET",
    url: "http://127.0.0.1:8085/policyStore/metadataPolicies?collectionName=nope",
    code: "CollectionNotFound",
    message: "Collection 'nope' does not exist.",
  }, "metadata-policy-not-found"],
  [{ status: 404, url: `${UNIFIED}/dataAssets/${T}`, code: "EntityNotFound" }, "uc-data-asset-not-found"],
  [{ status: 404, url: `${UNIFIED}/dataColumns/${T}` }, "uc-data-column-not-found"],
  [{
    status: 409,
    method: "POST",
    url: `${UNIFIED}/dataAssets`,
    message: "The Data Map asset 'm' already has data asset 'a'; update that one.",
  }, "uc-data-asset-exists"],
  // Any area, then the fallbacks of each status.
  [{
    status: 409,
    method: "POST",
    url: `${DATAMAP}/entity`,
    code: "ATLAS-409-00-003",
    message: "failed to update entity: conflicting change",
  }, "changed-meanwhile"],
  [
    { status: 412, method: "PUT", url: `${UNIFIED}/terms/${T}`, message: "ETag mismatch" },
    "changed-meanwhile",
  ],
  [{ status: 412, method: "PUT", url: `${UNIFIED}/terms/${T}` }, "precondition-failed"],
  [{ status: 400, method: "POST", url: `${DATAMAP}/entity`, code: "ATLAS-400-00-01A" }, "bad-request"],
  [{ status: 401 }, "unauthenticated"],
  [{ status: 403, method: "POST", url: `${DATAMAP}/entity` }, "forbidden-write"],
  [{ status: 403, method: "GET", url: `${DATAMAP}/entity/guid/${E}` }, "forbidden-read"],
  [{ status: 404, url: "http://127.0.0.1:8085/somewhere/else" }, "not-found"],
  [{ status: 409, method: "PUT", url: "http://127.0.0.1:8085/somewhere/else" }, "conflict"],
  [{ status: 409, method: "POST", url: `${UNIFIED}/objectives`, message: "Objective clash" }, "conflict"],
  [{ status: 429, url: `${DATAMAP}/search/query` }, "throttled"],
  [{ status: 503, url: `${UNIFIED}/terms` }, "server-failed"],
];

Deno.test("hint table: each case finds its cause, and every row is reached by a case", () => {
  const reached = new Set<string>();
  for (const [facts, cause] of CASES) {
    const rule = hintRuleFor(facts);
    assert.equal(
      rule?.cause,
      cause,
      `${facts.status} ${facts.method ?? "GET"} ${facts.url} ${facts.message}`,
    );
    assert.equal(hintFor(facts), rule?.hint);
    reached.add(cause);
  }
  const causes = HINT_RULES.map((rule) => rule.cause);
  assert.deepEqual(causes.filter((c, i) => causes.indexOf(c) !== i), [], "causes are unique");
  assert.deepEqual(causes.filter((c) => !reached.has(c)), [], "every row is reached by a case");
});

Deno.test("hint table: the observed wrong-way hints now point the right way", () => {
  const hint = (facts: FailureFacts) => hintFor(facts) ?? "";
  const unifiedTermDelete = hint({
    status: 404,
    method: "DELETE",
    url: `${UNIFIED}/terms/${T}`,
    code: "EntityNotFound",
    message: `The term with id '${T}' was not found. (target: id)`,
  });
  assert.match(unifiedTermDelete, /`govcat uc term list --domain-id=…`/);
  assert.doesNotMatch(unifiedTermDelete, /search_entities/);
  const typesDelete = hint({ status: 404, method: "DELETE", url: `${DATAMAP}/types/typedef/name/X` });
  assert.match(typesDelete, /`govcat types list-headers`/);
  assert.doesNotMatch(typesDelete, /search_entities/);
  const domainDelete = hint({
    status: 409,
    method: "DELETE",
    url: `${UNIFIED}/businessdomains/${T}`,
    message: "The business domain 'Fin' cannot be deleted: it still has 5 terms. Delete or move them first.",
  });
  assert.match(domainDelete, /delete them or move them/);
  assert.match(domainDelete, /`govcat uc term update --term-id=… --domain-id=<other>`/);
  assert.doesNotMatch(domainDelete, /read it again/);
  const createTypeDefs = hint({
    status: 409,
    method: "POST",
    url: `${DATAMAP}/types/typedefs`,
    code: "ATLAS-409-00-001",
    message: "Given type DataSet already exists",
  });
  assert.match(createTypeDefs, /exists already.*`govcat types updateTypeDefs --payload-file=…`/);
  assert.doesNotMatch(createTypeDefs, /read it again/);
  const assigned = hint({
    status: 400,
    method: "DELETE",
    url: `${DATAMAP}/glossary/term/${T}`,
    code: "ATLAS-400-00-086",
    message: `Term (guid=${T}) can't be deleted as it has been assigned to 1 entities.`,
  });
  assert.match(assigned, /`govcat glossary unassign-term --term-guid=… --entity-guids=…`/);
  assert.match(assigned, /invoke_operation glossary\.unassign-term/);
  assert.doesNotMatch(assigned, /request body/);
});

Deno.test("hint table: paths map to resource kinds under both data map prefixes and the unified catalog", () => {
  const kinds: Array<[string, ResourceKind | undefined]> = [
    [`${DATAMAP}/entity/guid/${E}`, "datamap.entity"],
    [`${CATALOG}/atlas/v2/entity/bulk?guid=${E}`, "datamap.entity"],
    [`${DATAMAP}/entity/uniqueAttribute/type/azure_sql_table`, "datamap.entity"],
    ["http://h/datamap/api/entity/moveTo?collectionId=c", "datamap.entity"],
    [`${DATAMAP}/lineage/${E}`, "datamap.lineage"],
    [`${DATAMAP}/relationship/guid/${E}`, "datamap.relationship"],
    [`${DATAMAP}/types/typedefs`, "datamap.typedef"],
    [`${DATAMAP}/types/businessmetadatadef/name/B`, "datamap.typedef"],
    [`${DATAMAP}/glossary`, "datamap.glossary"],
    [`${DATAMAP}/glossary/${T}/terms/headers`, "datamap.glossary"],
    [`${DATAMAP}/glossary/${T}/categories`, "datamap.glossary"],
    [`${DATAMAP}/glossary/categories`, "datamap.glossary-category"],
    [`${DATAMAP}/glossary/term/${T}/partial`, "datamap.glossary-term"],
    [`${DATAMAP}/glossary/terms/${T}/related`, "datamap.glossary-term"],
    [`${DATAMAP}/glossary/terms/${T}/assignedEntities`, "datamap.term-assignment"],
    [`${CATALOG}/glossary/terms/import/op`, "datamap.term-import"],
    [`${CATALOG}/glossary/${T}/terms/import`, "datamap.glossary"],
    ["http://h/datamap/api/search/query", "datamap.search"],
    [`${UNIFIED}/businessdomains/${T}`, "unified.domain"],
    [`${UNIFIED}/terms/${T}/relationships`, "unified.term"],
    [`${UNIFIED}/dataProducts`, "unified.dataproduct"],
    [`${UNIFIED}/criticalDataElements/${T}`, "unified.cde"],
    [`${UNIFIED}/objectives/${T}`, "unified.objective"],
    [`${UNIFIED}/objectives/${T}/keyResults/${E}`, "unified.keyresult"],
    [`${UNIFIED}/policies/${T}`, "unified.policy"],
    [`${UNIFIED}/dataAssets/${T}/relationships`, "unified.dataasset"],
    [`${UNIFIED}/dataColumns/query`, "unified.datacolumn"],
    ["/datagovernance/catalog/terms", "unified.term"],
    ["http://h/account/collections/c", undefined],
    ["http://h/policyStore/metadataPolicies/p", "account.metadata-policy"],
    ["http://h/policyStore/metadataRoles", "account.metadata-policy"],
    [undefined as unknown as string, undefined],
  ];
  for (const [url, kind] of kinds) assert.equal(resourceKindOf(url), kind, url);
});

Deno.test("hint table: every command, operation and MCP tool a hint names exists", () => {
  const registry = createOperationRegistry();
  const tools = new Set(ALL_TOOLS.map((tool) => tool.name));
  let commands = 0;
  for (const rule of HINT_RULES) {
    for (
      const [, group, first, second] of rule.hint.matchAll(
        /govcat ([a-z_]+) ([A-Za-z][\w-]*)(?: ([a-z][\w-]*))?/g,
      )
    ) {
      const command = group === "uc" ? `${first} ${second}` : first;
      assert.ok(registry.find(group, command), `${rule.cause}: "govcat ${group} ${command}" is no command`);
      commands++;
    }
    for (const [, id] of rule.hint.matchAll(/invoke_operation ([\w.-]+[\w])/g)) {
      assert.ok(registry.all().some((op) => op.id === id), `${rule.cause}: no operation ${id}`);
    }
    for (const [name] of rule.hint.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)) {
      assert.ok(tools.has(name), `${rule.cause}: no MCP tool ${name}`);
    }
  }
  assert.ok(commands > 40, `hints name commands (${commands} found)`);
});

Deno.test("hint table: errorForStatus uses it, a given hint wins, and hintForStatus is the status fallback", () => {
  const error = errorForStatus({
    status: 404,
    method: "DELETE",
    url: `${DATAMAP}/types/typedef/name/X`,
    code: "ATLAS-404-00-001",
    message: "Given typename X was invalid",
  });
  assert.match(error.hint ?? "", /govcat types list-headers/);
  assert.equal(errorForStatus({ status: 404, message: "x", hint: "mine" }).hint, "mine");
  assert.match(hintForStatus(404) ?? "", /search_entities/);
  assert.match(hintForStatus(403, "PUT") ?? "", /Data Curator/);
  assert.match(hintForStatus(403) ?? "", /Data Reader/);
  assert.match(hintForStatus(502) ?? "", /retry later/);
  assert.equal(hintForStatus(418), undefined);
});
