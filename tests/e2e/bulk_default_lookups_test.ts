/**
 * `govcat entity bulk-import` with its defaults, as a real process against the emulator over HTTP, where
 * batches share their lookups (lib/imports/entity_lookups.ts): an entity that exists is never overwritten
 * when someone else created it before the import (never seen by any checkpoint), while the import ran
 * (between two of its batches), or between a crashed run and its resume.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import {
  catalogEnv,
  spawnBulkImport,
  summaryIn,
  waitForCompletedBatches,
} from "../support/bulk_import_process.ts";
import { entityQualifiedName, writeEntityCsv } from "../support/entity_csv.ts";

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
const LOOKUP_ROUTE = "GET /datamap/api/atlas/v2/entity/bulk/uniqueAttribute/type/DataSet";

async function withImport(
  rows: number,
  test: (setup: { emulator: Emulator; catalog: CatalogClient; file: string; dir: string }) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-default-lookups-" });
  try {
    const file = (await writeEntityCsv(`${dir}/entities.csv`, rows)).path;
    const catalog = CatalogClient.fromConfig(loadConfig(catalogEnv(emulator.url)));
    await test({ emulator, catalog, file, dir });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Someone else's entity for row `index` of the file. */
function theirs(catalog: CatalogClient, index: number) {
  return catalog.entity.createOrUpdate({
    typeName: "DataSet",
    attributes: { qualifiedName: entityQualifiedName(index), name: "theirs", description: "keep me" },
  });
}

async function assertUntouched(catalog: CatalogClient, index: number): Promise<void> {
  const { entity } = await catalog.entity.getByUniqueAttribute("DataSet", entityQualifiedName(index));
  assert.equal(entity.attributes?.description, "keep me", `row ${index}'s entity was overwritten`);
  assert.equal(entity.attributes?.name, "theirs");
}

async function runToEnd(args: string[], env: Record<string, string>) {
  const { code, stdout, stderr } = await spawnBulkImport(args, env, { timeoutMs: 60_000 }).result;
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  const summary = summaryIn(stdout);
  assert.ok(summary, stdout);
  return summary;
}

Deno.test("default import, throttled: entities that existed before it are left alone, lookups shared", async () => {
  await withImport(6_000, async ({ emulator, catalog, file }) => {
    const existing = [0, 99, 100, 1_234, 5_999];
    for (const index of existing) await theirs(catalog, index);
    emulator.faults.reset();
    emulator.faults.set({ requestsPerSecond: 20 });
    const summary = await runToEnd(["--csv-file", file], catalogEnv(emulator.url));
    assert.ok(summary.throttled > 0, "the service throttled the import");
    assert.deepEqual(
      [summary.created, summary.skipped, summary.updated, summary.rejected],
      [6_000 - existing.length, existing.length, 0, 0],
    );
    emulator.faults.set({ requestsPerSecond: 0 });
    for (const index of existing) await assertUntouched(catalog, index);
    assert.equal(emulator.entityCount(), 6_000);
    const lookups = emulator.faults.stats().log.filter((entry) =>
      `${entry.method} ${entry.path}` === LOOKUP_ROUTE && entry.status === 200
    ).length;
    // Unshared, each of the 60 batches makes its own lookup; how many share depends on timing (a loaded
    // machine shares less), so only "fewer than one a batch" is certain here. entity_lookups_test.ts
    // checks the sharing itself.
    assert.ok(lookups < 60, `60 batches shared their lookups: ${lookups} lookups answered`);
  });
});

Deno.test("default import: an entity someone else creates while it runs, before its batch starts, is left alone", async () => {
  await withImport(1_000, async ({ emulator, catalog, file }) => {
    // A proxy before the emulator: when the first write of the import arrives, someone else creates the
    // entity of row 950 (the last batch: the window of four the import starts with has not reached it),
    // then the write goes on. Every batch after the first starts once a write is answered.
    let created = false;
    const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
      const url = new URL(request.url);
      if (!created && request.method === "POST" && url.pathname.endsWith("/entity/bulk")) {
        created = true;
        await theirs(catalog, 950);
      }
      const body = request.body ? await request.arrayBuffer() : undefined;
      const answer = await fetch(`${emulator.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body,
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
    try {
      const summary = await runToEnd(
        ["--csv-file", file],
        catalogEnv(`http://127.0.0.1:${proxy.addr.port}`),
      );
      assert.ok(created);
      assert.deepEqual([summary.created, summary.skipped, summary.updated], [999, 1, 0]);
      await assertUntouched(catalog, 950);
    } finally {
      await proxy.shutdown();
    }
  });
});

Deno.test("default import: killed, then resumed: an entity created in between is left alone", async () => {
  await withImport(3_000, async ({ emulator, catalog, file }) => {
    await theirs(catalog, 5);
    emulator.faults.set({ requestsPerSecond: 30 });
    const env = catalogEnv(emulator.url);
    const args = ["--csv-file", file];
    const first = spawnBulkImport(args, env, { timeoutMs: 60_000 });
    await waitForCompletedBatches(`${file}.govcat-checkpoint`, 4, first);
    first.kill("SIGKILL");
    await first.result;
    // Someone else creates entities of rows the killed run had not reached, then the import is resumed.
    await theirs(catalog, 2_500);
    await theirs(catalog, 2_999);
    const summary = await runToEnd([...args, "--resume"], env);
    assert.equal(summary.resumed, true);
    assert.equal(summary.pending, 0);
    assert.equal(summary.updated, 0, "nothing was overwritten");
    assert.equal(summary.skipped, 3, "row 5's entity, and the two created while the import was down");
    emulator.faults.set({ requestsPerSecond: 0 });
    for (const index of [5, 2_500, 2_999]) await assertUntouched(catalog, index);
    assert.equal(emulator.entityCount(), 3_000);
  });
});
