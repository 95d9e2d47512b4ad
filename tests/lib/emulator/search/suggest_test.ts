/**
 * `POST /search/suggest` and `POST /search/autocomplete` against the seeded emulator: contract shapes
 * (`SuggestResultValue` with `@search.text`, `AutoCompleteResultValue`), ranking, filters, limits and
 * the 400s for keywords and limits out of the contract's ranges.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import {
  API_VERSION,
  call,
  CATALOG,
  DATAMAP,
  type JsonReply,
  withEmulator,
} from "../emulator_test_helpers.ts";

const CUSTOMERS_TABLE = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMER_SALES_TABLE = "ca7a1000-0000-4000-8000-000000000072";

function suggest(emulator: RunningEmulator, body: unknown, prefix = DATAMAP): Promise<JsonReply> {
  return call(emulator, "POST", `${prefix}/search/suggest?${API_VERSION}`, body);
}

function autocomplete(emulator: RunningEmulator, body: unknown, prefix = DATAMAP): Promise<JsonReply> {
  return call(emulator, "POST", `${prefix}/search/autocomplete?${API_VERSION}`, body);
}

// deno-lint-ignore no-explicit-any
type Item = Record<string, any>;

Deno.test("suggest: entities whose names start with the keywords, best first, with <em> around the match", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const reply = await suggest(emulator, { keywords: "cust", limit: 10 });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const items: Item[] = reply.body.value;
    assert.deepEqual(
      items.map((item) => item.name).sort(),
      [
        "BuildCustomerSales",
        "CopyCustomersToRaw",
        "Customer",
        "Customer 360",
        "CustomerId",
        "CustomerId",
        "CustomerId",
        "CustomerSales",
        "Customers",
        "customers.csv",
      ],
    );
    // The seed's glossary term Customer is a hit in the glossary shape (glossary_test.ts).
    const term = items.find((item) => item.objectType === "Glossary terms");
    assert.equal(term?.glossaryType, "AtlasGlossaryTerm");
    assert.equal(term?.["@search.text"], "<em>Customer</em>");
    for (const item of items.filter((item) => item !== term)) {
      assert.equal(typeof item["@search.score"], "number");
      assert.match(item["@search.text"], /<em>[^<]+<\/em>/);
      assert.equal(typeof item.id, "string");
      assert.equal(typeof item.qualifiedName, "string");
      assert.equal(typeof item.entityType, "string");
      assert.ok(Array.isArray(item.classification) && Array.isArray(item.assetType));
      // Only owner and description may be null, as the service sends them (recorded Suggest.json).
      for (const [field, value] of Object.entries(item)) {
        if (field !== "owner" && field !== "description") {
          assert.notEqual(value, null, `${field} is not null`);
        }
      }
    }
    const scores = items.map((item) => item["@search.score"]);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores, "sorted by score");
    const byName = (name: string) => items.find((item) => item.name === name)!;
    assert.equal(byName("Customers")["@search.text"], "<em>Customers</em>");
    assert.equal(
      byName("customers.csv")["@search.text"],
      "<em>customers.csv</em>",
      "the whole chunk, as in the contract",
    );
    assert.equal(byName("Customer 360")["@search.text"], "<em>Customer</em> 360");

    const tables = await suggest(emulator, {
      keywords: "cust",
      filter: { and: [{ entityType: "azure_sql_table", includeSubTypes: false }] },
    });
    // Customers and the seed's curated CustomerSales.
    assert.deepEqual(tables.body.value.map((item: Item) => item.id), [CUSTOMERS_TABLE, CUSTOMER_SALES_TABLE]);

    const twoWords = await suggest(emulator, { keywords: "customer 3" }, CATALOG);
    assert.deepEqual(twoWords.body.value.map((item: Item) => item.name), ["Customer 360"]);

    const defaultLimit = await suggest(emulator, { keywords: "c" });
    assert.equal(defaultLimit.body.value.length, 5, "the contract's default limit is 5");

    assert.deepEqual((await suggest(emulator, { keywords: "zzz" })).body.value, []);
    assert.deepEqual(
      (await suggest(emulator, { keywords: "description" })).body.value,
      [],
      "suggest looks at names only",
    );

    await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${CUSTOMERS_TABLE}`);
    const afterDelete = await suggest(emulator, { keywords: "cust", limit: 10 });
    assert.ok(
      !afterDelete.body.value.some((item: Item) => item.id === CUSTOMERS_TABLE),
      "deleted: not suggested",
    );
  });
});

Deno.test("autocomplete: completions of the last word, the most common first, with the whole query", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const reply = await autocomplete(emulator, { keywords: "cust" });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const completions = reply.body.value as Array<{ text: string; queryPlusText: string }>;
    // "customer" is in three names; "customers" and "customerid" in two each, the shorter first.
    assert.deepEqual(completions.slice(0, 3).map((c) => c.text), ["customer", "customers", "customerid"]);
    for (const completion of completions) {
      assert.deepEqual(Object.keys(completion).sort(), ["queryPlusText", "text"]);
      assert.ok(completion.text.startsWith("cust"));
      assert.equal(completion.queryPlusText, completion.text);
    }

    const second = await autocomplete(emulator, { keywords: "Customer 3" }, CATALOG);
    assert.deepEqual(second.body.value, [{ text: "360", queryPlusText: "Customer 360" }]);

    const columns = await autocomplete(emulator, {
      keywords: "cust",
      filter: { entityType: "azure_sql_column" },
      limit: 10,
    });
    assert.deepEqual(columns.body.value.map((c: { text: string }) => c.text), ["customer", "customerid"]);

    const limited = await autocomplete(emulator, { keywords: "c", limit: 2 });
    assert.equal(limited.body.value.length, 2);
    assert.deepEqual((await autocomplete(emulator, { keywords: "orders zzz" })).body.value, []);
    assert.deepEqual(
      (await autocomplete(emulator, { keywords: "cust." })).body.value,
      [],
      "nothing to complete",
    );
  });
});

Deno.test("suggest and autocomplete refuse keywords and limits outside the contract's ranges", async () => {
  await withEmulator({}, async (emulator) => {
    for (const send of [suggest, autocomplete]) {
      for (
        const [body, target] of [
          [{}, "keywords"],
          [{ keywords: "" }, "keywords"],
          [{ keywords: "   " }, "keywords"],
          [{ keywords: "x".repeat(101) }, "keywords"],
          [{ keywords: 5 }, "keywords"],
          [{ keywords: "a", limit: 0 }, "limit"],
          [{ keywords: "a", limit: 101 }, "limit"],
          [{ keywords: "a", limit: 1.5 }, "limit"],
          [{ keywords: "a", filter: { entityTyp: "x" } }, "entityTyp"],
        ] as const
      ) {
        const reply = await send(emulator, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
        assert.equal(reply.body.errorCode, "ATLAS-400-00-01A");
        assert.match(reply.body.errorMessage, new RegExp(target));
      }
      assert.equal((await send(emulator, { keywords: "x".repeat(100), limit: 100 })).status, 200);
    }
    const notObject = await call(emulator, "POST", `${DATAMAP}/search/suggest`, ["cust"]);
    assert.equal(notObject.status, 400);
  });
});
