/**
 * `client.policies` over real HTTP: against the emulator (roles across the service's trailing nextLink, a
 * collection's policy, get and update with the version rising), and against a scripted server for what the
 * emulator never does (a nextLink naming another host, a nextLink that loops).
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { POLICY_API_VERSION } from "../../../lib/catalog/policy_api.ts";
import { roleMembers, withMember } from "../../../lib/catalog/policy_members.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { NotFoundError, PagingError } from "../../../lib/core/errors.ts";
import { json, withLocalServer } from "../../support/local_server.ts";

const CURATOR = "purviewmetadatarole_builtin_data-curator";
const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";

function clientFor(url: string): CatalogClient {
  return CatalogClient.fromConfig(loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url }), {
    retryBaseMs: 5,
  });
}

Deno.test("policies: roles, a collection's policy, get and update against the emulator", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const client = clientFor(emulator.url);
    const roles = await client.policies.listRoles();
    assert.equal(roles.length, 4);
    const sales = await client.policies.forCollection("Sales");
    assert.equal(sales.properties?.collection?.referenceName, "sales");
    assert.deepEqual(await client.policies.get(sales.id!), sales);
    const stored = await client.policies.update(sales.id!, withMember(sales, CURATOR, ALICE).policy);
    assert.equal(stored.version, 2);
    assert.deepEqual(roleMembers(stored).get(CURATOR), [ALICE]);
    assert.equal((await client.policies.listPolicies()).length, 7, "one per seeded collection");
    await assert.rejects(client.policies.forCollection("nosuchcollection"), NotFoundError);
  } finally {
    await emulator.close();
  }
});

Deno.test("policies: a nextLink's query is sent to the configured endpoint, never to the host it names", async () => {
  await withLocalServer(
    (request) =>
      request.search.includes("skipToken=t2")
        ? json(200, { values: [{ id: "purviewmetadatarole_builtin_purview-reader" }] })
        : json(200, {
          values: [{ id: "purviewmetadatarole_builtin_data-curator" }],
          nextLink: "https://elsewhere.example/policyStore/metadataRoles?api-version=2021-07-01&skipToken=t2",
        }),
    async (server) => {
      const roles = await clientFor(server.url).policies.listRoles();
      assert.deepEqual(roles.map((role) => role.id), [
        "purviewmetadatarole_builtin_data-curator",
        "purviewmetadatarole_builtin_purview-reader",
      ]);
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[1].path, "/policyStore/metadataRoles");
      const query = new URLSearchParams(server.requests[1].search);
      assert.equal(query.get("skipToken"), "t2");
      assert.deepEqual(
        query.getAll("api-version"),
        [POLICY_API_VERSION],
        "the client's own api-version, once",
      );
    },
  );
});

Deno.test("policies: a nextLink that leads back to itself stops with a paging error", async () => {
  await withLocalServer(
    (_request, index) =>
      json(200, {
        values: [{ id: `policy-${index}` }],
        nextLink: "/policyStore/metadataPolicies?skipToken=same",
      }),
    async (server) => {
      await assert.rejects(clientFor(server.url).policies.listPolicies(), PagingError);
      assert.ok(server.requests.length <= 3, `${server.requests.length} requests`);
    },
  );
});
