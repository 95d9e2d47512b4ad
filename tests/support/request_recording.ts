/**
 * The requests a client sends, recorded once and sent again by a bare `fetch` client: the floor the bulk
 * client-CPU bench (tests/e2e/bulk_client_cpu_bench.ts) compares `govcat entity bulk-import` with. The
 * recording is taken through a loopback proxy in front of a catalog, so the replay sends exactly what the
 * import sent (batches, lookups, query strings, bodies, headers), whatever that is.
 *
 * The replay runs as its own process (`deno run tests/support/request_recording.ts FILE URL IN_FLIGHT`), as
 * the import does, so neither shares a thread with the emulator in the bench process. It loads the whole
 * recording first, then sends every request with at most IN_FLIGHT in flight, reads each answer's body, and
 * prints one JSON line: `{"requests":…,"failures":…,"firstFailure":…,"elapsedMs":…}`.
 *
 * @example
 * ```ts
 * import { startRecordingProxy } from "./request_recording.ts";
 * const proxy = startRecordingProxy("http://127.0.0.1:8085", "/tmp/requests.jsonl");
 * // … a client sends its requests to proxy.url …
 * await proxy.close();
 * ```
 *
 * @module
 */

/** One recorded request: method, path with its query, headers as sent, body text. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body?: string;
}

/** Headers that belong to one connection, not to the request: fetch sets its own. */
const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

/**
 * A loopback proxy to `target` that appends each request, as a JSON line, to `file`, in the order they
 * arrive, before passing it on; the target's answer is passed back as it is.
 */
export function startRecordingProxy(target: string, file: string): {
  url: string;
  /** Requests recorded so far. */
  count: () => number;
  close: () => Promise<void>;
} {
  const out = Deno.openSync(file, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let count = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const path = url.pathname + url.search;
    const headers = [...request.headers].filter(([name]) => !HOP_BY_HOP.has(name));
    const body = request.body ? await request.text() : undefined;
    const recorded: RecordedRequest = { method: request.method, path, headers, body };
    out.writeSync(encoder.encode(JSON.stringify(recorded) + "\n"));
    count++;
    const answer = await fetch(target + path, { method: request.method, headers, body });
    return new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    count: () => count,
    close: async () => {
      await server.shutdown();
      out.close();
    },
  };
}

/** What one replay did. */
export interface ReplayResult {
  requests: number;
  /** Answers that were not 2xx. */
  failures: number;
  firstFailure?: string;
  /** From the first request sent to the last answer read. */
  elapsedMs: number;
}

/** Sends every recorded request to `base` with bare `fetch`, at most `inFlight` at a time. */
export async function replay(
  requests: readonly RecordedRequest[],
  base: string,
  inFlight: number,
): Promise<ReplayResult> {
  const prepared = requests.map((r) => ({
    url: base + r.path,
    init: { method: r.method, headers: r.headers, body: r.body } as RequestInit,
  }));
  let next = 0, failures = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const worker = async () => {
    while (next < prepared.length) {
      const { url, init } = prepared[next++];
      const response = await fetch(url, init);
      const text = await response.text();
      if (!response.ok) {
        failures++;
        firstFailure ??= `${init.method} ${url} -> ${response.status}: ${text.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { requests: prepared.length, failures, firstFailure, elapsedMs: performance.now() - started };
}

/** Reads a recording written by {@link startRecordingProxy}. */
export async function readRecording(file: string): Promise<RecordedRequest[]> {
  const text = await Deno.readTextFile(file);
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

if (import.meta.main) {
  const [file, base, inFlight] = Deno.args;
  const requests = await readRecording(file);
  console.log(JSON.stringify(await replay(requests, base, Number(inFlight))));
}
