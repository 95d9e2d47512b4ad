/**
 * A loopback server that answers with what the real service answered: each request is matched, by method
 * and path (and the query parameters the recorded request had, api-version aside), to a recorded exchange
 * and gets that exchange's status, content type and body. A request nothing matches gets 404 with a
 * `NotRecorded` error naming it, so a client asking for something else fails visibly.
 *
 * Location headers pointing at the recorded host are rewritten to this server, so a client following one
 * (an import's `Operation-Location`) stays on 127.0.0.1.
 *
 * @module
 */
import { type LocalServer, type RecordedRequest, startLocalServer } from "../local_server.ts";
import { accountHostUrl, type RecordedExchange } from "./sessions.ts";

const LOCATION_HEADERS = ["location", "operation-location"];

/** A running replay server and the requests it was sent. */
export interface ReplayServer extends LocalServer {
  /** The recorded exchanges answered, in order. */
  answered: RecordedExchange[];
}

function queryOf(url: string): URLSearchParams {
  return new URL(url, "http://recorded").searchParams;
}

/**
 * A path as the service resolves it: case does not matter, the data map is served under `/catalog/api` and
 * `/datamap/api` alike, and the account API at the host's root and under `/account` alike (Microsoft's
 * recordings use the first forms, govcat the second).
 */
export function servicePath(path: string): string {
  const lower = decodeURIComponent(path).toLowerCase().replace(/\/+$/, "");
  const dataMap = lower.replace(/^\/catalog\/api\//, "/datamap/api/");
  return dataMap === "/account" ? "" : dataMap.replace(/^\/account\//, "/");
}

function matches(exchange: RecordedExchange, request: RecordedRequest): boolean {
  if (exchange.method !== request.method) return false;
  const recorded = new URL(accountHostUrl(exchange), "http://recorded");
  if (servicePath(recorded.pathname) !== servicePath(request.path)) return false;
  const sent = new URLSearchParams(request.search);
  for (const [name, value] of queryOf(exchange.url)) {
    if (name !== "api-version" && !sent.getAll(name).includes(value)) return false;
  }
  return true;
}

function answer(exchange: RecordedExchange, origin: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    const lower = name.toLowerCase();
    headers.set(lower, LOCATION_HEADERS.includes(lower) ? value.replace(/^https?:\/\/[^/]+/, origin) : value);
  }
  const body = exchange.responseBody;
  if (body === null || body === undefined) return new Response(null, { status: exchange.status, headers });
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status: exchange.status,
    headers,
  });
}

/** Serves `exchanges`, each answered at most once, to the first request it matches. */
export function startReplayServer(exchanges: RecordedExchange[]): ReplayServer {
  const pending = [...exchanges];
  const answered: RecordedExchange[] = [];
  let origin = "";
  const server = startLocalServer((request) => {
    const index = pending.findIndex((exchange) => matches(exchange, request));
    if (index < 0) {
      const message = `no recorded answer for ${request.method} ${request.path}${request.search}`;
      return Response.json({ error: { code: "NotRecorded", message } }, { status: 404 });
    }
    const [exchange] = pending.splice(index, 1);
    answered.push(exchange);
    return answer(exchange, origin);
  });
  origin = server.url;
  return { ...server, answered };
}
