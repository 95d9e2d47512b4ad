/**
 * Calling one client method against a recording server, for the client-request contract tests: the
 * method by its `area.name` path, a client that sends each call once (no retries), and the requests the
 * call sent together with how the call itself ended.
 *
 * @module
 */
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config.ts";
import { type RecordedRequest, startLocalServer } from "../local_server.ts";

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

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
 * Calls `method(...args)` on a client of a recording server that answers with `answer`, and returns the
 * requests it received and the call's error, if any (the caller decides whether that is a failure).
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
      await clientMethod(clientFor(server.url), method)!(...structuredClone(args));
    } catch (error) {
      failure = error;
    }
    return { requests: [...server.requests], failure };
  } finally {
    await server.close();
  }
}
