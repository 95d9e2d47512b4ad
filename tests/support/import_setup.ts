/**
 * The harness of the bulk import tests: an emulator on 127.0.0.1 (data map and unified catalog), govcat's
 * command line run in process against it (quicker than a subprocess, and the same parsing, context and
 * exit codes), clients for arranging data and reading results, a temporary directory, and the request
 * counters that prove what was (not) sent.
 *
 * @module
 */
import { type CliIo, runCli } from "../../cli/run.ts";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { readCsvFile } from "../../lib/csv/reader.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { UnifiedCatalogClient } from "../../lib/catalog/unified_api.ts";

/** One in-process run of govcat. */
export interface ImportRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed stdout when it is JSON (a summary is printed on exit 1 too). */
  // deno-lint-ignore no-explicit-any
  json: any;
}

export interface ImportSetup {
  emulator: RunningEmulator;
  env: Record<string, string>;
  /** Clients on the same emulator, with short retry delays. */
  catalog: CatalogClient;
  unified: UnifiedCatalogClient;
  dir: string;
  /** Runs `govcat …args` in process. */
  govcat(...args: string[]): Promise<ImportRun>;
  /** Writes a file into `dir` (lines joined with CRLF when an array) and returns its path. */
  file(name: string, content: string | string[]): Promise<string>;
  /** Requests received so far whose method is not GET (the writes, and the searches). */
  writes(): number;
  /** Requests received so far. */
  requests(): number;
}

/** Runs `test` against a fresh emulator and temporary directory, removing both afterwards. */
export async function withImportSetup(
  options: { seed?: boolean; env?: Record<string, string> },
  test: (setup: ImportSetup) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: options.seed ?? true });
  const env = {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    ...options.env,
  };
  const config = loadConfig(env);
  const dir = await Deno.makeTempDir({ prefix: "govcat-import-" });
  try {
    await test({
      emulator,
      env,
      catalog: CatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      unified: UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      dir,
      govcat: async (...args) => {
        const out: string[] = [];
        const err: string[] = [];
        const io: CliIo = { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
        const code = await runCli(args, io);
        const stdout = out.join("\n");
        let json: unknown;
        try {
          json = stdout === "" ? undefined : JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        return { code, stdout, stderr: err.join("\n"), json };
      },
      file: async (name, content) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, typeof content === "string" ? content : content.join("\r\n") + "\r\n");
        return path;
      },
      writes: () =>
        Object.entries(emulator.faults.stats().byRoute)
          .filter(([route]) => !route.startsWith("GET "))
          .reduce((sum, [, count]) => sum + count, 0),
      requests: () => emulator.faults.stats().total,
    });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Reads a CSV file written by govcat (a reject file) as records of header → cell. */
export async function readCsvRecords(path: string): Promise<Array<Record<string, string>>> {
  const rows: string[][] = [];
  for await (const row of readCsvFile(path)) rows.push(row.cells);
  const [header, ...data] = rows;
  return data.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""])));
}
