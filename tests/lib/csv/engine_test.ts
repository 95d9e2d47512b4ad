/**
 * The bulk engine through the entity import, against the emulator over real HTTP: batches and outcomes,
 * dry runs, refused rows split out into the reject file, skip-existing, an interrupted run resumed without
 * sending any row twice, and every row accounted for under throttling, server errors and dropped answers.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type BulkImportSummary, ImportInterruptedError, runBulkImport } from "../../../lib/csv/engine.ts";
import { csvTemplate } from "../../../lib/templates/csv/mod.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { entityCsvImport } from "../../../lib/imports/entity_csv_import.ts";

const TEMPLATE = csvTemplate("entity-bulk-import")!;

interface Setup {
  emulator: RunningEmulator;
  client: CatalogClient;
  dir: string;
  /** Writes a CSV of `rows` entity rows (with optional extra lines) and returns its path. */
  file(rows: number, options?: { name?: string; extra?: (i: number) => string | undefined }): Promise<string>;
}

async function withSetup(test: (setup: Setup) => Promise<void>) {
  const emulator = await startEmulator({ seed: false });
  const client = CatalogClient.fromConfig(
    loadConfig({
      CATALOG_ACCOUNT_NAME: "emulator",
      CATALOG_ENDPOINT: emulator.url,
      CATALOG_MAX_RETRIES: "3",
    }),
    { retryBaseMs: 5 },
  );
  const dir = await Deno.makeTempDir({ prefix: "govcat-engine-" });
  const file: Setup["file"] = async (rows, options = {}) => {
    const lines = ["typeName,qualifiedName,displayName,description,attr.owner"];
    for (let i = 0; i < rows; i++) {
      lines.push(options.extra?.(i) ?? `DataSet,ds://bulk/${i},Set ${i},"Row ${i}, described",team-${i % 7}`);
    }
    const path = `${dir}/${options.name ?? "entities.csv"}`;
    await Deno.writeTextFile(path, lines.join("\r\n") + "\r\n");
    return path;
  };
  try {
    await test({ emulator, client, dir, file });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const accounted = (s: BulkImportSummary) => s.created + s.updated + s.skipped + s.recovered + s.rejected;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("engine: a file is imported in batches; importing it again updates the same entities", async () => {
  await withSetup(async ({ emulator, client, file }) => {
    const path = await file(250);
    const plugin = entityCsvImport(client, TEMPLATE, { overwrite: true });
    const reports: string[] = [];
    const lines: string[] = [];
    const first = await runBulkImport(plugin, {
      file: path,
      batchSize: 40,
      concurrency: 3,
      progress: {
        update: (report) => reports.push(`${report.phase} ${report.done}/${report.total ?? "?"}`),
        finish: () => reports.push("finish"),
        summary: (line) => lines.push(line),
      },
    });
    assert.equal(reports.at(-2), "importing 250/250");
    assert.equal(reports.at(-1), "finish");
    assert.equal(lines.length, 1);
    assert.match(
      lines[0],
      /^entity\.bulk-import: 250 rows, 250 created, 0 updated, 0 skipped, 0 rejected in /,
    );
    assert.equal(first.rows, 250);
    assert.equal(first.created, 250);
    assert.equal(first.batches, 7);
    assert.equal(first.pending, 0);
    assert.equal(first.failed, 0);
    assert.equal(emulator.entityCount(), 250);
    assert.equal(await exists(path + ".govcat-checkpoint"), false, "a finished import leaves no checkpoint");
    const stored = await client.entity.getByUniqueAttribute("DataSet", "ds://bulk/17");
    assert.equal(stored.entity?.attributes?.description, "Row 17, described");
    assert.equal(stored.entity?.attributes?.owner, "team-3");

    const second = await runBulkImport(plugin, { file: path, batchSize: 100, concurrency: 2 });
    assert.deepEqual([second.created, second.updated], [0, 250]);
    assert.equal(emulator.entityCount(), 250);
  });
});

Deno.test("engine: a dry run reports what would happen and sends no write", async () => {
  await withSetup(async ({ emulator, client, file }) => {
    const path = await file(30);
    const plugin = entityCsvImport(client, TEMPLATE, { overwrite: true });
    await runBulkImport(plugin, { file: path, batchSize: 100, concurrency: 1 });
    const more = await file(45, { name: "more.csv" });
    emulator.faults.reset();
    const plan = await runBulkImport(plugin, { file: more, batchSize: 10, concurrency: 2, dryRun: true });
    assert.equal(plan.dryRun, true);
    assert.deepEqual([plan.wouldCreate, plan.wouldUpdate], [15, 30]);
    assert.equal(plan.preview?.length, 20);
    assert.deepEqual(plan.preview?.[0], {
      lines: [2],
      action: "update",
      typeName: "DataSet",
      qualifiedName: "ds://bulk/0",
      name: "Set 0",
    });
    const writes = emulator.faults.stats().log.filter((entry) => entry.method !== "GET");
    assert.deepEqual(writes, []);
    assert.equal(emulator.entityCount(), 30);
  });
});

Deno.test("engine: a file with bad rows is refused with line-precise problems and nothing is sent", async () => {
  await withSetup(async ({ emulator, client, file }) => {
    const path = await file(20, {
      extra: (i) => i === 4 ? `,ds://bulk/4,x,y,z` : i === 11 ? `DataSet,ds://bulk/3,dup,y,z` : undefined,
    });
    const error = await runBulkImport(entityCsvImport(client, TEMPLATE), {
      file: path,
      batchSize: 5,
      concurrency: 2,
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /entities\.csv:6:1: column typeName: /);
    assert.match(error.message, /entities\.csv:13:1: .*also on line 5/);
    assert.match(error.message, /nothing was sent/);
    assert.equal(emulator.faults.stats().total, 0);
  });
});

Deno.test("engine: refused rows are split out into the reject file; the rest are imported", async () => {
  await withSetup(async ({ emulator, client, dir }) => {
    // The service refuses an attribute DataSet does not define: only those rows must be rejected.
    const lines = ["typeName,qualifiedName,displayName,attr.colour"];
    for (let i = 0; i < 60; i++) lines.push(`DataSet,ds://split/${i},Set ${i},${i % 25 === 7 ? "red" : ""}`);
    const path = `${dir}/split.csv`;
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const summary = await runBulkImport(entityCsvImport(client, TEMPLATE), {
      file: path,
      batchSize: 20,
      concurrency: 2,
    });
    assert.equal(summary.rejected, 3);
    assert.equal(summary.created, 57);
    assert.equal(summary.failed, 3);
    assert.equal(summary.errorsFile, `${dir}/split.rejected.csv`);
    assert.equal(emulator.entityCount(), 57);
    const rejects = (await Deno.readTextFile(summary.errorsFile!)).trim().split("\r\n");
    assert.equal(rejects[0], "typeName,qualifiedName,displayName,attr.colour,source_line,import_error");
    assert.equal(rejects.length, 4);
    assert.match(rejects[1], /^DataSet,ds:\/\/split\/7,Set 7,red,9,"?400 [A-Z0-9-]+: .*colour/);
    // The fixed reject file imports on its own; the added columns are ignored.
    await Deno.writeTextFile(summary.errorsFile!, rejects.map((l) => l.replace(",red,", ",,")).join("\n"));
    const again = await runBulkImport(entityCsvImport(client, TEMPLATE), {
      file: summary.errorsFile!,
      batchSize: 20,
      concurrency: 1,
    });
    assert.deepEqual([again.created, again.rejected], [3, 0]);
    assert.equal(emulator.entityCount(), 60);
  });
});

Deno.test("engine: --skip-existing leaves present entities untouched", async () => {
  await withSetup(async ({ client, file }) => {
    const plugin = entityCsvImport(client, TEMPLATE);
    await runBulkImport(plugin, {
      file: await file(10, { name: "first.csv" }),
      batchSize: 10,
      concurrency: 1,
    });
    const summary = await runBulkImport(plugin, {
      file: await file(25),
      batchSize: 10,
      concurrency: 2,
      skipExisting: true,
    });
    assert.deepEqual([summary.skipped, summary.created, summary.updated], [10, 15, 0]);
    const untouched = await client.entity.getByUniqueAttribute("DataSet", "ds://bulk/3");
    assert.equal(untouched.entity?.version, 0);
  });
});

Deno.test("engine: an interrupted import resumes from its checkpoint without sending a row twice", async () => {
  await withSetup(async ({ emulator, client, file }) => {
    const path = await file(400);
    const plugin = entityCsvImport(client, TEMPLATE);
    emulator.faults.set({ latencyMs: 15 });
    const controller = new AbortController();
    let batches = 0;
    const interrupted = await runBulkImport(plugin, {
      file: path,
      batchSize: 20,
      concurrency: 3,
      signal: controller.signal,
      progress: {
        update: (report) => {
          if (report.phase === "importing" && ++batches === 5) controller.abort();
        },
        finish: () => {},
      },
    }).then(() => undefined, (e) => e);
    assert.ok(interrupted instanceof ImportInterruptedError, String(interrupted));
    assert.equal(interrupted.exitCode, 130);
    assert.ok(interrupted.summary.pending > 0 && interrupted.summary.pending < 400);
    assert.equal(interrupted.summary.checkpointFile, path + ".govcat-checkpoint");

    // Without --resume the checkpoint is not ignored.
    await assert.rejects(
      runBulkImport(plugin, { file: path, batchSize: 20, concurrency: 3 }),
      (error: UsageError) => /left a checkpoint/.test(error.message) && /--resume/.test(error.hint ?? ""),
    );
    // With another batch size it is another import.
    await assert.rejects(
      runBulkImport(plugin, { file: path, batchSize: 25, concurrency: 3, resume: true }),
      /batchSize changed/,
    );
    emulator.faults.set({ latencyMs: 0 });
    const resumed = await runBulkImport(plugin, { file: path, batchSize: 20, concurrency: 3, resume: true });
    assert.equal(resumed.resumed, true);
    assert.equal(resumed.pending, 0);
    assert.equal(accounted(resumed), 400);
    assert.equal(resumed.updated, 0, "no row of the first run was written again");
    assert.equal(emulator.entityCount(), 400);
    const result = await client.entity.listByUniqueAttributes(
      "DataSet",
      Array.from({ length: 50 }, (_, i) => `ds://bulk/${i * 8}`),
    );
    assert.deepEqual(new Set(result.entities?.map((e) => e.version)), new Set([0]));
    assert.equal(await exists(path + ".govcat-checkpoint"), false);
  });
});

Deno.test("engine: throttling, server errors and dropped answers: every row accounted for once", async () => {
  await withSetup(async ({ emulator, client, file }) => {
    const path = await file(600);
    const plugin = entityCsvImport(client, TEMPLATE);
    emulator.faults.set({
      throttleRate: 0.15,
      errorRate: 0.1,
      errorStatus: 503,
      dropRate: 0.05,
      randomSeed: 11,
    });
    emulator.faults.set({ retryAfterSeconds: 0 });
    const summary = await runBulkImport(plugin, {
      file: path,
      batchSize: 25,
      concurrency: 4,
      retryDelayMs: 5,
      unreachableAttempts: 20,
    });
    assert.equal(summary.pending, 0);
    assert.equal(summary.rejected, 0);
    assert.equal(accounted(summary), 600);
    assert.ok(summary.throttled > 0, "the throttle was seen");
    emulator.faults.reset();
    assert.equal(emulator.entityCount(), 600);
  });
});

Deno.test("engine: a semicolon file is imported like a comma file; its reject file keeps the semicolons", async () => {
  await withSetup(async ({ emulator, client, dir }) => {
    const lines = ["typeName;qualifiedName;displayName;description;attr.colour"];
    for (let i = 0; i < 30; i++) {
      lines.push(
        `DataSet;ds://semi/${i};Set ${i};"Row ${i}; with a semicolon, and a comma";${i === 7 ? "red" : ""}`,
      );
    }
    const path = `${dir}/semi.csv`;
    await Deno.writeTextFile(path, lines.join("\r\n") + "\r\n");
    const summary = await runBulkImport(entityCsvImport(client, TEMPLATE), {
      file: path,
      batchSize: 10,
      concurrency: 2,
    });
    assert.deepEqual([summary.created, summary.rejected], [29, 1]);
    const stored = await client.entity.getByUniqueAttribute("DataSet", "ds://semi/3");
    assert.equal(stored.entity?.attributes?.description, "Row 3; with a semicolon, and a comma");
    assert.equal(emulator.entityCount(), 29);
    const rejects = (await Deno.readTextFile(summary.errorsFile!)).trim().split("\r\n");
    assert.equal(
      rejects[0],
      "typeName;qualifiedName;displayName;description;attr.colour;source_line;import_error",
    );
    assert.match(rejects[1], /^DataSet;ds:\/\/semi\/7;Set 7;"Row 7; with a semicolon, and a comma";red;9;/);

    // Given the wrong separator, the file is refused before anything is sent, saying how it was read.
    emulator.faults.reset();
    const refused = (delimiter: "|" | ",", file: string) =>
      runBulkImport(entityCsvImport(client, TEMPLATE), { file, batchSize: 10, concurrency: 1, delimiter })
        .then(() => undefined, (e) => e);
    const quotes = await refused("|", path);
    assert.ok(quotes instanceof UsageError);
    assert.match(
      quotes.message,
      /semi\.csv:2:1: unbalanced quote: .* The file is read with pipes \(\|\) between fields, as --delimiter says\.$/,
    );
    const plain = `${dir}/plain.csv`;
    await Deno.writeTextFile(plain, "typeName;qualifiedName\nDataSet;ds://plain\n");
    const header = await refused(",", plain);
    assert.ok(header instanceof UsageError);
    assert.match(
      header.message,
      /plain\.csv:1: the header is one column .*: the file seems to use ';'.*read with commas/,
    );
    assert.match(
      header.hint ?? "",
      /govcat validate csv --csv-file .*plain\.csv --template entity-bulk-import --delimiter=comma --report-file report\.json/,
    );
    assert.equal(emulator.faults.stats().total, 0);
  });
});

Deno.test("engine: one row is one row in the summary line", async () => {
  await withSetup(async ({ client, file }) => {
    const lines: string[] = [];
    const summary = await runBulkImport(entityCsvImport(client, TEMPLATE), {
      file: await file(1),
      batchSize: 10,
      concurrency: 1,
      progress: { update: () => {}, finish: () => {}, summary: (line) => lines.push(line) },
    });
    assert.equal(summary.created, 1);
    assert.match(lines[0], /^entity\.bulk-import: 1 row, 1 created, 0 updated, 0 skipped, 0 rejected in /);
  });
});
