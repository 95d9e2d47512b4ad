/**
 * A server on 127.0.0.1 that mounts the emulator's scanning area alone, with pages of two and a clock the
 * test moves, so run progress and paging can be checked without waiting; and what the scanning tests of
 * the emulator and of the client share besides: the api-version, the data sources path, a data source body
 * and the check of an azure-style error body.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createScanArea } from "../../../../lib/emulator/scan/area.ts";
import { serveArea } from "../../../support/local_server.ts";

/** The api-version query of the scanning API. */
export const SCAN_V = "api-version=2023-09-01";

/** Where the scanning API keeps its data sources. */
export const DATA_SOURCES = "/scan/datasources";

/** A valid data source body (Azure Storage, no collection). */
export const STORAGE_SOURCE = {
  kind: "AzureStorage",
  properties: { endpoint: "https://sales.blob.core.windows.net/" },
};

/** Checks an azure-style error body: its code, its message against `pattern`, and empty details. */
export function assertAzureError(body: unknown, code: string, pattern: RegExp): void {
  const error = (body as { error: { code: string; message: string; details: unknown[] } }).error;
  assert.equal(error.code, code);
  assert.match(error.message, pattern);
  assert.deepEqual(error.details, []);
}

/** How long a run of the test server takes. */
export const TEST_RUN_MS = 10_000;

/** What a test gets from {@link withScanServer}. */
export interface ScanServer {
  url: string;
  /** The server's clock: move `now` forward to let runs progress. */
  clock: { now: number };
  /** Sends one request; the answer's status, headers and parsed body (undefined when empty). */
  send(
    method: string,
    path: string,
    body?: unknown,
    // deno-lint-ignore no-explicit-any
  ): Promise<{ status: number; headers: Headers; body: any }>;
}

/** Runs `test` against a fresh scanning server, shut down afterwards. */
export async function withScanServer(test: (server: ScanServer) => Promise<void>): Promise<void> {
  const clock = { now: Date.UTC(2025, 0, 6, 2) };
  const server = serveArea(createScanArea({ pageSize: 2, runDurationMs: TEST_RUN_MS }), {
    now: () => clock.now,
  });
  const url = server.url;
  try {
    await test({
      url,
      clock,
      async send(method, path, body) {
        const response = await fetch(url + path, {
          method,
          headers: { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return {
          status: response.status,
          headers: response.headers,
          body: text === "" ? undefined : JSON.parse(text),
        };
      },
    });
  } finally {
    await server.close();
  }
}
