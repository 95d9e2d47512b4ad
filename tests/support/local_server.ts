/**
 * A scripted HTTP server on 127.0.0.1 for tests of the HTTP core: each request is recorded and answered
 * by the test's handler.
 *
 * @module
 */

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
