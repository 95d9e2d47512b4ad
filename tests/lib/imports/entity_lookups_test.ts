/**
 * The shared lookups of an entity import (lib/imports/entity_lookups.ts) and the lookup sizes
 * (lib/imports/entity_catalog_io.ts), against the emulator over HTTP through the real client: while the
 * service throttles, batches that ask together or while a lookup is under way share lookups, each still
 * learns exactly which of its own entities exist, a name never joins a lookup already sent, and a shared
 * lookup the service refuses is asked again by each batch on its own; unthrottled, nobody waits.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import {
  existingKey,
  LOOKUP_CHUNK,
  LOOKUP_MAX_NAMES,
  LOOKUP_QUERY_BUDGET,
  lookupChunks,
  lookupParameterLength,
} from "../../../lib/imports/entity_catalog_io.ts";
import { SHARE_WAIT_MS, SharedLookups } from "../../../lib/imports/entity_lookups.ts";
import { catalogEnv } from "../../support/bulk_import_process.ts";

const LOOKUP_ROUTE = "GET /datamap/api/atlas/v2/entity/bulk/uniqueAttribute/type/DataSet";
const pairs = (from: number, count: number) =>
  Array.from(
    { length: count },
    (_, i) => ({ typeName: "DataSet", qualifiedName: `ds://shared/${from + i}` }),
  );

async function withCatalog(
  test: (catalog: CatalogClient, emulator: Awaited<ReturnType<typeof startEmulator>>) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  try {
    const catalog = CatalogClient.fromConfig(
      loadConfig(catalogEnv(emulator.url, { CATALOG_MAX_RETRIES: "0" })),
    );
    // Entities that exist already: one in each batch of 100 the tests ask about.
    for (let i = 7; i < 1_000; i += 100) {
      await catalog.entity.createOrUpdate({
        typeName: "DataSet",
        attributes: { qualifiedName: `ds://shared/${i}`, name: `theirs ${i}` },
      });
    }
    emulator.faults.reset();
    await test(catalog, emulator);
  } finally {
    await emulator.close();
  }
}

Deno.test("lookup chunks: at least 50 names, then as many as the URL budget takes, at most 1,000", () => {
  const short = Array.from({ length: 3_000 }, (_, i) => `ds://s/${i}`);
  const chunks = lookupChunks(short);
  assert.deepEqual(chunks.flat(), short, "every name once, in order");
  for (const chunk of chunks.slice(0, -1)) {
    const length = chunk.reduce((sum, name, i) => sum + lookupParameterLength(name, i), 0);
    assert.ok(length <= LOOKUP_QUERY_BUDGET, `a chunk of ${chunk.length} names takes ${length} characters`);
    assert.ok(chunk.length <= LOOKUP_MAX_NAMES);
    assert.ok(chunk.length > LOOKUP_CHUNK, "short names go more than 50 to a lookup");
  }
  // Names so long that 50 exceed the budget still go 50 to a lookup, as before.
  const long = Array.from({ length: 120 }, (_, i) => `mssql://server/db/schema/${"t".repeat(300)}${i}`);
  assert.deepEqual(lookupChunks(long).map((chunk) => chunk.length), [50, 50, 20]);
  // The estimate is the query the client really sends for a name that needs encoding.
  for (
    const name of ["ds://a b/ü?&=", "ds://it's (old)!~*", "ds://lone \ud800 surrogate/\udfff", "ds://😀"]
  ) {
    const query = new URLSearchParams({ "attr_7:qualifiedName": name }).toString();
    assert.ok(lookupParameterLength(name, 6) >= query.length + 1, JSON.stringify(name));
  }
});

Deno.test("shared lookups, throttled: batches asking together share lookups; each learns its own", async () => {
  await withCatalog(async (catalog, emulator) => {
    emulator.faults.set({ latencyMs: 40 });
    const lookups = new SharedLookups(catalog);
    lookups.throttled(0);
    const signal = new AbortController().signal;
    // Ten batches of 100 ask together, as a window of batches does.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, b) => lookups.find(pairs(b * 100, 100), signal)),
    );
    for (const [b, found] of answers.entries()) {
      assert.deepEqual(
        [...found.keys()],
        [existingKey("DataSet", `ds://shared/${b * 100 + 7}`)],
        `batch ${b} learns that its own existing entity exists, and only that`,
      );
      assert.equal(found.values().next().value?.attributes?.name, `theirs ${b * 100 + 7}`);
    }
    const gets = emulator.faults.stats().byRoute[LOOKUP_ROUTE] ?? 0;
    const perLookup = lookupChunks(pairs(0, 1_000).map((p) => p.qualifiedName))[0].length;
    assert.ok(perLookup > 100, `a lookup takes ${perLookup} of these names`);
    assert.equal(
      gets,
      Math.ceil(1_000 / perLookup),
      "the ten batches share as few lookups as their names need",
    );
  });
});

Deno.test("shared lookups, unthrottled: each batch's lookup goes at once, no batch waits for another", async () => {
  await withCatalog(async (catalog, emulator) => {
    emulator.faults.set({ latencyMs: 40 });
    const lookups = new SharedLookups(catalog);
    const signal = new AbortController().signal;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, b) => lookups.find(pairs(b * 100, 100), signal)),
    );
    assert.deepEqual(answers.map((found) => found.size), [1, 1, 1, 1, 1]);
    assert.equal(emulator.faults.stats().byRoute[LOOKUP_ROUTE], 5, "one lookup of 100 names a batch");
    // Once the service throttles, they are shared again.
    lookups.throttled(0);
    await Promise.all(Array.from({ length: 5 }, (_, b) => lookups.find(pairs(b * 100, 100), signal)));
    assert.ok(emulator.faults.stats().byRoute[LOOKUP_ROUTE] <= 5 + 4);
  });
});

Deno.test("shared lookups: a name asked after a lookup was sent waits for the next one, which sees it", async () => {
  await withCatalog(async (catalog, emulator) => {
    emulator.faults.set({ latencyMs: 60 });
    const lookups = new SharedLookups(catalog);
    lookups.throttled(0);
    const signal = new AbortController().signal;
    const first = lookups.find(pairs(1_000, 100), signal);
    // Someone else creates an entity while the first lookup is under way (sent after SHARE_WAIT_MS); a
    // batch with it asks after.
    await new Promise((resolve) => setTimeout(resolve, SHARE_WAIT_MS + 20));
    await catalog.entity.createOrUpdate({
      typeName: "DataSet",
      attributes: { qualifiedName: "ds://shared/2050", name: "theirs, just now" },
    });
    const second = await lookups.find(pairs(2_000, 100), signal);
    assert.deepEqual([...second.keys()], [existingKey("DataSet", "ds://shared/2050")]);
    assert.equal((await first).size, 0);
  });
});

Deno.test("shared lookups: a refused shared lookup is asked again by each batch, not taken as 'none exist'", async () => {
  await withCatalog(async (catalog, emulator) => {
    emulator.faults.set({ latencyMs: 100 });
    const lookups = new SharedLookups(catalog);
    lookups.throttled(0);
    const signal = new AbortController().signal;
    // The first lookup is answered; the one the next batches share is refused (as a name the service
    // cannot take would make it).
    emulator.faults.script([
      { method: "GET", path: "uniqueAttribute", delayMs: 0 },
      { status: 400, method: "GET", path: "uniqueAttribute" },
    ]);
    const first = lookups.find(pairs(0, 100), signal);
    await new Promise((resolve) => setTimeout(resolve, SHARE_WAIT_MS + 20));
    const rest = await Promise.all([1, 2, 3].map((b) => lookups.find(pairs(b * 100, 100), signal)));
    assert.equal((await first).size, 1);
    for (const [k, found] of rest.entries()) {
      assert.deepEqual([...found.keys()], [existingKey("DataSet", `ds://shared/${(k + 1) * 100 + 7}`)]);
    }
    assert.equal(emulator.faults.pendingSteps().length, 0, "the shared lookup was the one refused");
    assert.equal(
      emulator.faults.stats().byRoute[LOOKUP_ROUTE],
      5,
      "one, the refused shared one, one per batch",
    );
  });
});
