/**
 * The unified catalog area of the emulator over real HTTP: CRUD of every kind, validation messages, list
 * paging through `nextLink`, query, facets and count, the term hierarchy, relationships seen from both
 * sides and their cleanup, and the refusal to delete a domain still in use.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { DEFAULT_UNIFIED_API_VERSION } from "../../../../lib/config/config.ts";
import { UNIFIED_DEFAULT_API_VERSION } from "../../../../lib/emulator/unified/area.ts";
import { call, type JsonReply, withEmulator } from "../emulator_test_helpers.ts";

const UC = "/datagovernance/catalog";
const V = "api-version=2025-09-15-preview";
const OWNER = "11111111-2222-4333-8444-555555555555";

function uc(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<JsonReply> {
  const sep = path.includes("?") ? "&" : "?";
  return call(emulator, method, `${UC}${path}${sep}${V}`, body);
}

async function domain(emulator: RunningEmulator, name: string): Promise<string> {
  const reply = await uc(emulator, "POST", "/businessdomains", { name, type: "functionalunit" });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

async function term(emulator: RunningEmulator, body: Record<string, unknown>): Promise<string> {
  const reply = await uc(emulator, "POST", "/terms", { status: "Draft", ...body });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.id;
}

Deno.test("unified catalog: domain and term CRUD with systemData and enum spellings", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await uc(emulator, "POST", "/businessdomains", {
      name: "Finance",
      type: "lineofbusiness",
    });
    assert.equal(created.status, 201);
    assert.match(created.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(created.body.type, "LineOfBusiness");
    assert.equal(created.body.status, "DRAFT");
    assert.ok(created.body.systemData.createdAt && created.body.systemData.lastModifiedBy);
    const domainId = created.body.id;

    const t = await uc(emulator, "POST", "/terms", {
      name: "Revenue",
      status: "published",
      domain: domainId,
      acronyms: ["REV"],
      contacts: { owner: [{ id: OWNER, description: "steward" }] },
    });
    assert.equal(t.status, 201);
    assert.equal(t.body.status, "PUBLISHED");
    assert.equal(t.body.isLeaf, true);
    const got = await uc(emulator, "GET", `/terms/${t.body.id}`);
    assert.equal(got.body.name, "Revenue");
    const updated = await uc(emulator, "PUT", `/terms/${t.body.id}`, {
      ...got.body,
      description: "Money in",
      status: "EXPIRED",
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.description, "Money in");
    assert.ok(updated.body.systemData.expiredAt);
    assert.equal(updated.body.systemData.createdAt, got.body.systemData.createdAt);

    const dup = await uc(emulator, "POST", "/terms", { name: "revenue", status: "DRAFT", domain: domainId });
    assert.equal(dup.status, 409);
    assert.match(dup.body.error.message, /already exists/);
    const count = await uc(emulator, "POST", "/terms/query/count", { nameKeyword: "REVENUE" });
    assert.deepEqual(count.body, { count: 1 });

    const refused = await uc(emulator, "DELETE", `/businessdomains/${domainId}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /still has 1 terms/);
    assert.equal((await uc(emulator, "DELETE", `/terms/${t.body.id}`)).status, 204);
    assert.equal((await uc(emulator, "GET", `/terms/${t.body.id}`)).status, 404);
    assert.equal((await uc(emulator, "DELETE", `/businessdomains/${domainId}`)).status, 204);
    assert.equal((await uc(emulator, "GET", `/businessdomains/${domainId}`)).status, 404);
  });
});

Deno.test("unified catalog: a call without api-version is answered with the default version", async () => {
  // Keayoub/pvw-cli sends none on its /datagovernance/catalog calls (purviewcli/client/_unified_catalog.py).
  assert.equal(UNIFIED_DEFAULT_API_VERSION, DEFAULT_UNIFIED_API_VERSION, "govcat's own client default");
  await withEmulator({}, async (emulator) => {
    for (const name of ["Sales", "Finance", "Marketing"]) {
      const created = await call(emulator, "POST", `${UC}/businessdomains`, { name, type: "FunctionalUnit" });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    const page = await call(emulator, "GET", `${UC}/businessdomains?top=2`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.value.length, 2);
    const next = new URL(page.body.nextLink);
    assert.equal(next.searchParams.get("api-version"), UNIFIED_DEFAULT_API_VERSION, "the version applied");
    const rest = await call(emulator, "GET", next.pathname + next.search);
    assert.equal(rest.status, 200);
    assert.equal(rest.body.value.length, 1);
    const empty = await call(emulator, "GET", `${UC}/businessdomains/${page.body.value[0].id}?api-version=`);
    assert.equal(empty.status, 200, "an empty api-version is a missing one");
  });
});

Deno.test("unified catalog: validation messages", async () => {
  await withEmulator({}, async (emulator) => {
    const badVersion = await call(emulator, "GET", `${UC}/terms?api-version=latest`);
    assert.equal(badVersion.status, 400);
    assert.equal(badVersion.body.error.code, "InvalidApiVersionParameter");

    const noDomain = await uc(emulator, "POST", "/terms", { name: "X", status: "DRAFT" });
    assert.equal(noDomain.status, 400);
    assert.equal(noDomain.body.error.target, "domain");
    const unknownDomain = await uc(emulator, "POST", "/terms", {
      name: "X",
      status: "DRAFT",
      domain: crypto.randomUUID(),
    });
    assert.equal(unknownDomain.status, 400);
    assert.match(unknownDomain.body.error.message, /does not name an existing business domain/);

    const domainId = await domain(emulator, "Sales");
    const email = await uc(emulator, "POST", "/terms", {
      name: "X",
      status: "DRAFT",
      domain: domainId,
      contacts: { owner: [{ id: "jane@contoso.com" }] },
    });
    assert.equal(email.status, 400);
    assert.equal(email.body.error.target, "contacts.owner[0].id");
    assert.match(email.body.error.message, /identity-provider \(Microsoft Entra ID\) object ID/);

    const status = await uc(emulator, "POST", "/terms", { name: "X", status: "Live", domain: domainId });
    assert.equal(status.status, 400);
    assert.match(status.body.error.message, /allowed values: DRAFT, PUBLISHED, EXPIRED/);
    const missingStatus = await uc(emulator, "POST", "/terms", { name: "X", domain: domainId });
    assert.equal(missingStatus.status, 400);
    assert.equal(missingStatus.body.error.target, "status");

    const objective = await uc(emulator, "POST", "/objectives", { definition: "Grow", domain: domainId });
    assert.equal(objective.status, 201);
    assert.equal(objective.body.status, "Draft");
    const kr = await uc(emulator, "POST", `/objectives/${objective.body.id}/keyResults`, { definition: "k" });
    assert.equal(kr.status, 400);
    assert.equal(kr.body.error.target, "domainId");
    const krStatus = await uc(emulator, "POST", `/objectives/${objective.body.id}/keyResults`, {
      definition: "k",
      domainId,
    });
    assert.equal(krStatus.status, 400);
    assert.match(krStatus.body.error.message, /NotTracked, OnTrack, Behind, AtRisk/);
  });
});

Deno.test("unified catalog: list paging follows nextLink; query, facets and count", async () => {
  await withEmulator({}, async (emulator) => {
    const a = await domain(emulator, "A");
    const b = await domain(emulator, "B");
    for (let i = 0; i < 5; i++) {
      await term(emulator, {
        name: `T${i}`,
        domain: i < 3 ? a : b,
        status: i % 2 === 0 ? "PUBLISHED" : "DRAFT",
        acronyms: i === 0 ? ["T0A"] : [],
        contacts: i < 2 ? { owner: [{ id: OWNER }] } : undefined,
      });
    }
    const first = await uc(emulator, "GET", "/terms?top=3&orderBy=name desc");
    assert.deepEqual(first.body.value.map((t: { name: string }) => t.name), ["T4", "T3", "T2"]);
    const next = new URL(first.body.nextLink);
    assert.equal(next.origin, emulator.url);
    assert.equal(next.searchParams.get("skip"), "3");
    const second = await call(emulator, "GET", next.pathname + next.search);
    assert.deepEqual(second.body.value.map((t: { name: string }) => t.name), ["T1", "T0"]);
    assert.equal(second.body.nextLink, undefined);

    const inA = await uc(emulator, "GET", `/terms?domainId=${a}`);
    assert.equal(inA.body.value.length, 3);

    const query = await uc(emulator, "POST", "/terms/query", { domainIds: [a], status: "Published" });
    assert.deepEqual(query.body.value.map((t: { name: string }) => t.name), ["T0", "T2"]);
    const multi = await uc(emulator, "POST", "/terms/query", { multiStatus: ["draft"], owners: [OWNER] });
    assert.deepEqual(multi.body.value.map((t: { name: string }) => t.name), ["T1"]);
    const acronyms = await uc(emulator, "POST", "/terms/query", { acronyms: ["t0a"] });
    assert.equal(acronyms.body.value.length, 1);
    const count = await uc(emulator, "POST", "/terms/query/count", { domainIds: [b] });
    assert.deepEqual(count.body, { count: 2 });

    const facets = await uc(emulator, "POST", "/terms/facets", {
      facets: [{ name: "status" }, { name: "domainId" }, { name: "owners" }],
    });
    assert.deepEqual(facets.body.facets.status, [{ value: "PUBLISHED", count: 3 }, {
      value: "DRAFT",
      count: 2,
    }]);
    assert.deepEqual(facets.body.facets.domainId, [{ value: a, count: 3 }, { value: b, count: 2 }]);
    assert.deepEqual(facets.body.facets.owners, [{ value: OWNER, count: 2 }]);
    const getFacets = await uc(emulator, "GET", `/terms/facets?facets=status`);
    assert.equal(getFacets.body.facets.status.length, 2);

    for (let i = 0; i < 3; i++) await domain(emulator, `D${i}`);
    const domains = await uc(emulator, "GET", "/businessdomains?top=4");
    assert.equal(domains.body.value.length, 4);
    const tokenUrl = new URL(domains.body.nextLink);
    assert.ok(tokenUrl.searchParams.get("$skipToken"));
    const rest = await call(emulator, "GET", tokenUrl.pathname + tokenUrl.search);
    assert.equal(rest.body.value.length, 1);
    assert.equal(rest.body.nextLink, undefined);
  });
});

Deno.test("unified catalog: data products, CDEs, objectives with key results, policies", async () => {
  await withEmulator({}, async (emulator) => {
    const d = await domain(emulator, "Ops");
    const dp = await uc(emulator, "POST", "/dataProducts", {
      name: "Orders",
      domain: d,
      type: "analytical",
      audience: ["dataanalyst"],
      updateFrequency: "daily",
    });
    assert.equal(dp.status, 201);
    assert.equal(dp.body.type, "Analytical");
    assert.deepEqual(dp.body.audience, ["DataAnalyst"]);
    const badType = await uc(emulator, "POST", "/dataProducts", { name: "X", domain: d, type: "Cube" });
    assert.equal(badType.status, 400);
    assert.match(badType.body.error.message, /allowed values: Master, Reference/);
    const dpFacets = await uc(emulator, "POST", "/dataProducts/facets", { facets: [{ name: "type" }] });
    assert.deepEqual(dpFacets.body.facets.type, [{ value: "Analytical", count: 1 }]);
    const put = await uc(emulator, "PUT", `/dataProducts/${dp.body.id}`, { ...dp.body, status: "Published" });
    assert.equal(put.body.status, "PUBLISHED");

    const cde = await uc(emulator, "POST", "/criticalDataElements", {
      name: "Amount",
      domain: d,
      dataType: "number",
    });
    assert.equal(cde.status, 201);
    assert.equal(cde.body.dataType, "NUMBER");
    assert.equal((await uc(emulator, "GET", `/criticalDataElements?keyword=amo`)).body.value.length, 1);

    const objective = await uc(emulator, "POST", "/objectives", { definition: "Grow", domain: d });
    const krPath = `/objectives/${objective.body.id}/keyResults`;
    const kr = await uc(emulator, "POST", krPath, {
      definition: "k1",
      domainId: d,
      status: "behind",
      goal: 10,
    });
    assert.equal(kr.status, 201);
    assert.equal(kr.body.status, "Behind");
    assert.equal((await uc(emulator, "GET", `${krPath}/${kr.body.id}`)).body.definition, "k1");
    const krPut = await uc(emulator, "PUT", `${krPath}/${kr.body.id}`, { ...kr.body, progress: 4 });
    assert.equal(krPut.body.progress, 4);
    assert.equal((await uc(emulator, "GET", krPath)).body.value.length, 1);
    const rollup = await uc(emulator, "GET", `/objectives/${objective.body.id}`);
    assert.equal(rollup.body.additionalProperties.keyResultsCount, 1);
    assert.equal(rollup.body.additionalProperties.overallStatus, "Behind");
    const closed = await uc(emulator, "PUT", `/objectives/${objective.body.id}`, { status: "closed" });
    assert.equal(closed.body.status, "Closed");
    assert.ok(closed.body.systemData.closedAt);
    assert.deepEqual((await uc(emulator, "POST", "/objectives/query/count", { definition: "grow" })).body, {
      count: 1,
    });
    assert.equal((await uc(emulator, "DELETE", `${krPath}/${kr.body.id}`)).status, 204);
    assert.equal((await uc(emulator, "GET", `${krPath}/${kr.body.id}`)).status, 404);

    const policies = await uc(emulator, "GET", "/policies");
    assert.equal(policies.body.value.length, 2);
    const policy = policies.body.value[0];
    const updatedPolicy = await uc(emulator, "PUT", `/policies/${policy.id}`, {
      ...policy,
      properties: { ...policy.properties, decisionRules: [{ effect: "Permit" }] },
    });
    assert.equal(updatedPolicy.status, 200);
    assert.equal(updatedPolicy.body.version, 2);
    assert.equal(
      (await uc(emulator, "GET", `/policies/${policy.id}`)).body.properties.decisionRules.length,
      1,
    );

    const refused = await uc(emulator, "DELETE", `/businessdomains/${d}`);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error.message, /1 data products, 1 critical data elements, 1 objectives/);
    for (
      const path of [
        `/dataProducts/${dp.body.id}`,
        `/criticalDataElements/${cde.body.id}`,
        `/objectives/${objective.body.id}`,
      ]
    ) {
      assert.equal((await uc(emulator, "DELETE", path)).status, 204);
    }
    assert.equal((await uc(emulator, "DELETE", `/businessdomains/${d}`)).status, 204);
    assert.equal((await uc(emulator, "GET", "/policies")).body.value.length, 0);
  });
});

Deno.test("unified catalog: term hierarchy, parent checks", async () => {
  await withEmulator({}, async (emulator) => {
    const d = await domain(emulator, "H");
    const other = await domain(emulator, "Other");
    const root = await term(emulator, { name: "Root", domain: d, status: "PUBLISHED" });
    const mid = await term(emulator, { name: "Mid", domain: d, parentId: root });
    const leaf = await term(emulator, { name: "Leaf", domain: d, parentId: mid, status: "PUBLISHED" });

    const h = await uc(emulator, "GET", `/terms/${mid}/hierarchies`);
    assert.equal(h.status, 200);
    assert.deepEqual(h.body.ancestors.map((n: { id: string }) => n.id), [root]);
    assert.deepEqual(h.body.children.map((n: { id: string }) => n.id), [leaf]);
    const tree = await uc(emulator, "GET", `/terms/hierarchy?domainId=${d}`);
    assert.equal(tree.body.value[0].children[0].children[0].id, leaf);
    const shallow = await uc(emulator, "GET", `/terms/hierarchy?domainId=${d}&maxDepth=1`);
    assert.deepEqual(shallow.body.value[0].children[0].children, []);
    const published = await uc(emulator, "GET", `/terms/hierarchy?domainId=${d}&includeDraft=false`);
    assert.deepEqual(published.body.value[0].children, []);
    assert.equal((await uc(emulator, "GET", `/terms/${root}`)).body.isLeaf, false);

    const cycle = await uc(emulator, "PUT", `/terms/${root}`, { parentId: leaf });
    assert.equal(cycle.status, 400);
    assert.match(cycle.body.error.message, /its own ancestor/);
    const crossDomain = await uc(emulator, "POST", "/terms", {
      name: "X",
      status: "DRAFT",
      domain: other,
      parentId: root,
    });
    assert.equal(crossDomain.status, 400);
    assert.equal(crossDomain.body.error.target, "parentId");
    assert.equal((await uc(emulator, "DELETE", `/terms/${root}`)).status, 409);
  });
});

Deno.test("unified catalog: relationships seen from both sides and removed with either end", async () => {
  await withEmulator({}, async (emulator) => {
    const d = await domain(emulator, "R");
    const a = await term(emulator, { name: "Client", domain: d });
    const b = await term(emulator, { name: "Customer", domain: d });
    const c = await term(emulator, { name: "Buyer", domain: d });
    const rel = await uc(emulator, "POST", `/terms/${a}/relationships?entityType=TERM`, {
      entityId: b,
      relationshipType: "synonym",
      description: "same thing",
    });
    assert.equal(rel.status, 201);
    assert.equal(rel.body.relationshipType, "Synonym");
    const fromB = await uc(emulator, "GET", `/terms/${b}/relationships?entityType=TERM`);
    assert.deepEqual(fromB.body.value.map((r: { entityId: string }) => r.entityId), [a]);
    const generic = await uc(emulator, "GET", `/terms/${a}/relationships?relationshipType=Synonym`);
    assert.equal(generic.body.value[0].entityId, b);
    const badType = await uc(emulator, "POST", `/terms/${a}/relationships`, {
      entityId: c,
      relationshipType: "Kin",
    });
    assert.equal(badType.status, 400);
    assert.match(badType.body.error.message, /Related, Synonym, Parent/);

    const dp = await uc(emulator, "POST", "/dataProducts", { name: "P", domain: d });
    const asset = crypto.randomUUID();
    const noType = await uc(emulator, "POST", `/dataProducts/${dp.body.id}/relationships`, {
      entityId: asset,
    });
    assert.equal(noType.status, 400);
    assert.equal(noType.body.error.target, "entityType");
    assert.equal(
      (await uc(emulator, "POST", `/dataProducts/${dp.body.id}/relationships?entityType=DATAASSET`, {
        entityId: asset,
      }))
        .status,
      201,
    );
    assert.equal(
      (await uc(emulator, "POST", `/dataProducts/${dp.body.id}/relationships?entityType=TERM`, {
        entityId: c,
      })).status,
      201,
    );
    assert.equal(
      (await uc(emulator, "GET", `/dataProducts/${dp.body.id}`)).body.additionalProperties.assetCount,
      1,
    );
    const assetSide = await uc(emulator, "GET", `/dataAssets/${asset}/relationships`);
    assert.deepEqual(assetSide.body.value.map((r: { entityId: string }) => r.entityId), [dp.body.id]);
    const termSide = await uc(emulator, "GET", `/terms/${c}/relationships?entityType=DATAPRODUCT`);
    assert.equal(termSide.body.value.length, 1);

    const cde = await uc(emulator, "POST", "/criticalDataElements", { name: "E", domain: d });
    assert.equal(
      (await uc(emulator, "POST", `/criticalDataElements/${cde.body.id}/relationships?entityType=TERM`, {
        entityId: c,
      })).status,
      201,
    );
    assert.equal(
      (await uc(
        emulator,
        "DELETE",
        `/criticalDataElements/${cde.body.id}/relationships?entityType=TERM&entityId=${c}`,
      ))
        .status,
      204,
    );
    assert.equal(
      (await uc(emulator, "GET", `/terms/${c}/relationships?entityType=CRITICALDATAELEMENT`)).body.value
        .length,
      0,
    );

    // Deleting either end removes the relationship; the path form of the term delete works too.
    assert.equal((await uc(emulator, "DELETE", `/terms/${b}`)).status, 204);
    assert.equal((await uc(emulator, "GET", `/terms/${a}/relationships`)).body.value.length, 0);
    assert.equal((await uc(emulator, "DELETE", `/terms/${c}/relationships/${dp.body.id}`)).status, 204);
    assert.equal((await uc(emulator, "DELETE", `/terms/${c}/relationships/${dp.body.id}`)).status, 404);
    assert.equal((await uc(emulator, "DELETE", `/dataProducts/${dp.body.id}`)).status, 204);
    assert.equal((await uc(emulator, "GET", `/dataAssets/${asset}/relationships`)).body.value.length, 0);
  });
});
