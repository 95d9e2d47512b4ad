/**
 * The setup of the lineage CSV operation tests: the seeded emulator on 127.0.0.1, a temporary directory,
 * and an operation context on both (the CLI's, minus the profiles), so operations run in process exactly
 * as `govcat` runs them, with the emulator's request log to prove what was or was not sent.
 *
 * @module
 */
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { unrestrictedFileAccess } from "../../../lib/files/file_access.ts";
import { createLogger } from "../../../lib/core/log.ts";
import type { Operation, OperationContext } from "../../../lib/operations/types.ts";
import { readUserFile } from "../../../lib/files/user_files.ts";

/** Data sets of the emulator's seed. */
export const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
export const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
export const INVOICES = "ca7a1000-0000-4000-8000-000000000040";
export const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";
export const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";
/** A seeded entity that is not a data set (an Azure SQL server). */
export const SQL_SERVER = "ca7a1000-0000-4000-8000-000000000001";
/** A GUID no entity has. */
export const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

export const TABLE_HEADER =
  "source_entity_guid,target_entity_guid,relationship_type,process_name,description,confidence_score,owner,metadata";

export interface LineageSetup {
  emulator: RunningEmulator;
  dir: string;
  ctx: OperationContext;
  catalog: CatalogClient;
  /** Writes a file into `dir`; returns its path. */
  file(name: string, text: string): Promise<string>;
  /** Runs an operation with `input` parsed by its schema, as the CLI and MCP server do. */
  // deno-lint-ignore no-explicit-any
  run(operation: Operation, input: Record<string, unknown>): Promise<any>;
  /** Requests other than GET the emulator received since the last reset. */
  writes(): number;
}

export async function withLineageSetup(test: (setup: LineageSetup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: true });
  const dir = await Deno.makeTempDir({ prefix: "govcat-lineage-csv-" });
  try {
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url });
    const catalog = CatalogClient.fromConfig(config, { retryBaseMs: 5 });
    const ctx: OperationContext = {
      config: () => config,
      catalog: () => catalog,
      unified: () => {
        throw new Error("the lineage CSV operations do not use the unified catalog");
      },
      logger: createLogger("error"),
      files: unrestrictedFileAccess,
      readTextFile: (path, option) => readUserFile(path, option, unrestrictedFileAccess),
    };
    await test({
      emulator,
      dir,
      ctx,
      catalog,
      file: async (name, text) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, text);
        return path;
      },
      run: (operation, input) => operation.run(ctx, operation.input.parse(input)),
      writes: () => emulator.faults.stats().log.filter((entry) => entry.method !== "GET").length,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await emulator.close();
  }
}

/** Runs `work`, expecting it to throw; returns the error. */
export async function rejection(
  work: () => Promise<unknown>,
): Promise<Error & { exitCode?: number; hint?: string }> {
  try {
    await work();
  } catch (error) {
    return error as Error & { exitCode?: number };
  }
  throw new Error("expected the operation to fail");
}
