/** Which role a request needs on which collection, and who holds a role on a collection (inherited or not). */
import assert from "node:assert/strict";
import { withMember } from "../../../lib/catalog/policy_members.ts";
import type { MetadataPolicy } from "../../../lib/catalog/policy_types.ts";
import { holdsRole } from "../../../lib/emulator/collection_permissions.ts";
import {
  type NeedLookups,
  permissionNeeded,
  permissionsNeeded,
} from "../../../lib/emulator/permission_needs.ts";
import { defaultRules, ROLE_IDS } from "../../../lib/emulator/policy/defaults.ts";

const LOOKUPS: NeedLookups = {
  root: "emulator",
  collectionExists: (name) => ["emulator", "sales", "team-a"].includes(name),
  entityCollection: (guid) => guid === "g-1" ? "finance" : undefined,
  policyCollection: (id) => id === "p-sales" ? "sales" : undefined,
  dataSourceCollection: (name) => name === "sql-1" ? "marketing" : undefined,
};

async function need(method: string, path: string, body?: unknown) {
  const facts = { method, url: new URL(`http://127.0.0.1:1${path}`), body: () => Promise.resolve(body) };
  const found = await permissionNeeded(facts, LOOKUPS);
  return `${found.roleId.replace("purviewmetadatarole_builtin_", "")} on ${found.collection}`;
}

Deno.test("permission needs: the role follows what the request does, on the collection it acts on", async () => {
  const cases: Array<[string, string, unknown, string]> = [
    ["GET", "/datamap/api/atlas/v2/entity/guid/g-1", undefined, "purview-reader on finance"],
    ["POST", "/datamap/api/search/query", {}, "purview-reader on emulator"],
    ["POST", "/datamap/api/navigate", {}, "purview-reader on emulator"],
    ["POST", "/datamap/api/atlas/v2/entity?collectionId=Sales", {}, "data-curator on sales"],
    ["POST", "/datamap/api/atlas/v2/entity", {}, "data-curator on emulator"],
    ["PUT", "/datamap/api/atlas/v2/entity/guid/g-1", {}, "data-curator on finance"],
    ["DELETE", "/catalog/api/atlas/v2/entity/guid/g-1", undefined, "data-curator on finance"],
    ["POST", "/datamap/api/entity/moveTo?collectionId=team-a", {}, "data-curator on team-a"],
    ["POST", "/datamap/api/collections/sales/entity", {}, "data-curator on sales"],
    ["POST", "/datamap/api/atlas/v2/glossary", {}, "data-curator on emulator"],
    ["PUT", "/workflow/workflows/w1", {}, "data-curator on emulator"],
    ["POST", "/workflow/userrequests", {}, "purview-reader on emulator"],
    ["POST", "/workflow/workflowtasks/t1/approve-approval", {}, "purview-reader on emulator"],
    [
      "PUT",
      "/scan/datasources/sql-2",
      { properties: { collection: { referenceName: "Sales" } } },
      "data-source-administrator on sales",
    ],
    ["PUT", "/scan/datasources/sql-1/scans/s1", { properties: {} }, "data-source-administrator on marketing"],
    ["GET", "/scan/datasources/sql-1", undefined, "purview-reader on marketing"],
    ["PUT", "/scan/credentials/c1", {}, "data-source-administrator on emulator"],
    [
      "PUT",
      "/account/collections/new-one",
      { parentCollection: { referenceName: "sales" } },
      "collection-administrator on sales",
    ],
    [
      "PUT",
      "/collections/sales",
      { parentCollection: { referenceName: "emulator" } },
      "collection-administrator on sales",
    ],
    ["DELETE", "/account/collections/team-a", undefined, "collection-administrator on team-a"],
    ["GET", "/collections/team-a/getCollectionPath", undefined, "purview-reader on team-a"],
    ["PUT", "/policyStore/metadataPolicies/p-sales", {}, "collection-administrator on sales"],
    ["GET", "/policyStore/metadataPolicies?collectionName=sales", undefined, "purview-reader on sales"],
    ["POST", "/account/listkeys", {}, "collection-administrator on emulator"],
    ["PUT", "/account/domains/d1", {}, "collection-administrator on emulator"],
  ];
  for (const [method, path, body, expected] of cases) {
    assert.equal(await need(method, path, body), expected, `${method} ${path}`);
  }
});

Deno.test("permission needs: an entity write needs data-curator on each collection its entities name", async () => {
  const needs = async (path: string, body: unknown) =>
    (await permissionsNeeded(
      { method: "POST", url: new URL(`http://127.0.0.1:1${path}`), body: () => Promise.resolve(body) },
      LOOKUPS,
    )).map((n) => `${n.roleId.replace("purviewmetadatarole_builtin_", "")} on ${n.collection}`);
  assert.deepEqual(await needs("/datamap/api/atlas/v2/entity", { entity: { collectionId: "Sales" } }), [
    "data-curator on sales",
  ]);
  assert.deepEqual(
    await needs("/catalog/api/atlas/v2/entity/bulk", {
      entities: [{ collectionId: "sales" }, { collectionId: "finance" }, {}],
    }),
    ["data-curator on sales", "data-curator on finance", "data-curator on emulator"],
  );
  assert.deepEqual(
    await needs("/datamap/api/atlas/v2/entity/bulk?collectionId=team-a", {
      entities: [{ collectionId: "sales" }],
    }),
    ["data-curator on team-a"],
    "the query parameter moves every entity there",
  );
  assert.deepEqual(await needs("/datamap/api/search/query", { entity: { collectionId: "sales" } }), [
    "purview-reader on emulator",
  ]);
});

const USER = "3f10f245-d5c4-4541-98ce-01a4580a30e0";

function policyOf(collection: string, parent?: string): MetadataPolicy {
  return {
    id: `p-${collection}`,
    properties: {
      ...defaultRules(collection, parent),
      collection: { type: "CollectionReference", referenceName: collection },
      ...(parent ? { parentCollectionName: parent } : {}),
    },
  };
}

Deno.test("holdsRole: direct and inherited holders; stronger roles read; writes need their own role", () => {
  const policies = new Map([
    ["emulator", policyOf("emulator")],
    ["sales", withMember(policyOf("sales", "emulator"), ROLE_IDS.dataCurator, USER).policy],
    ["team-a", policyOf("team-a", "sales")],
  ]);
  const holds = (roleId: string, collection: string) => holdsRole(policies, { roleId, collection }, USER);
  assert.equal(holds(ROLE_IDS.dataCurator, "sales"), true, "granted on sales");
  assert.equal(holds(ROLE_IDS.dataCurator, "team-a"), true, "inherited by the child");
  assert.equal(holds(ROLE_IDS.dataReader, "team-a"), true, "a curator reads");
  assert.equal(holds(ROLE_IDS.dataCurator, "emulator"), false, "not up the tree");
  assert.equal(holds(ROLE_IDS.collectionAdmin, "sales"), false, "curating is not administering");
  assert.equal(
    holdsRole(policies, { roleId: ROLE_IDS.dataCurator, collection: "sales" }, USER.toUpperCase()),
    true,
  );
});
