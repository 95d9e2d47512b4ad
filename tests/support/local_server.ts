/**
 * Local HTTP servers on 127.0.0.1 for tests: a scripted one for tests of the HTTP core, where each request
 * is recorded and answered by the test's handler ({@link startLocalServer}), and one emulator API area
 * served alone ({@link serveArea}), for options the emulator does not expose (page sizes, rate limits, a
 * clock the test moves).
 *
 * @module
 */
import type { ApiArea } from "../../lib/emulator/area.ts";
import { EmulatorError, errorResponse, errorStyleForPath } from "../../lib/emulator/errors.ts";
import { createTypeSystem } from "../../lib/emulator/mod.ts";
import { Router } from "../../lib/emulator/router.ts";
import { EntityStore } from "../../lib/emulator/store.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  headers: Headers;
  body: string;
}

export interface LocalServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export function startLocalServer(
  handler: (request: RecordedRequest, index: number) => Response | Promise<Response>,
): LocalServer {
  const requests: RecordedRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const recorded = {
      method: req.method,
      path: url.pathname,
      search: url.search,
      headers: req.headers,
      body: await req.text(),
    };
    requests.push(recorded);
    return handler(recorded, requests.length - 1);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

/** Runs `test` against a {@link startLocalServer} answering with `handler`, and closes it after. */
export async function withLocalServer(
  handler: (request: RecordedRequest, index: number) => Response | Promise<Response>,
  test: (server: LocalServer) => Promise<void>,
): Promise<void> {
  const server = startLocalServer(handler);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A response whose body sends a few bytes and then breaks the connection. */
export function droppedResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"partial":'));
      setTimeout(() => controller.error(new Error("connection dropped by test")), 5);
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

/** One emulator area served alone, from {@link serveArea}. */
export interface AreaServer {
  /** The server's origin (`http://127.0.0.1:<port>`), without the area's prefix. */
  url: string;
  /** Shuts the server down and closes its in-memory store. */
  close(): Promise<void>;
}

/**
 * Serves `area` alone on 127.0.0.1, mounted under `prefix` on a fresh in-memory store, answering as the
 * emulator does: a path no route matches is a 404, and an EmulatorError answers in its path's error style.
 * `now` is the area's clock (the wall clock unless given).
 */
export function serveArea(
  area: ApiArea,
  options: { prefix?: string; now?: () => number } = {},
): AreaServer {
  const now = options.now ?? Date.now;
  const store = EntityStore.open();
  const router = new Router().mount(
    options.prefix ?? "",
    area({ store, types: createTypeSystem(store.database, now), now }),
  );
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
      return errorResponse(errorStyleForPath(url.pathname), error, "test");
    }
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async close() {
      await server.shutdown();
      store.close();
    },
  };
}
