/**
 * Search answers in the shapes Microsoft's recorded live sessions show (Azure/azure-sdk-for-net
 * `sdk/purview/Azure.Analytics.Purview.Catalog/tests/SessionRecords/CatalogClientTest/{Search,Suggest,AutoComplete}.json`):
 * a query answer always carries `@search.facets`, null when no facet was asked; a suggestion carries the
 * asset's `owner` and `description`, null when it has none; an autocomplete item is `{text, queryPlusText}`.
 * And `continuationToken` is there while more matches follow, absent on the last page. Over real HTTP on
 * 127.0.0.1.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { API_VERSION, call, CATALOG, DATAMAP, ok, withEmulator } from "../emulator_test_helpers.ts";

async function createFile(emulator: RunningEmulator, name: string): Promise<void> {
  await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
    entity: { typeName: "DataSet", attributes: { qualifiedName: `s3://testpurview/${name}`, name } },
  });
}

Deno.test("search query: @search.facets is null when no facet is asked, the counts when one is", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    for (const prefix of [CATALOG, DATAMAP]) {
      const plain = await ok(emulator, "POST", `${prefix}/search/query?${API_VERSION}`, {
        keywords: "myPurview",
      });
      assert.ok("@search.facets" in plain.body, "the key is there");
      assert.equal(plain.body["@search.facets"], null);
      assert.equal(plain.body["@search.count"], 0);
      assert.deepEqual(plain.body.value, []);
    }
    const none = await ok(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
      keywords: "*",
      facets: [],
    });
    assert.equal(none.body["@search.facets"], null, "an empty facet list asks for none");
    const asked = await ok(emulator, "POST", `${DATAMAP}/search/query?${API_VERSION}`, {
      keywords: "*",
      facets: [{ facet: "entityType" }],
    });
    assert.ok(Array.isArray(asked.body["@search.facets"].entityType));
  });
});

Deno.test("search query: continuationToken while more matches follow, none on the last page", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const path = `${DATAMAP}/search/query?${API_VERSION}`;
    const total = (await ok(emulator, "POST", path, { keywords: "*", limit: 1 })).body["@search.count"];
    assert.ok(total > 2, "the seed has a few entities");
    const seen = new Set<string>();
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await ok(emulator, "POST", path, { keywords: "*", limit: 2, continuationToken: token });
      for (const item of page.body.value) seen.add(item.id);
      token = page.body.continuationToken;
      if (seen.size < total) {
        assert.equal(typeof token, "string", `page ${pages + 1} of ${total} has a token`);
      }
      pages += 1;
    } while (token !== undefined && pages <= total);
    assert.equal(seen.size, total);
    assert.equal(token, undefined, "the last page carries no token");
  });
});

Deno.test("suggest: an asset without owner or description carries both as null", async () => {
  await withEmulator({}, async (emulator) => {
    await createFile(emulator, "sampledata.csv");
    const reply = await ok(emulator, "POST", `${CATALOG}/search/suggest?${API_VERSION}`, {
      keywords: "sampledata.csv",
    });
    const [item] = reply.body.value;
    assert.equal(item.name, "sampledata.csv");
    assert.equal(item.qualifiedName, "s3://testpurview/sampledata.csv");
    assert.ok("owner" in item && "description" in item, JSON.stringify(item));
    assert.equal(item.owner, null);
    assert.equal(item.description, null);
    assert.match(item["@search.text"], /<em>/);
    assert.equal(typeof item["@search.score"], "number");
  });
});

Deno.test("autocomplete: each completion is {text, queryPlusText}", async () => {
  await withEmulator({}, async (emulator) => {
    await createFile(emulator, "sampledata.csv");
    const reply = await call(emulator, "POST", `${CATALOG}/search/autocomplete?${API_VERSION}`, {
      keywords: "sampledata",
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.ok(reply.body.value.length > 0);
    for (const item of reply.body.value) {
      assert.deepEqual(Object.keys(item).sort(), ["queryPlusText", "text"]);
      assert.equal(typeof item.text, "string");
    }
  });
});
