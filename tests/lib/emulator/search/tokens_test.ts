/**
 * The pieces under the search index: tokenising, keyword terms, highlighting, prefix lookup in the
 * postings, and choosing one page of hits without a full sort.
 */
import assert from "node:assert/strict";
import { TermPostings } from "../../../../lib/emulator/search/postings.ts";
import { installSearchTables, NAME_FIELD } from "../../../../lib/emulator/search/tables.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { topOf } from "../../../../lib/emulator/search/results.ts";
import { highlight, keywordTerms, textTokens, textWords } from "../../../../lib/emulator/search/tokens.ts";

Deno.test("text is cut on / . : _ - # and camelCase, words kept whole beside their parts", () => {
  assert.deepEqual(textTokens("mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers#CustomerId"), [
    "mssql",
    "contoso",
    "sql",
    "database",
    "windows",
    "net",
    "salesdb",
    "sales",
    "db",
    "dbo",
    "customers",
    "customerid",
    "customer",
    "id",
  ]);
  assert.deepEqual(textTokens("XMLParser invoices2024_{N}.parquet"), [
    "xmlparser",
    "xml",
    "parser",
    "invoices2024",
    "invoices",
    "2024",
    "n",
    "parquet",
  ]);
  assert.deepEqual(textTokens("MICROSOFT.PERSONAL.EMAIL"), ["microsoft", "personal", "email"]);
  assert.deepEqual(textTokens("Ångström-Daten Straße"), ["ångström", "daten", "straße"], "Unicode letters");
  assert.deepEqual(textTokens("KundenÜbersicht"), ["kundenübersicht", "kunden", "übersicht"]);
  assert.deepEqual(textTokens(" -- "), []);
  assert.deepEqual(textWords("Customer 360.csv"), ["customer", "360", "csv"]);
});

Deno.test("keywords become terms of words; * and quotes are dropped; separators make a phrase", () => {
  assert.deepEqual(keywordTerms('  Orders.Parquet  "sales" * cust* '), [
    { text: "orders.parquet", parts: ["orders", "parquet"], phrase: true },
    { text: "sales", parts: ["sales"], phrase: false },
    { text: "cust", parts: ["cust"], phrase: false },
  ]);
  assert.deepEqual(keywordTerms("*"), []);
  assert.deepEqual(keywordTerms(null), []);
  assert.deepEqual(keywordTerms("-- //"), []);
});

Deno.test("highlight marks words, camelCase parts or whole chunks that start with a query word", () => {
  assert.equal(highlight("CustomerOrders", ["orders"]), "Customer<em>Orders</em>");
  assert.equal(highlight("Customer orders", ["cust", "ord"]), "<em>Customer</em> <em>orders</em>");
  assert.equal(highlight("exampledata.csv", ["exampledata"], "chunk"), "<em>exampledata.csv</em>");
  assert.equal(highlight("Video", ["id"]), undefined, "not inside a word");
  assert.equal(highlight("anything", []), undefined);
});

Deno.test("postings find every live token under a prefix, and forget what no live document holds", () => {
  const store = EntityStore.open();
  installSearchTables(store.database);
  const postings = new TermPostings(store.database, NAME_FIELD);
  for (let i = 0; i < 1500; i++) postings.add(i, [`token${i}`, "shared"], [1, 2]);
  postings.add(1500, ["tokenizer", "shared"], [1, 1]);
  postings.add(1501, ["tokenb\u{10FFFF}x", "tokenc", "\u00e9t\u00e9"], [1, 1, 1]);
  assert.equal(postings.withPrefix("token").length, 1503);
  assert.deepEqual(postings.withPrefix("token149").sort(), [
    "token149",
    "token1490",
    "token1491",
    "token1492",
    "token1493",
    "token1494",
    "token1495",
    "token1496",
    "token1497",
    "token1498",
    "token1499",
  ]);
  assert.deepEqual(postings.withPrefix("tokenb"), ["tokenb\u{10FFFF}x"], "any character after the prefix");
  assert.deepEqual(postings.withPrefix("\u00e9"), ["\u00e9t\u00e9"]);
  assert.equal(postings.documentFrequency("shared"), 1501);
  postings.remove(1500, ["tokenizer", "shared"]);
  assert.deepEqual(postings.withPrefix("tokeni"), [], "a token no live document holds is not offered");
  assert.equal(postings.get("tokenizer"), undefined);
  assert.equal(postings.documentFrequency("shared"), 1500);
  assert.deepEqual([...postings.get("shared")!.weights.slice(0, 2)], [2, 2]);
  assert.deepEqual([...postings.get("shared")!.slots.slice(-2)], [1498, 1499], "slots ascend");
  store.close();
});

Deno.test("topOf returns the first items in order, the same as a full sort", () => {
  const items = Array.from({ length: 2000 }, (_, i) => (i * 7919) % 2003);
  const byValue = (a: number, b: number) => a - b;
  assert.deepEqual(topOf(items, 10, byValue), [...items].sort(byValue).slice(0, 10));
  assert.deepEqual(topOf(items, 1500, byValue), [...items].sort(byValue).slice(0, 1500));
  assert.deepEqual(topOf(items, 0, byValue), []);
  assert.deepEqual(topOf([3, 1, 2], 10, byValue), [1, 2, 3]);
});
