/**
 * stdio robustness: real `govcat serve` subprocesses over stdio, with and without
 * the fast start, are written raw lines and must answer each broken one with a JSON-RPC error instead of
 * dropping it: a line that is not JSON (-32700), a message without `method` (-32600), a batch (-32600
 * from MCP 2025-06-18 on; each message answered alone under 2025-03-26, which had batches), `tools/call`
 * without params (-32602, readable), an unknown tool (-32602, not prefixed twice) and a cursor the server
 * never issued (-32602). The session goes on working after each of them.
 */
import assert from "node:assert/strict";
import { baseEnv, govcatArgs } from "../support/govcat_process.ts";

type Message = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

const PATHS: Record<string, Record<string, string>> = {
  "fast start": {},
  "full server": { GOVCAT_NO_FAST_START: "1" },
};

function initialize(protocolVersion: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
}

/** Writes `lines` to a `govcat serve` over stdio, reads `count` answers, then closes its input. */
async function rawSession(env: Record<string, string>, lines: string[], count: number): Promise<Message[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: govcatArgs(["serve"]),
    // No catalog call is made: the address is never contacted.
    env: { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9", ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(lines.map((line) => line + "\n").join("")));
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const answers: Message[] = [];
    while (answers.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      let end;
      while ((end = text.indexOf("\n")) >= 0) {
        answers.push(JSON.parse(text.slice(0, end)));
        text = text.slice(end + 1);
      }
    }
    await writer.close();
    await reader.cancel();
    await child.status;
    return answers;
  } finally {
    clearTimeout(killer);
  }
}

const PING = (id: unknown) => ({ jsonrpc: "2.0", id, method: "ping" });

function answerTo(answers: Message[], id: unknown): Message {
  const found = answers.filter((answer) => answer.id === id);
  assert.equal(found.length, 1, `one answer to ${JSON.stringify(id)} in ${JSON.stringify(answers)}`);
  return found[0];
}

for (const [path, env] of Object.entries(PATHS)) {
  Deno.test(`stdio (${path}): broken messages get JSON-RPC errors, 2025-06-18`, async () => {
    const answers = await rawSession(env, [
      initialize("2025-06-18"),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      "{not json",
      JSON.stringify({ jsonrpc: "2.0", id: "no-method" }),
      JSON.stringify([PING("batched-1"), PING("batched-2")]),
      JSON.stringify({ jsonrpc: "2.0", id: "call-no-params", method: "tools/call" }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: "unknown-tool",
        method: "tools/call",
        params: { name: "no_such_tool", arguments: {} },
      }),
      JSON.stringify({ jsonrpc: "2.0", id: "cursor", method: "tools/list", params: { cursor: "bogus" } }),
      JSON.stringify(PING("after")),
    ], 8);
    assert.equal(answers.length, 8, JSON.stringify(answers));
    assert.equal(
      (answerTo(answers, "init").result as { protocolVersion: string }).protocolVersion,
      "2025-06-18",
    );

    const anonymous = answers.filter((answer) => answer.id === null);
    assert.deepEqual(anonymous.map((answer) => answer.error?.code), [-32700, -32600]);
    assert.match(anonymous[0].error!.message, /^Parse error: /);
    assert.match(anonymous[1].error!.message, /batches since revision 2025-06-18 .* uses 2025-06-18/);
    assert.ok(!answers.some((answer) => answer.id === "batched-1" || answer.id === "batched-2"));

    const noMethod = answerTo(answers, "no-method").error!;
    assert.equal(noMethod.code, -32600);
    assert.match(noMethod.message, /no "method"/);

    const noParams = answerTo(answers, "call-no-params").error!;
    assert.equal(noParams.code, -32602);
    assert.match(noParams.message, /^Invalid params: tools\/call needs params \{"name"/);
    assert.doesNotMatch(noParams.message, /invalid_type|expected/);

    const unknown = answerTo(answers, "unknown-tool").error!;
    assert.equal(unknown.code, -32602);
    assert.equal(unknown.message, "Unknown tool: no_such_tool.");

    const cursor = answerTo(answers, "cursor").error!;
    assert.equal(cursor.code, -32602);
    assert.match(cursor.message, /^Invalid cursor: /);

    assert.deepEqual(answerTo(answers, "after").result, {});
  });

  Deno.test(`stdio (${path}): a 2025-03-26 session's batch is answered message by message`, async () => {
    const answers = await rawSession(env, [
      initialize("2025-03-26"),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify([PING("batched-1"), { jsonrpc: "2.0", id: "batched-no-method" }, PING("batched-2")]),
      "[]",
    ], 5);
    assert.equal(
      (answerTo(answers, "init").result as { protocolVersion: string }).protocolVersion,
      "2025-03-26",
    );
    assert.deepEqual(answerTo(answers, "batched-1").result, {});
    assert.deepEqual(answerTo(answers, "batched-2").result, {});
    assert.equal(answerTo(answers, "batched-no-method").error?.code, -32600);
    const empty = answerTo(answers, null).error!;
    assert.equal(empty.code, -32600);
    assert.match(empty.message, /empty batch/);
  });

  Deno.test(`stdio (${path}): a cursor in the handshake's tools/list is refused`, async () => {
    // Nothing waits for the real server here: the fast start would answer tools/list itself.
    const answers = await rawSession(env, [
      initialize("2025-06-18"),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      JSON.stringify({ jsonrpc: "2.0", id: "cursor", method: "tools/list", params: { cursor: "bogus" } }),
    ], 2);
    const cursor = answerTo(answers, "cursor").error!;
    assert.equal(cursor.code, -32602);
    assert.match(cursor.message, /^Invalid cursor: /);
  });
}
