/**
 * The setup of the `scan` operation tests: an empty emulator on 127.0.0.1 with a data source and a scan
 * (`lake` / `daily`), a temporary directory, and an operation context on both, built as the CLI builds it
 * or, with `fileRoot`, as the MCP server does (file arguments confined to that directory). Operations run
 * in process exactly as the front ends run them, with the emulator's request log to prove what was sent.
 *
 * @module
 */
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { confinedFileAccess, unrestrictedFileAccess } from "../../../lib/files/file_access.ts";
import { createLogger } from "../../../lib/core/log.ts";
import type { Operation, OperationContext } from "../../../lib/operations/types.ts";
import type { FileAccess } from "../../../lib/files/file_access.ts";
import { readUserFile } from "../../../lib/files/user_files.ts";

/** The data source and scan every setup starts with. */
export const SOURCE = "lake";
export const SCAN = "daily";

export interface ScanSetup {
  emulator: RunningEmulator;
  dir: string;
  catalog: CatalogClient;
  /** Writes a file into `dir` (a string as is, anything else as JSON); returns its path. */
  file(name: string, content: unknown): Promise<string>;
  /** Parses `input` with the operation's schema and runs it, as the CLI and MCP server do. */
  // deno-lint-ignore no-explicit-any
  run(operation: Operation, input: Record<string, unknown>): Promise<any>;
  /** Requests the emulator received since the setup was made. */
  requests(): number;
}

/** Runs `test` against a fresh setup, removed afterwards; `fileRoot` confines files as the MCP server does. */
export async function withScanSetup(
  options: { fileRoot?: boolean },
  test: (setup: ScanSetup) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-scan-ops-" });
  try {
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url });
    const catalog = CatalogClient.fromConfig(config, { retryBaseMs: 5 });
    await catalog.scan.putDataSource(SOURCE, { kind: "AdlsGen2" });
    await catalog.scan.putScan(SOURCE, SCAN, { kind: "AdlsGen2Msi" });
    const files: FileAccess = options.fileRoot ? confinedFileAccess(dir) : unrestrictedFileAccess;
    const ctx: OperationContext = {
      config: () => config,
      catalog: () => catalog,
      unified: () => {
        throw new Error("the scan operations do not use the unified catalog");
      },
      logger: createLogger("error"),
      files,
      readTextFile: (path, option) => readUserFile(path, option, files),
    };
    const baseline = emulator.faults.stats().total;
    await test({
      emulator,
      dir,
      catalog,
      file: async (name, content) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, typeof content === "string" ? content : JSON.stringify(content));
        return path;
      },
      run: (operation, input) => operation.run(ctx, operation.input.parse(input)),
      requests: () => emulator.faults.stats().total - baseline,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await emulator.close();
  }
}

/** Runs `work`, expecting it to throw; returns the error. */
export async function rejection(
  work: () => Promise<unknown>,
): Promise<Error & { exitCode?: number; hint?: string; status?: number }> {
  try {
    await work();
  } catch (error) {
    return error as Error & { exitCode?: number; hint?: string; status?: number };
  }
  throw new Error("expected the operation to fail");
}
