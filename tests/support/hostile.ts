/**
 * The harness of the hostile-input tests: a tool server on 127.0.0.1 over the seeded emulator with its file
 * root in a temporary directory (and a sibling directory outside it), a raw streamable-HTTP session beside
 * the SDK client, the command line in process, and the proof that a refused input changed nothing — the
 * emulator's entity count and collections, no write in its request log, no file added or changed on either
 * side of the file root.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../cli/run.ts";
import { runGovcat } from "./govcat_process.ts";
import { type Harness, resultJson, startHarness } from "./mcp_harness.ts";

/** A tool server and what surrounds it. */
export interface HostileSetup {
  h: Harness;
  /** CATALOG_MCP_FILE_ROOT (a real path). */
  root: string;
  /** A directory beside the root, which file arguments must never reach. */
  outside: string;
  /** URL of the MCP endpoint. */
  url: string;
  /** Headers of an initialized raw session (content type, accept, session id, protocol version). */
  session: Record<string, string>;
  /** Environment for `runCli` and subprocesses: the emulator as catalog, a private profile directory. */
  env: Record<string, string>;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
};
export const JSON_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Runs `test` against a fresh setup and removes everything afterwards. */
export async function withHostileSetup(test: (setup: HostileSetup) => Promise<void>): Promise<void> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-hostile-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  const config = join(base, "config");
  await Promise.all([Deno.mkdir(root), Deno.mkdir(outside), Deno.mkdir(config)]);
  await Deno.writeTextFile(join(outside, "secret.csv"), "collection_name,friendly_name\nstolen,Stolen\n");
  await Deno.writeTextFile(join(root, "ok.csv"), "collection_name,friendly_name\nhostile-ok,Ok\n");
  const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    const url = `${h.baseUrl}/mcp`;
    const init = await fetch(url, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(INIT) });
    assert.equal(init.status, 200);
    await init.body?.cancel();
    const session = {
      ...JSON_HEADERS,
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-06-18",
    };
    const initialized = await fetch(url, {
      method: "POST",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await initialized.body?.cancel();
    const env = {
      CATALOG_ACCOUNT_NAME: "emulator",
      CATALOG_ENDPOINT: h.emulator.url,
      GOVCAT_CONFIG_DIR: config,
    };
    await test({ h, root, outside, url, session, env });
  } finally {
    await h.close();
    await Deno.remove(base, { recursive: true });
  }
}

/** What a refused input must leave as it was. */
export interface Snapshot {
  entities: number;
  collections: string;
  writes: number;
  files: string;
}

/**
 * Requests that changed the catalog: anything but GET (except the searches sent by POST) that the
 * emulator accepted. A write it refused (400) changed nothing, which the entity count confirms.
 */
function isWrite(entry: { method: string; path: string; status: number }): boolean {
  return entry.method !== "GET" && !/\/search\/|\/browse/.test(entry.path) && entry.status > 0 &&
    entry.status < 400;
}

async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const info = await Deno.lstat(join(dir, entry.name));
    out.push(`${entry.name}:${info.size}:${info.mtime?.getTime()}`);
  }
  return out.sort();
}

export async function snapshot(setup: HostileSetup): Promise<Snapshot> {
  const collections = await setup.h.catalog.collections.listAll();
  return {
    entities: setup.h.emulator.entityCount(),
    collections: JSON.stringify(
      collections.map((c) => [c.name, c.friendlyName, c.description, c.parentCollection?.referenceName])
        .sort(),
    ),
    writes: setup.h.emulator.faults.stats().log.filter(isWrite).length,
    files: JSON.stringify([await listing(setup.root), await listing(setup.outside)]),
  };
}

/** Asserts that nothing changed since `before`. */
export async function assertUnchanged(setup: HostileSetup, before: Snapshot, label: string): Promise<void> {
  assert.deepEqual(await snapshot(setup), before, `${label} changed nothing`);
}

/** Requests the emulator has received so far (reads included). */
export function requestCount(setup: HostileSetup): number {
  return setup.h.emulator.faults.stats().total;
}

/** The answer to a raw POST: status, and the JSON-RPC error or result it carries (plain JSON or SSE). */
export interface RawAnswer {
  status: number;
  code?: number;
  message: string;
  body: string;
}

export async function rawPost(
  url: string,
  headers: Record<string, string>,
  body: BodyInit,
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : text.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("");
  let parsed: { error?: { code: number; message: string }; result?: unknown } = {};
  try {
    parsed = json ? JSON.parse(json) : {};
  } catch {
    // Left empty: the assertions on the status and message say what was wrong.
  }
  return {
    status: response.status,
    code: parsed.error?.code,
    message: parsed.error?.message ?? JSON.stringify(parsed.result ?? ""),
    body: text,
  };
}

/** A tool call's outcome: whether it is an error, and its JSON (the error body, or the result). */
export async function callTool(
  setup: HostileSetup,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; json: Record<string, unknown>; text: string }> {
  const result = await setup.h.client.callTool({ name, arguments: args });
  const json = resultJson(result);
  return { isError: result.isError === true, json, text: JSON.stringify(json) };
}

/** `govcat …argv` in process: exit code and everything printed. */
export async function cli(
  setup: HostileSetup,
  argv: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: setup.env,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

export interface Expectation {
  /** HTTP status (raw HTTP). */
  status?: number;
  /** JSON-RPC error code (raw HTTP). */
  code?: number;
  /** isError of the tool result (SDK client). */
  isError?: boolean;
  /** Exit code (command line). */
  exit?: number;
  /** The error message (or, for an accepted call, the result). */
  message: RegExp;
  /** True when not even a read may reach the catalog. */
  noRequest?: boolean;
}

export type Sent =
  | { via: "http"; body: string | (() => BodyInit); headers?: Record<string, string> }
  | { via: "tool"; tool: string; args: Record<string, unknown> }
  | { via: "runCli" | "subprocess"; argv: string[] };

export interface HostileCase {
  name: string;
  send: Sent;
  expect: Expectation;
}

/** Sends one case and returns what can be asserted of it. */
async function send(setup: HostileSetup, sent: Sent) {
  switch (sent.via) {
    case "http": {
      const body = typeof sent.body === "string" ? sent.body : sent.body();
      const answer = await rawPost(setup.url, { ...setup.session, ...sent.headers }, body);
      return { status: answer.status, code: answer.code, text: answer.message };
    }
    case "tool": {
      const result = await callTool(setup, sent.tool, sent.args);
      return { isError: result.isError, text: result.text };
    }
    case "runCli": {
      const result = await cli(setup, sent.argv);
      return { exit: result.code, text: result.stderr + result.stdout };
    }
    case "subprocess": {
      const result = await runGovcat(sent.argv, setup.env);
      return { exit: result.code, text: result.stderr + result.stdout };
    }
  }
}

/**
 * Runs each case as a step: sends it, checks the expectation, then that nothing changed; finally that the
 * server still answers.
 */
export async function runCases(t: Deno.TestContext, setup: HostileSetup, cases: HostileCase[]) {
  for (const c of cases) {
    await t.step(c.name, async () => {
      const before = await snapshot(setup);
      const requestsBefore = requestCount(setup);
      const outcome = await send(setup, c.send);
      const label = `${c.name}: ${outcome.text.slice(0, 600)}`;
      const { expect } = c;
      if (expect.status !== undefined) assert.equal(outcome.status, expect.status, label);
      if (expect.code !== undefined) assert.equal(outcome.code, expect.code, label);
      if (expect.isError !== undefined) assert.equal(outcome.isError, expect.isError, label);
      if (expect.exit !== undefined) assert.equal(outcome.exit, expect.exit, label);
      assert.match(outcome.text, expect.message, label);
      if (expect.noRequest) assert.equal(requestCount(setup), requestsBefore, `${c.name} sent no request`);
      await assertUnchanged(setup, before, c.name);
    });
  }
  // The server survived every case and still answers.
  assert.ok((await setup.h.client.listTools()).tools.length > 0);
}
