/**
 * `import_entities_from_csv` cancelled by the client mid-import (an AbortSignal on the SDK's callTool),
 * then continued: a call without resume or restart is refused with a hint in the tool's own terms
 * (`"resume": true`, `"restart": true`, never a command-line option or "delete the checkpoint file");
 * `resume: true` finishes with every row once (each entity written once: version 0), `restart: true` starts
 * over. The same through `invoke_operation` (entity.bulk-import), whose arguments are `resume`/`restart`.
 */
import assert from "node:assert/strict";
import type { CatalogClient } from "../../../lib/catalog/client.ts";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";

const ROWS = 3_000;

async function withRoot(test: (root: string, harness: Harness) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-resume-" }));
  const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    await test(root, harness);
  } finally {
    await harness.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function writeCsv(path: string, prefix: string): Promise<void> {
  const lines = ["path,title"];
  for (let i = 0; i < ROWS; i++) lines.push(`${prefix}${i},Asset ${i}`);
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
}

/** Completed batches the checkpoint records (0 while it does not exist). */
async function completed(checkpoint: string): Promise<number> {
  const text = await Deno.readTextFile(checkpoint).catch(() => "");
  return text.split("\n").filter((line) => line.includes('"event":"completed"')).length;
}

/** Calls `name` and cancels the call once the checkpoint records a few batches. */
async function cancelMidImport(
  harness: Harness,
  name: string,
  args: Record<string, unknown>,
  checkpoint: string,
): Promise<void> {
  const controller = new AbortController();
  const call = harness.client.callTool({ name, arguments: args }, undefined, {
    signal: controller.signal,
    timeout: 60_000,
  }).then((result) => `finished: ${JSON.stringify(result)}`, (error) => `cancelled: ${error}`);
  let ended: string | undefined;
  call.then((outcome) => ended = outcome);
  const deadline = Date.now() + 20_000;
  while (await completed(checkpoint) < 3) {
    assert.equal(ended, undefined, "the call ended before it was cancelled");
    assert.ok(Date.now() < deadline, "the import made no progress");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort();
  assert.match(await call, /^cancelled/);
}

/** Versions of the DataSets `prefix`0… stored, by name. */
async function versions(catalog: CatalogClient, prefix: string): Promise<number[]> {
  const found: number[] = [];
  for (let i = 0; i < ROWS; i += 200) {
    const names = Array.from({ length: Math.min(200, ROWS - i) }, (_, k) => `${prefix}${i + k}`);
    const result = await catalog.entity.listByUniqueAttributes("DataSet", names, { minExtInfo: true });
    for (const entity of result.entities ?? []) found.push(Number(entity.version));
  }
  return found;
}

const text = (result: Record<string, unknown>) => JSON.stringify(result.content);

/** The hint of an error result. */
function hintOf(result: Record<string, unknown>): string {
  const [content] = result.content as Array<{ text: string }>;
  return String(JSON.parse(content.text).hint);
}

Deno.test("import_entities_from_csv: cancelled mid-import, then resumed (every row once) or restarted", async () => {
  await withRoot(async (root, harness) => {
    harness.emulator.faults.set({ latencyMs: 15 });
    const args = {
      file_path: "assets.csv",
      entity_type: "DataSet",
      column_mapping: { path: "qualifiedName", title: "name" },
      batch_size: 50,
    };
    await writeCsv(`${root}/assets.csv`, "ds://resume/");
    const checkpoint = `${root}/assets.csv.govcat-checkpoint`;
    await cancelMidImport(harness, "import_entities_from_csv", args, checkpoint);

    // Neither resume nor restart: refused, saying which argument to add.
    const refused = await harness.client.callTool({ name: "import_entities_from_csv", arguments: args });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /left a checkpoint/);
    assert.match(
      hintOf(refused),
      /^Add "resume": true to continue it .*, or "restart": true and "overwrite": true to start over\.$/,
    );
    assert.doesNotMatch(text(refused), /--resume|--restart|delete the checkpoint/i);

    const resumed = await harness.client.callTool({
      name: "import_entities_from_csv",
      arguments: { ...args, resume: true },
    });
    assert.equal(resumed.isError, undefined, text(resumed));
    const summary = resumed.structuredContent as Record<string, number | boolean>;
    assert.equal(summary.resumed, true);
    assert.equal(summary.pending, 0);
    assert.equal(summary.updated, 0, "no row was written twice");
    assert.equal(Number(summary.created) + Number(summary.recovered), ROWS);
    const written = await versions(harness.catalog, "ds://resume/");
    assert.equal(written.length, ROWS, "every row is in the catalog");
    assert.deepEqual(written.filter((version) => version !== 0), [], "each row written once");
    await assert.rejects(Deno.stat(checkpoint), Deno.errors.NotFound);

    // Cancelled again, then started over.
    await writeCsv(`${root}/again.csv`, "ds://restart/");
    const again = { ...args, file_path: "again.csv" };
    const againCheckpoint = `${root}/again.csv.govcat-checkpoint`;
    await cancelMidImport(harness, "import_entities_from_csv", again, againCheckpoint);
    // restart alone discards nothing: the checkpoint is a file, and replacing one takes "overwrite".
    const kept = await Deno.readTextFile(againCheckpoint);
    const unconsented = await harness.client.callTool({
      name: "import_entities_from_csv",
      arguments: { ...again, restart: true },
    });
    assert.equal(unconsented.isError, true, text(unconsented));
    assert.match(
      text(unconsented),
      /--checkpoint-file: .*again\.csv\.govcat-checkpoint exists and restarting/,
    );
    assert.match(text(unconsented), /Add --overwrite .*overwrite.*: true.* to the restart to discard it/);
    // (The cancelled run may still be recording the batches it had in flight: only appended to.)
    assert.ok((await Deno.readTextFile(againCheckpoint)).startsWith(kept), "the checkpoint is not discarded");
    const restarted = await harness.client.callTool({
      name: "import_entities_from_csv",
      arguments: { ...again, restart: true, overwrite: true },
    });
    assert.equal(restarted.isError, undefined, text(restarted));
    const fresh = restarted.structuredContent as Record<string, number | boolean>;
    assert.equal(fresh.resumed, false);
    // The rows done before the cancellation exist now, and an import skips what exists by default
    // (if_exists "skip"; "update" would write them again).
    assert.equal(Number(fresh.created) + Number(fresh.skipped), ROWS);
    assert.equal(fresh.updated, 0);
    assert.ok(Number(fresh.skipped) > 0, "rows done before the cancellation are left as they are");
    assert.equal((await versions(harness.catalog, "ds://restart/")).length, ROWS);
  });
});

Deno.test("invoke_operation entity.bulk-import: cancelled, then a hint with its arguments; resume finishes", async () => {
  await withRoot(async (root, harness) => {
    harness.emulator.faults.set({ latencyMs: 15 });
    await Deno.writeTextFile(
      `${root}/entities.csv`,
      ["typeName,qualifiedName,displayName"].concat(
        Array.from({ length: ROWS }, (_, i) => `DataSet,ds://invoke/${i},Set ${i}`),
      ).join("\n") + "\n",
    );
    const call = (input: Record<string, unknown>) => ({
      operation: "entity.bulk-import",
      arguments: { csvFile: "entities.csv", batchSize: 50, ...input },
    });
    await cancelMidImport(harness, "invoke_operation", call({}), `${root}/entities.csv.govcat-checkpoint`);
    const refused = await harness.client.callTool({ name: "invoke_operation", arguments: call({}) });
    assert.equal(refused.isError, true);
    assert.match(
      hintOf(refused),
      /^Add "resume": true to continue it .*, or "restart": true and "overwrite": true to start over\.$/,
    );
    assert.doesNotMatch(text(refused), /--resume|--restart/);
    const resumed = await harness.client.callTool({
      name: "invoke_operation",
      arguments: call({ resume: true }),
    });
    assert.equal(resumed.isError, undefined, text(resumed));
    const written = await versions(harness.catalog, "ds://invoke/");
    assert.equal(written.length, ROWS);
    assert.deepEqual(written.filter((version) => version !== 0), [], "each row written once");
  });
});
