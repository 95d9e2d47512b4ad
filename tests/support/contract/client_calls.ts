/**
 * Calling one client method against a recording server, for the client-request contract tests: the
 * method by its `area.name` path, a client that sends each call once (no retries), the requests the call
 * sent together with how the call itself ended, and the check that ends each such test; a case (call and
 * the operation it must send) and its label in test names.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RecordedRequest, startLocalServer } from "../local_server.ts";

type AnyMethod = (...args: unknown[]) => unknown;

/** One client call and the operation it must send. */
export interface ClientCase {
  /** `entity.get`: the area and method of the client. */
  method: string;
  operationId: string;
  args: unknown[];
  /** What the call is about, when one method is called in several ways. */
  variant?: string;
}

/** The method of a case, with its variant when it has one: `entity.get (with extended info)`. */
export function caseLabel(clientCase: ClientCase): string {
  return `${clientCase.method}${clientCase.variant ? ` (${clientCase.variant})` : ""}`;
}

/** The client's method `area.name`, bound, or undefined when the client has no such method (yet). */
export function clientMethod(client: CatalogClient, path: string): AnyMethod | undefined {
  const [area, name] = path.split(".");
  const target = (client as unknown as Record<string, unknown>)[area];
  if (typeof target !== "object" || target === null) return undefined;
  const method = (target as Record<string, unknown>)[name];
  return typeof method === "function" ? (method as AnyMethod).bind(target) : undefined;
}

/** A client pointed at `url`, with no retries so one call sends one request. */
export function clientFor(url: string): CatalogClient {
  return CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url, CATALOG_MAX_RETRIES: "0" }),
  );
}

/** Whether the client has the method `path` at all. */
export function clientHas(path: string): boolean {
  return clientMethod(clientFor("http://127.0.0.1:9"), path) !== undefined;
}

/**
 * Fails, naming the method and the operation, when the client has no method `path`: a contract test whose
 * method was deleted or renamed must fail, never be skipped.
 */
export function assertClientHas(path: string, operationId: string): void {
  if (clientHas(path)) return;
  assert.fail(
    `CatalogClient has no method ${path} (expected to send ${operationId}): it was removed or renamed. ` +
      `Restore it, or change this contract case to the method that now sends ${operationId}.`,
  );
}

/**
 * Calls `method(...args)` on a client of a recording server that answers with `answer`, and returns the
 * requests it received and the call's error, if any (the caller decides whether that is a failure). A
 * method that returns a list (an async iterable) is iterated to the end, so its requests are sent.
 */
export async function recordClientCall(
  answer: (request: RecordedRequest) => Response,
  method: string,
  args: readonly unknown[],
): Promise<{ requests: RecordedRequest[]; failure: unknown }> {
  const server = startLocalServer(answer);
  try {
    let failure: unknown;
    try {
      const result = clientMethod(clientFor(server.url), method)!(...structuredClone(args));
      if (result && typeof result === "object" && Symbol.asyncIterator in result) {
        for await (const _ of result as AsyncIterable<unknown>) { /* every page */ }
      } else {
        await result;
      }
    } catch (error) {
      failure = error;
    }
    return { requests: [...server.requests], failure };
  } finally {
    await server.close();
  }
}

/**
 * Fails when the recorded request has `problems` (naming the request and its body), then when the call
 * failed on the answer although its request conforms.
 */
export function assertCallConforms(request: RecordedRequest, problems: string[], failure: unknown): void {
  assert.deepEqual(
    problems,
    [],
    `${request.method} ${request.path}${request.search}\nbody: ${request.body.slice(0, 600)}`,
  );
  if (failure) {
    throw new Error(`the request conforms, but the client failed on the answer`, { cause: failure });
  }
}
