/**
 * The recorded Purview sessions under `fixtures/recorded/` (answers Microsoft recorded from live accounts for
 * its SDK test suites; see that folder's README): loading them, and naming one exchange in messages and in
 * the suite's table of accepted differences.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Which host the exchange went to: the scanning host (`{account}.scan.purview.azure.com`) or the account's. */
export type RecordedHost = "scan" | "account";

/** One request and the answer the service gave, as recorded. */
export interface RecordedExchange {
  method: string;
  host: RecordedHost;
  /** Path and query exactly as sent, without scheme and host. */
  url: string;
  requestContentType?: string;
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
}

/** One recorded test: where it comes from and its exchanges in recorded order. */
export interface RecordedSession {
  /** Path under `fixtures/recorded/` without `.json`, e.g. `net/Scanning/KeyVaultReferenceOperations`. */
  name: string;
  source: { repository: string; path: string; commit: string };
  trimmed?: string;
  exchanges: RecordedExchange[];
}

export const RECORDED_DIR = fileURLToPath(new URL("../../../fixtures/recorded/", import.meta.url));

/** Every recorded session, sorted by name; a file that does not have the fixture shape throws, naming it. */
export function loadRecordedSessions(dir = RECORDED_DIR): RecordedSession[] {
  const sessions: RecordedSession[] = [];
  const walk = (relative: string) => {
    for (const entry of Deno.readDirSync(join(dir, relative))) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".json")) {
        sessions.push(parseSession(path, Deno.readTextFileSync(join(dir, path))));
      }
    }
  };
  walk("");
  return sessions.sort((a, b) => a.name.localeCompare(b.name));
}

function parseSession(path: string, text: string): RecordedSession {
  const data = JSON.parse(text);
  const problem = (what: string) => new Error(`fixtures/recorded/${path}: ${what}`);
  const source = data?.source;
  if (typeof source?.repository !== "string" || typeof source?.path !== "string") {
    throw problem("no source.repository and source.path");
  }
  if (!/^[0-9a-f]{40}$/.test(String(source.commit))) throw problem("source.commit is not a 40-hex commit");
  if (!Array.isArray(data.exchanges) || data.exchanges.length === 0) throw problem("no exchanges");
  data.exchanges.forEach((exchange: Partial<RecordedExchange>, index: number) => {
    if (
      typeof exchange.method !== "string" || typeof exchange.url !== "string" || !exchange.url.startsWith("/")
    ) {
      throw problem(`exchange ${index + 1}: method and a url starting with / are required`);
    }
    if (exchange.host !== "scan" && exchange.host !== "account") {
      throw problem(`exchange ${index + 1}: host is "${exchange.host}", not "scan" or "account"`);
    }
    if (typeof exchange.status !== "number") throw problem(`exchange ${index + 1}: no status`);
    exchange.responseHeaders ??= {};
  });
  return { name: path.replace(/\.json$/, ""), ...data };
}

/** `net/Scanning/KeyVaultReferenceOperations#2`: a session's exchange, numbered from 1. */
export function exchangeLabel(session: RecordedSession, index: number): string {
  return `${session.name}#${index + 1}`;
}

/** `PUT /azureKeyVaults/default-keyvault`: the method and the path without its query. */
export function requestLine(exchange: RecordedExchange): string {
  return `${exchange.method} ${exchange.url.split("?")[0]}`;
}

/** A header of the recorded answer, by case-insensitive name. */
export function recordedHeader(exchange: RecordedExchange, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(exchange.responseHeaders)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/**
 * The path and query the exchange has on the account host: the scanning host's paths are served there
 * under `/scan` (`https://{account}.purview.azure.com/scan/...`, as the emulator serves them).
 */
export function accountHostUrl(exchange: RecordedExchange): string {
  return exchange.host === "scan" ? `/scan${exchange.url}` : exchange.url;
}
