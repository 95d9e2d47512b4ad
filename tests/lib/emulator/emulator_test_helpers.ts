/**
 * Shared helpers of the emulator tests: start an emulator for one test and call it over real HTTP on
 * 127.0.0.1, always reading (or cancelling) response bodies so Deno's resource sanitizer stays quiet.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";

/** Base path of the data-map API. */
export const DATAMAP = "/datamap/api";
/** The same API under the older prefix. */
export const CATALOG = "/catalog/api";
/** The api-version the client sends; the emulator accepts and ignores it. */
export const API_VERSION = "api-version=2023-09-01";

/** Starts an emulator, runs `test` with it and always closes it. */
export async function withEmulator(
  options: EmulatorOptions,
  test: (emulator: RunningEmulator) => void | Promise<void>,
): Promise<void> {
  const emulator = await startEmulator(options);
  try {
    await test(emulator);
  } finally {
    await emulator.close();
  }
}

/** A response with its body already parsed. */
export interface JsonReply {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Sends one request and parses the JSON answer (an empty body gives `undefined`). */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  init: { rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonReply> {
  const response = await fetch(emulator.url + path, {
    method,
    headers: { "content-type": "application/json", ...init.headers },
    body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : JSON.parse(text),
  };
}

/** {@link call}, failing the test unless the answer is a success (2xx). */
export async function ok(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonReply> {
  const reply = await call(emulator, method, path, body);
  assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply;
}

/** A minimal entity body for POST /atlas/v2/entity. */
export function tableEntity(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    typeName: "azure_sql_table",
    attributes: {
      qualifiedName: `mssql://test-sql.database.windows.net/TestDb/dbo/${name}`,
      name,
      description: `Test table ${name}`,
    },
    ...extra,
  };
}

/** Milliseconds elapsed while `work` runs. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
