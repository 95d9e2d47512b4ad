/**
 * What `UnifiedCatalogClient` puts on the wire, against a scripted server: paths, the api-version on every
 * call, bodies with normalised enumerations, id repeated in PUT bodies, merge updates, nextLink following
 * with its origin guard, and which calls are retried.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { CatalogError, ServerError } from "../../../lib/core/errors.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";
import { json, type RecordedRequest, startLocalServer } from "../../support/local_server.ts";

const P = "/datagovernance/catalog";
const DOMAIN = "11111111-2222-3333-4444-555555555555";
const OWNER = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

function clientFor(url: string, env: Record<string, string> = {}): UnifiedCatalogClient {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: url,
    CATALOG_UNIFIED_ENDPOINT: url,
    ...env,
  });
  return UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 1 });
}

/** Answers like the service would: echo bodies, one entity on GET, a one-item list on collections. */
function echo(request: RecordedRequest): Response {
  if (request.method === "DELETE") return new Response(null, { status: 204 });
  const body = request.body ? JSON.parse(request.body) : undefined;
  if (request.path.endsWith("/count")) return json(200, { count: 2 });
  if (request.path.endsWith("/facets")) {
    return json(200, { facets: { status: [{ value: "Draft", count: 2 }] } });
  }
  if (request.path.endsWith("/query")) return json(200, { value: [{ id: "q1", name: "found" }] });
  if (request.path.endsWith("/relationships")) {
    return json(
      200,
      request.method === "POST" ? body : { value: [{ entityId: "x", relationshipType: "Synonym" }] },
    );
  }
  if (request.method === "GET") {
    const last = request.path.split("/").pop()!;
    if (
      /^(terms|businessdomains|dataProducts|criticalDataElements|objectives|keyResults|policies)$/.test(last)
    ) {
      return json(200, { value: [{ id: "e1", name: "one" }] });
    }
    return json(200, { id: last, name: "current", status: "DRAFT", domain: DOMAIN, description: "old" });
  }
  return json(request.method === "POST" ? 201 : 200, body);
}

async function withServer(
  handler: (request: RecordedRequest, index: number) => Response | Promise<Response>,
  test: (client: UnifiedCatalogClient, requests: RecordedRequest[], url: string) => Promise<void>,
) {
  const server = startLocalServer(handler);
  try {
    await test(clientFor(server.url), server.requests, server.url);
  } finally {
    await server.close();
  }
}

const sent = (request: RecordedRequest) => JSON.parse(request.body);

Deno.test("unified wire: create a term sends the normalised body with an id and the api-version", async () => {
  await withServer(echo, async (client, requests) => {
    const term = await client.terms.create({
      name: "Revenue",
      status: "published",
      domain: DOMAIN,
      contacts: { owner: [{ id: OWNER, description: "Finance lead" }] },
      custom: { kept: true },
    });
    assert.equal(term.status, "PUBLISHED");
    const [request] = requests;
    assert.equal(request.method, "POST");
    assert.equal(request.path, `${P}/terms`);
    assert.equal(new URLSearchParams(request.search).get("api-version"), "2025-09-15-preview");
    const body = sent(request);
    assert.equal(body.status, "PUBLISHED");
    assert.match(body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(body.custom, { kept: true });
  });
});

Deno.test("unified wire: every call carries the configured api-version", async () => {
  const server = startLocalServer(echo);
  try {
    const client = clientFor(server.url, { CATALOG_UNIFIED_API_VERSION: "2026-03-20-preview" });
    await client.domains.get("d1");
    await client.dataProducts.query({ status: "published" });
    await client.keyResults.delete("o1", "k1");
    for (const request of server.requests) {
      assert.equal(new URLSearchParams(request.search).get("api-version"), "2026-03-20-preview");
    }
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("unified wire: enumerations are normalised per kind and place", async () => {
  await withServer(echo, async (client, requests) => {
    await client.domains.create({ name: "Sales", type: "lineofbusiness", status: "Draft" });
    await client.dataProducts.create({
      name: "Orders",
      type: "masterdataandreferencedata",
      updateFrequency: "DAILY",
      audience: ["dataanalyst", "Executive"],
    });
    await client.criticalDataElements.create({ name: "Customer id", dataType: "text", status: "expired" });
    await client.objectives.create({ definition: "Grow", status: "closed" });
    await client.keyResults.create("o1", { domainId: DOMAIN, status: "ontrack", goal: 10 });
    await client.terms.query({ status: "PUBLISHED", multiStatus: ["draft", "expired"] });
    await client.objectives.facets({ status: "closed", facets: [{ name: "status" }] });
    const bodies = requests.map(sent);
    assert.deepEqual([bodies[0].type, bodies[0].status], ["LineOfBusiness", "DRAFT"]);
    assert.deepEqual(
      [bodies[1].type, bodies[1].updateFrequency, bodies[1].audience],
      ["MasterDataAndReferenceData", "Daily", ["DataAnalyst", "Executive"]],
    );
    assert.deepEqual([bodies[2].dataType, bodies[2].status], ["TEXT", "EXPIRED"]);
    assert.equal(bodies[3].status, "Closed");
    assert.equal(bodies[4].status, "OnTrack");
    assert.equal(requests[4].path, `${P}/objectives/o1/keyResults`);
    assert.deepEqual([bodies[5].status, bodies[5].multiStatus], ["Published", ["Draft", "Expired"]]);
    assert.equal(bodies[6].status, "Closed");
  });
});

Deno.test("unified wire: update is a PUT of the full body with the id; merge reads first", async () => {
  await withServer(echo, async (client, requests) => {
    await client.terms.update("t1", { name: "Revenue", status: "draft", domain: DOMAIN });
    assert.equal(requests[0].method, "PUT");
    assert.equal(requests[0].path, `${P}/terms/t1`);
    assert.equal(sent(requests[0]).id, "t1");
    await client.terms.update("t2", { description: "new" }, { merge: true });
    assert.deepEqual(requests.slice(1).map((r) => `${r.method} ${r.path}`), [
      `GET ${P}/terms/t2`,
      `PUT ${P}/terms/t2`,
    ]);
    assert.deepEqual(sent(requests[2]), {
      id: "t2",
      name: "current",
      status: "DRAFT",
      domain: DOMAIN,
      description: "new",
    });
    await client.policies.update("p1", { name: "policy", properties: { x: 1 } });
    assert.deepEqual(sent(requests[3]), { id: "p1", name: "policy", properties: { x: 1 } });
  });
});

Deno.test("unified wire: relationship calls, hierarchy, searches and deletes use the reference paths", async () => {
  await withServer(echo, async (client, requests) => {
    await client.terms.createRelationship("t1", { entityId: "t2", relationshipType: "synonym" }, {
      entityType: "term",
    });
    await client.terms.deleteRelationship("t1", {
      entityId: "t2",
      entityType: "Term",
      relationshipType: "SYNONYM",
    });
    const links = [];
    for await (const link of client.relationships.list("DATAPRODUCT", "dp1", { entityType: "dataasset" })) {
      links.push(link);
    }
    await client.terms.hierarchy("t1");
    await client.criticalDataElements.count({ nameKeyword: "Customer" });
    await client.dataProducts.facets({ facets: [{ name: "type" }] });
    await client.policies.delete("p1");
    assert.deepEqual(
      requests.map((r) =>
        `${r.method} ${r.path}${r.search.replace(/api-version=[^&]*&?/, "").replace(/\?$/, "")}`
      ),
      [
        `POST ${P}/terms/t1/relationships?entityType=TERM`,
        `DELETE ${P}/terms/t1/relationships?entityType=TERM&relationshipType=Synonym&entityId=t2`,
        `GET ${P}/dataProducts/dp1/relationships?entityType=DATAASSET`,
        `GET ${P}/terms/t1/hierarchies`,
        `POST ${P}/criticalDataElements/query/count`,
        `POST ${P}/dataProducts/facets`,
        `DELETE ${P}/policies/p1`,
      ],
    );
    assert.deepEqual(sent(requests[0]), { entityId: "t2", relationshipType: "Synonym" });
    assert.equal(links.length, 1);
  });
});

Deno.test("unified wire: list follows nextLink on the configured origin and keeps its query", async () => {
  await withServer((request) => {
    const next = `http://${request.headers.get("host")}${P}/terms?skip=2&top=2&domainId=d1&api-version=x`;
    if (!request.search.includes("skip=")) {
      return json(200, { value: [{ id: "a" }, { id: "b" }], nextLink: next });
    }
    return json(200, { value: [{ id: "c" }] });
  }, async (client, requests) => {
    const ids = [];
    for await (const term of client.terms.list({ top: 2, domainId: "d1" })) ids.push(term.id);
    assert.deepEqual(ids, ["a", "b", "c"]);
    const second = new URLSearchParams(requests[1].search);
    assert.equal(second.get("skip"), "2");
    assert.equal(second.get("domainId"), "d1");
    assert.deepEqual(second.getAll("api-version"), ["2025-09-15-preview"]);
    const page = await client.terms.listPage({ top: 2 });
    assert.equal(page.value.length, 2);
    assert.ok(page.nextLink);
  });
});

Deno.test("unified wire: a nextLink to another host or a repeated one stops with an error", async () => {
  await withServer(
    () =>
      json(200, {
        value: [{ id: "a" }],
        nextLink: "https://evil.example/datagovernance/catalog/terms?skip=1",
      }),
    async (client, requests) => {
      const seen: string[] = [];
      await assert.rejects(async () => {
        for await (const term of client.terms.list()) seen.push(term.id);
      }, (error: unknown) => error instanceof CatalogError && /evil\.example/.test(error.message));
      assert.deepEqual(seen, ["a"]);
      assert.equal(requests.length, 1);
    },
  );
  await withServer(
    () => json(200, { value: [{ id: "a" }], nextLink: `${P}/domains?$skipToken=same` }),
    async (client, requests) => {
      await assert.rejects(async () => {
        for await (const _ of client.domains.list()) { /* drain */ }
      }, /a second time/);
      assert.equal(requests.length, 2);
    },
  );
});

Deno.test("unified wire: creates are not repeated after a 503, searches are", async () => {
  await withServer(
    () => json(503, { error: { code: "ServiceUnavailable", message: "busy" } }),
    async (client, requests) => {
      await assert.rejects(client.terms.create({ name: "x", status: "draft", domain: DOMAIN }), ServerError);
      assert.equal(requests.length, 1);
      await assert.rejects(client.terms.query({}), ServerError);
      assert.ok(requests.length > 2, "the query was retried");
    },
  );
});
