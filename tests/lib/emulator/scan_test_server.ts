/**
 * A server on 127.0.0.1 that mounts the emulator's scanning area alone, with pages of two and a clock the
 * test moves, so run progress and paging can be checked without waiting. The scanning tests of the
 * emulator and of the client share it.
 *
 * @module
 */
import { EmulatorError, errorResponse } from "../../../lib/emulator/errors.ts";
import { createTypeSystem } from "../../../lib/emulator/mod.ts";
import { Router } from "../../../lib/emulator/router.ts";
import { createScanArea } from "../../../lib/emulator/scan_area.ts";
import { EntityStore } from "../../../lib/emulator/store.ts";

/** The api-version query of the scanning API. */
export const SCAN_V = "api-version=2023-09-01";

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
  const store = EntityStore.open();
  const clock = { now: Date.UTC(2025, 0, 6, 2) };
  const area = createScanArea({ pageSize: 2, runDurationMs: TEST_RUN_MS })({
    store,
    types: createTypeSystem(store.database, () => clock.now),
    now: () => clock.now,
  });
  const router = new Router().mount("", area);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const match = router.match(request.method, url.pathname);
    try {
      if (match.kind !== "found") throw new EmulatorError(404, "NotFound", "no route");
      return await match.handler({
        request,
        url,
        params: match.params,
        requestId: "test",
        readJson: () => request.json(),
      });
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      return errorResponse("azure", error, "test");
    }
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
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
    await server.shutdown();
    store.close();
  }
}
