/**
 * The first tool calls of a stdio session, run by the fast start before the real server loads
 * (`fast_tool_calls.ts`): against the emulator over real HTTP, with a stand-in for the real server that
 * records what reaches it. The answers are the real server's (compared with a real SDK client's calls),
 * cancellations and input's end stop a call, roots are asked of the client, and anything unusual is left
 * to the real server. The module graph test keeps the path free of the SDK, whose loading it avoids.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { createLogger } from "../../../lib/core/log.ts";
import {
  FAST_START_DATA,
  fastToolListing,
  type RealServer,
  serveFastStart,
} from "../../../lib/mcp/fast_start.ts";
import { FastToolCalls } from "../../../lib/mcp/fast_tool_calls.ts";
import { createToolServices } from "../../../lib/mcp/tool_services.ts";
import { TOOL_MODULES } from "../../../lib/mcp/tools/modules.ts";
import { startHarness } from "../../support/mcp_harness.ts";
import { staticGraph } from "../../support/module_graph.ts";

type Message = Record<string, unknown>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The client's side of stdin: messages sent when the test says, then the end. */
class ClientInput {
  #pending: Uint8Array = new Uint8Array(0);
  #queue: Uint8Array[] = [];
  #wake: (() => void) | undefined;
  #ended = false;

  send(...messages: Message[]): void {
    for (const message of messages) this.#queue.push(encoder.encode(JSON.stringify(message) + "\n"));
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async read(buffer: Uint8Array): Promise<number | null> {
    while (this.#pending.length === 0) {
      const next = this.#queue.shift();
      if (next) this.#pending = next;
      else if (this.#ended) return null;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const count = Math.min(buffer.length, this.#pending.length);
    buffer.set(this.#pending.subarray(0, count));
    this.#pending = this.#pending.subarray(count);
    return count;
  }
}

interface FastSession {
  client: ClientInput;
  emulator: RunningEmulator;
  /** Everything written to the client, parsed. */
  written: Message[];
  /** Resolves with the first written message `match` accepts. */
  next(match: (message: Message) => boolean): Promise<Message>;
  /** Lines the real server was fed, parsed; and how often it was loaded. */
  real: { fed: () => Message[]; loads: () => number };
  /** Ends the input and waits for the session to end. */
  finish(): Promise<void>;
}

const initialize = (capabilities: Message = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "t", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (id: unknown, name: string, args?: unknown, extra: Message = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...extra },
});

async function withFastSession(
  /** `emulator`: one of the test's own (left running), else a seeded one for this session. */
  options: { capabilities?: Message; env?: Record<string, string>; emulator?: RunningEmulator },
  test: (session: FastSession) => Promise<void>,
): Promise<void> {
  const emulator = options.emulator ?? await startEmulator({ seed: true });
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    ...options.env,
  });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  const client = new ClientInput();
  const written: Message[] = [];
  const waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  const fed: string[] = [];
  let loads = 0;
  const stub: RealServer = {
    push: (bytes) => fed.push(decoder.decode(bytes)),
    end: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const write = (text: string) => {
    const message = JSON.parse(text);
    written.push(message);
    for (const waiter of waiters.filter((w) => w.match(message))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  };
  const served = serveFastStart({
    input: client,
    write,
    tools: fastToolListing({ readOnly: config.mcpReadOnly }),
    loadServer: () => {
      loads++;
      return Promise.resolve(stub);
    },
    loadCalls: (clientCapabilities, protocolVersion) =>
      Promise.resolve(
        new FastToolCalls({
          services,
          toolModules: FAST_START_DATA.toolModules,
          clientCapabilities,
          protocolVersion,
          write,
        }),
      ),
  });
  const next = (match: (message: Message) => boolean) => {
    const found = written.find(match);
    if (found) return Promise.resolve(found);
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such message within 10 s: ${match}`)), 10_000);
      waiters.push({ match, resolve: (message) => (clearTimeout(timer), resolve(message)) });
    });
  };
  try {
    await test({
      client,
      emulator,
      written,
      next,
      real: {
        fed: () => fed.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line)),
        loads: () => loads,
      },
      finish: async () => {
        client.end();
        await served;
      },
    });
  } finally {
    client.end();
    await served;
    if (!options.emulator) await emulator.close();
  }
}

const answerTo = (id: unknown) => (message: Message) => message.id === id && !("method" in message);

Deno.test("a first tools/call is run before the real server loads, and never reaches it", async () => {
  await withFastSession({}, async (session) => {
    session.client.send(initialize(), initialized, call(2, "get_account_properties", {}));
    const answer = await session.next(answerTo(2));
    assert.equal(session.real.loads(), 0, "the real server was not loaded for the call");
    const result = answer.result as { structuredContent: { account: { name: string } }; isError?: boolean };
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.account.name, "emulator");
    await session.finish();
    assert.deepEqual(session.real.fed().filter((m) => m.method === "tools/call"), []);
  });
});

Deno.test("the fast calls answer exactly as the real server does, results and refusals", async () => {
  const harness = await startHarness();
  try {
    const calls: Array<[string, Message]> = [
      ["get_account_properties", {}],
      ["get_entity", { guid: "not-a-guid" }],
      ["get_entity", { guid: "not-a-guid", unknown_argument: 1 }],
      ["search_entities", { query: "customers", limit: 2 }],
      ["list_available_operations", { category: "entity" }],
    ];
    await withFastSession({ emulator: harness.emulator }, async (session) => {
      session.client.send(initialize(), initialized);
      calls.forEach(([name, args], i) => session.client.send(call(10 + i, name, args)));
      for (const [i, [name, args]] of calls.entries()) {
        const fast = (await session.next(answerTo(10 + i))).result;
        const real = await harness.client.callTool({ name, arguments: args });
        assert.deepEqual(fast, real, `${name} ${JSON.stringify(args)}`);
      }
    });
  } finally {
    await harness.close();
  }
});

Deno.test("a cancelled fast call answers nothing, and its cancellation stays with it", async () => {
  await withFastSession({}, async (session) => {
    // The catalog holds the call's request long enough for the cancellation to arrive first.
    session.emulator.faults.script([{ method: "GET", delayMs: 6_000 }]);
    session.client.send(initialize(), initialized, call(2, "get_account_properties", {}));
    const started = Date.now();
    while (session.emulator.faults.pendingSteps().length > 0 && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    session.client.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "the user changed their mind" },
    });
    // With no fast call left running, the real server loads once the session is idle (100 ms), long before
    // the catalog would have answered.
    while (session.real.loads() === 0 && Date.now() - started < 4_500) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(session.real.loads(), 1, "the call ended on its cancellation, before the catalog answered");
    await session.finish();
    assert.equal(session.written.some(answerTo(2)), false, "no answer to a cancelled call");
    assert.deepEqual(session.real.fed().filter((m) => m.method === "notifications/cancelled"), []);
  });
});

Deno.test("the client's input ends: a running fast call is aborted and answers nothing", async () => {
  await withFastSession({}, async (session) => {
    session.emulator.faults.script([{ method: "GET", delayMs: 6_000 }]);
    session.client.send(initialize(), initialized, call(2, "get_account_properties", {}));
    const started = Date.now();
    while (session.emulator.faults.pendingSteps().length > 0) await new Promise((r) => setTimeout(r, 5));
    await session.finish();
    assert.ok(Date.now() - started < 4_500, "the session ended without waiting for the catalog");
    assert.equal(session.written.some(answerTo(2)), false);
  });
});

Deno.test("a fast call asks the client for its roots, and reads files only under them", async () => {
  const root = await Deno.makeTempDir({ prefix: "govcat-fast-roots-" });
  const elsewhere = await Deno.makeTempDir({ prefix: "govcat-fast-elsewhere-" });
  try {
    await Deno.writeTextFile(`${root}/assets.csv`, "path,title\nfast://a,A\nfast://b,B\n");
    await Deno.writeTextFile(`${elsewhere}/assets.csv`, "path,title\nfast://c,C\n");
    const importArgs = (dir: string) => ({
      file_path: `${dir}/assets.csv`,
      entity_type: "DataSet",
      column_mapping: { path: "qualifiedName", title: "name" },
      dry_run: true,
    });
    await withFastSession({ capabilities: { roots: { listChanged: true } } }, async (session) => {
      session.client.send(initialize({ roots: { listChanged: true } }), initialized);
      session.client.send(call(2, "import_entities_from_csv", importArgs(root)));
      const asked = await session.next((m) => m.method === "roots/list");
      session.client.send({
        jsonrpc: "2.0",
        id: asked.id,
        result: { roots: [{ uri: new URL(`file://${root}/`).href, name: "work" }] },
      });
      const inside = (await session.next(answerTo(2))).result as Message;
      assert.equal(inside.isError, undefined, JSON.stringify(inside));
      assert.equal((inside.structuredContent as { rows: number }).rows, 2);

      session.client.send(call(3, "import_entities_from_csv", importArgs(elsewhere)));
      const outside = (await session.next(answerTo(3))).result as {
        isError: boolean;
        content: [{ text: string }];
      };
      assert.equal(outside.isError, true);
      assert.match(outside.content[0].text, /root/i);
      assert.equal(session.written.filter((m) => m.method === "roots/list").length, 1, "asked once");
      await session.finish();
      assert.deepEqual(
        session.real.fed().filter((m) => !("method" in m)),
        [],
        "the client's answer stayed here",
      );
    });
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("a fast destructive call asks the user when the client declares elicitation", async () => {
  const guid = "ca7a1000-0000-4000-8000-000000000010";
  await withFastSession({}, async (session) => {
    const status = async (id: number) => {
      session.client.send(call(id, "get_entity", { guid }));
      const read = (await session.next(answerTo(id))).result as { structuredContent: { entity: Message } };
      return read.structuredContent.entity.status;
    };
    session.client.send(initialize({ elicitation: {} }), initialized);
    // The model's "confirm": true does not stand in for the user here either.
    session.client.send(call(2, "delete_entity", { guid, confirm: true }));
    const question = await session.next((m) => m.method === "elicitation/create");
    const params = question.params as { message: string; requestedSchema: unknown };
    assert.match(
      params.message,
      /delete azure_sql_table "Customers" \(qualified name mssql:.*Customers, GUID ca7a/,
    );
    assert.deepEqual(params.requestedSchema, { type: "object", properties: {} });
    session.client.send({ jsonrpc: "2.0", id: question.id, result: { action: "decline" } });
    const declined = (await session.next(answerTo(2))).result as {
      isError: boolean;
      content: [{ text: string }];
    };
    assert.equal(declined.isError, true);
    assert.equal(JSON.parse(declined.content[0].text).error, "UserDeclined");
    assert.equal(await status(10), "ACTIVE", "declined: nothing deleted");

    session.client.send(call(3, "delete_entity", { guid }));
    const again = await session.next((m) => m.method === "elicitation/create" && m.id !== question.id);
    session.client.send({ jsonrpc: "2.0", id: again.id, result: { action: "accept" } });
    const accepted = (await session.next(answerTo(3))).result as Message;
    assert.equal(accepted.isError, undefined, JSON.stringify(accepted));
    assert.equal(await status(11), "DELETED");
    await session.finish();
    assert.deepEqual(session.real.fed().filter((m) => !("method" in m)), [], "the answers stayed here");
  });
});

Deno.test("calls the fast path does not take wait for the real server, in order", async () => {
  await withFastSession({}, async (session) => {
    const unusual = [
      call(2, "no_such_tool", {}),
      call(3, "get_account_properties", "not an object"),
      call(4, "get_account_properties", {}, { task: { ttl: 1000 } }),
      call(5, "get_account_properties", {}, { _meta: { progressToken: 1, other: true } }),
    ];
    session.client.send(initialize(), initialized, ...unusual);
    await session.finish();
    assert.deepEqual(session.real.fed().filter((m) => m.method === "tools/call"), unusual);
    assert.equal(session.written.filter((m) => typeof m.id === "number" && m.id > 1).length, 0);
  });
});

Deno.test("a fast call with a progress token sends the real server's progress notifications", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-fast-progress-" });
  try {
    const rows = Array.from({ length: 30 }, (_, i) => `fast://p${i},P${i}`);
    await Deno.writeTextFile(`${dir}/assets.csv`, ["path,title", ...rows].join("\n") + "\n");
    await withFastSession({ env: { CATALOG_MCP_FILE_ROOT: dir } }, async (session) => {
      session.client.send(
        initialize(),
        initialized,
        call(2, "import_entities_from_csv", {
          file_path: "assets.csv",
          entity_type: "DataSet",
          column_mapping: { path: "qualifiedName", title: "name" },
          batch_size: 10,
        }, { _meta: { progressToken: "p-2" } }),
      );
      const answer = (await session.next(answerTo(2))).result as Message;
      assert.equal((answer.structuredContent as { created: number }).created, 30);
      const progress = session.written.filter((m) => m.method === "notifications/progress");
      assert.ok(progress.length >= 1, "progress was sent");
      assert.ok(progress.every((m) => (m.params as Message).progressToken === "p-2"));
      const last = session.written.findIndex(answerTo(2));
      assert.ok(
        session.written.indexOf(progress.at(-1)!) < last,
        "the last progress comes before the result",
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fast call path loads neither the MCP SDK nor ajv, nor any tool module but its own", async () => {
  for (const entry of ["lib/mcp/fast_tool_calls.ts", "cli/serve_services.ts"]) {
    const graph = [...await staticGraph(entry, { typesToo: false })];
    assert.ok(
      graph.some((s) => s.endsWith("/lib/mcp/tool_call.ts") || s.endsWith("/lib/core/log.ts")),
      entry,
    );
    const heavy = graph.filter((s) =>
      s.includes("@modelcontextprotocol/sdk") || s.includes("ajv") || s.includes("/lib/operations/mod.ts") ||
      (s.includes("/lib/mcp/tools/") && !s.endsWith("/lib/mcp/tools/modules.ts"))
    );
    assert.deepEqual(heavy, [], `${entry} loads what a first call does not need`);
  }
  for (const file of Object.keys(TOOL_MODULES)) {
    const graph = [...await staticGraph(`lib/mcp/tools/${file}`, { typesToo: false })];
    assert.deepEqual(graph.filter((s) => s.includes("@modelcontextprotocol/sdk")), [], file);
  }
});
