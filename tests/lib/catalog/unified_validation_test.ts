/**
 * Input checks of `UnifiedCatalogClient` that fail before anything is sent, and the operation list of the
 * specification (48, each a callable client method).
 */
import assert from "node:assert/strict";
import { UsageError } from "../../../lib/core/errors.ts";
import { HttpClient } from "../../../lib/http/client.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";
import { nextPageRequest } from "../../../lib/catalog/unified_paging.ts";
import {
  UNIFIED_CATALOG_EXTRA_OPERATIONS,
  UNIFIED_CATALOG_OPERATIONS,
} from "../../../lib/catalog/unified_operations.ts";

// Port 9 on loopback: nothing listens; a request that slipped through validation would fail differently.
const client = new UnifiedCatalogClient(
  new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:9" }, maxRetries: 0 }),
);
const DOMAIN = "11111111-2222-3333-4444-555555555555";

async function usage(promise: Promise<unknown>, pattern: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected UsageError, got ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("unified validation: a term needs name, status and domain", async () => {
  // deno-lint-ignore no-explicit-any
  await usage(client.terms.create({} as any), /name is required.*status .*domain is required/);
  await usage(
    client.terms.create({ name: "x", status: "approved", domain: DOMAIN }),
    /status must be one of DRAFT/,
  );
});

Deno.test("unified validation: contact ids must be Entra ID object ids, not e-mail addresses", async () => {
  await usage(
    client.terms.create({
      name: "x",
      status: "draft",
      domain: DOMAIN,
      contacts: { owner: [{ id: "ann@contoso.com" }] },
    }),
    /owner_id\/contacts\.owner\[0\]\.id must be an identity-provider \(Entra ID\) object ID \(a GUID\), not an e-mail address/,
  );
  await usage(
    client.dataProducts.create({ name: "x", contacts: { expert: [{ id: "nope" }] } }),
    /contacts\.expert\[0\]\.id must be an identity-provider/,
  );
});

Deno.test("unified validation: enumerations name the field and the allowed values", async () => {
  await usage(client.domains.create({ name: "x", type: "team" }), /type must be one of FunctionalUnit/);
  await usage(client.dataProducts.create({ name: "x", audience: ["cfo"] }), /audience\[0\] must be one of/);
  await usage(
    client.criticalDataElements.create({ name: "x", dataType: "json" }),
    /dataType must be one of TEXT/,
  );
  await usage(
    client.objectives.create({ definition: "x", status: "expired" }),
    /status must be one of Draft, Published, Closed/,
  );
  await usage(
    client.keyResults.create("o1", { domainId: DOMAIN, status: "done" }),
    /status must be one of NotTracked/,
  );
  await usage(client.terms.query({ status: "gone" }), /status must be one of Draft, Published, Expired/);
  await usage(
    client.terms.createRelationship("t1", { entityId: "t2", relationshipType: "cousin" }, {
      entityType: "TERM",
    }),
    /relationshipType must be one of Related/,
  );
  await usage(
    client.terms.createRelationship("t1", { entityId: "t2" }, { entityType: "planet" }),
    /entityType must be one of DOMAIN/,
  );
  await usage(client.relationships.list("objectives", "o1").next(), /has no relationships/);
});

Deno.test("unified validation: a PUT without merge needs the full body; ids must not be empty", async () => {
  await usage(client.terms.update("t1", { description: "only this" }), /name is required/);
  await usage(client.terms.get(" "), /term id is required/);
  await usage(client.keyResults.get("", "k1"), /objectiveId is required/);
});

Deno.test("unified paging: nextPageRequest keeps path and query and refuses other origins", () => {
  const base = "http://127.0.0.1:1234";
  assert.deepEqual(
    nextPageRequest(base, `${base}/datagovernance/catalog/terms?skip=5&api-version=v&ids=a&ids=b`),
    {
      path: "/datagovernance/catalog/terms",
      query: { skip: "5", ids: ["a", "b"] },
    },
  );
  assert.equal(nextPageRequest(base, "/datagovernance/catalog/policies?skipToken=t").query?.skipToken, "t");
  assert.throws(
    () => nextPageRequest(base, "http://127.0.0.1:9999/datagovernance/catalog/terms"),
    /not the configured/,
  );
  assert.throws(() => nextPageRequest("https://h.example/base", "https://h.example/other?x=1"), /base path/);
});

Deno.test("unified operations: exactly the 48 of the specification, each a callable method", () => {
  assert.equal(UNIFIED_CATALOG_OPERATIONS.length, 48);
  const groups: Record<string, number> = {};
  for (const operation of UNIFIED_CATALOG_OPERATIONS) {
    groups[operation.group] = (groups[operation.group] ?? 0) + 1;
  }
  assert.deepEqual(groups, {
    "terms": 7,
    "domains": 5,
    "data products": 7,
    "critical data elements": 7,
    "objectives": 5,
    "key results": 5,
    "policies": 4,
    "facets": 4,
    "hierarchies": 1,
    "related entities": 3,
  });
  const names = new Set(UNIFIED_CATALOG_OPERATIONS.map((operation) => operation.name));
  assert.equal(names.size, 48, "no operation is listed twice");
  for (const operation of [...UNIFIED_CATALOG_OPERATIONS, ...UNIFIED_CATALOG_EXTRA_OPERATIONS]) {
    const [area, method] = operation.name.split(".");
    const target = (client as unknown as Record<string, Record<string, unknown>>)[area];
    assert.equal(typeof target?.[method], "function", `${operation.name} is a client method`);
  }
});
