/**
 * One attempt of a request: the only `fetch` of govcat. It bounds the attempt by its timeout, follows
 * same-origin redirects (`redirects.ts`), reads the answer within its limits (`body_limits.ts`) and turns
 * anything else into a typed failure (`error_mapping.ts`) for the request loop of `client.ts` to retry or
 * throw.
 *
 * @example
 * ```ts
 * import { sendAttempt } from "./attempt.ts";
 * const result = await sendAttempt(
 *   { url: new URL("http://127.0.0.1:8085/x"), method: "GET", headers: new Headers(), idempotent: true },
 *   { attemptMs: 5_000, timeoutMs: 5_000, maxResponseBytes: 1024 * 1024, maxJsonDepth: 64 },
 * );
 * console.log(result.ok ? result.value : result.error.message);
 * ```
 *
 * @module
 */
import { redactSecrets } from "../core/log.ts";
import { type AnswerLimits, readAnswer, readErrorText, type ResponseType } from "./body_limits.ts";
import {
  type AttemptFailure,
  isConnectFailure,
  type RequestContext,
  statusFailure,
  transportFailure,
} from "./error_mapping.ts";
import { isRedirect, nextRedirect, redirectedRequest } from "./redirects.ts";

/** What one attempt sends. */
export interface AttemptRequest {
  url: URL;
  method: string;
  /** The attempt's own headers; a redirect that drops the body drops its `content-type` here. */
  headers: Headers;
  body?: BodyInit;
  /** Whether sending the request twice is harmless; a request that is not gets a connection of its own. */
  idempotent: boolean;
  /** Aborts the attempt; its reason is thrown as it is. */
  signal?: AbortSignal;
  /** How to read a successful body (default: JSON when there is one). */
  responseType?: ResponseType;
  /** Receives the status and headers of the successful response. */
  onResponse?: (status: number, headers: Headers) => void;
}

/** The bounds of one attempt. */
export interface AttemptBounds extends AnswerLimits {
  /** How long this attempt may take: the per-attempt timeout, or less when the deadline is nearer. */
  attemptMs: number;
  /** The per-attempt timeout (CATALOG_TIMEOUT × 1000), which a timeout's message names. */
  timeoutMs: number;
}

/** The answer's value, or the failure of the attempt. */
export type AttemptResult = { ok: true; status: number; value: unknown } | AttemptFailure;

/** Sends `request` once (following same-origin redirects) and reads its answer within `bounds`. */
export async function sendAttempt(request: AttemptRequest, bounds: AttemptBounds): Promise<AttemptResult> {
  // A request that must not be sent twice gets a connection of its own. On a connection taken from the
  // pool, Deno's fetch sends a request again when the connection closes before the answer (it takes the
  // connection for a stale one the service never read), so a write the service applied just before
  // failing was sent twice, or, with the service gone, ended in "connection refused", which reads as
  // "nothing was sent" and made this core send it yet again.
  const client = request.idempotent ? undefined : Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  // Not AbortSignal.timeout: its timer, and through it the exchange it could abort, would stay alive for
  // the whole timeout after the answer arrived, so a busy client kept every recent request in memory.
  const timer = new AbortController();
  const timeoutId = setTimeout(
    () => timer.abort(new DOMException("The request timed out.", "TimeoutError")),
    bounds.attemptMs,
  );
  try {
    return await exchange(request, bounds, timer.signal, client);
  } finally {
    clearTimeout(timeoutId);
    client?.close();
  }
}

async function exchange(
  request: AttemptRequest,
  bounds: AttemptBounds,
  timeout: AbortSignal,
  client: Deno.HttpClient | undefined,
): Promise<AttemptResult> {
  const { headers, signal: callerSignal } = request;
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  const context: RequestContext = { method: request.method, url: redactSecrets(request.url.toString()) };
  const failed = (cause: unknown, notSent: boolean) =>
    transportFailure({ cause, timeout, callerSignal, context, notSent, timeoutMs: bounds.timeoutMs });
  let response: Response;
  let target = request.url;
  let sending = { method: request.method, body: request.body };
  for (let redirects = 0;; redirects++) {
    try {
      // "manual": fetch would follow a redirect to any host, re-sending a 307's body there, and from
      // https to http. Only redirects within the request's origin are followed, here.
      const init: RequestInit = { ...sending, headers, signal, redirect: "manual" };
      response = await (client ? fetch(target, { ...init, client }) : fetch(target, init));
    } catch (cause) {
      return failed(cause, isConnectFailure(cause));
    }
    if (!isRedirect(response.status)) break;
    const next = await nextRedirect(response, target, redirects, context);
    if ("error" in next) {
      return { ok: false, error: next.error, outcome: { kind: "status", status: response.status } };
    }
    sending = redirectedRequest(response.status, sending, headers);
    target = next.url;
  }
  try {
    if (!response.ok) return statusFailure(response, await readErrorText(response), headers, context);
    request.onResponse?.(response.status, response.headers);
    const read = await readAnswer(response, context, bounds, request.responseType ?? "json");
    if ("error" in read) {
      return { ok: false, error: read.error, outcome: { kind: "status", status: response.status } };
    }
    return { ok: true, status: response.status, value: read.value };
  } catch (cause) {
    // The response started but broke off: the request certainly reached the service.
    return failed(cause, false);
  }
}
