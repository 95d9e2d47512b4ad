/**
 * JSON-RPC POST bodies of the streamable and hosted endpoints (lib/mcp/http_bodies.ts): parsed within the
 * guard's size limit, refused with the JSON-RPC error a client can act on.
 *
 * @module
 */
import assert from "node:assert/strict";
import { bodyRequestId, parseJsonRpcBody } from "../../../lib/mcp/http_bodies.ts";
import { HttpGuard } from "../../../lib/mcp/http_security.ts";

const guard = new HttpGuard({ host: "127.0.0.1", port: 8000, maxBodyBytes: 128 });

function request(body: string): Request {
  return new Request("http://127.0.0.1:8000/mcp", { method: "POST", body });
}

async function refusal(answer: unknown): Promise<{ status: number; code: number; message: string }> {
  assert.ok(answer instanceof Response, `a refusal, not ${JSON.stringify(answer)}`);
  const { error } = await answer.json();
  return { status: answer.status, code: error.code, message: error.message };
}

Deno.test("a JSON-RPC body is parsed; bad JSON, an empty batch and a repeated id are refused", async () => {
  const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
  assert.deepEqual(await parseJsonRpcBody(guard, request(JSON.stringify(ping))), ping);
  assert.deepEqual(await refusal(await parseJsonRpcBody(guard, request("{not json"))), {
    status: 400,
    code: -32700,
    message: "Parse error: the body is not valid JSON.",
  });
  assert.deepEqual(await refusal(await parseJsonRpcBody(guard, request("[]"))), {
    status: 400,
    code: -32600,
    message: "Invalid Request: the body is an empty batch; send at least one message.",
  });
  const repeated = await refusal(await parseJsonRpcBody(guard, request(JSON.stringify([ping, ping]))));
  assert.deepEqual([repeated.status, repeated.code], [400, -32600]);
  assert.match(repeated.message, /more than one request with id 1/);
  assert.equal((await refusal(await parseJsonRpcBody(guard, request("x".repeat(129))))).status, 413);
});

Deno.test("the request id of a body is read when there is one, null otherwise", async () => {
  assert.equal(await bodyRequestId(guard, request('{"jsonrpc":"2.0","id":"a","method":"ping"}')), "a");
  assert.equal(await bodyRequestId(guard, request("{not json")), null);
  assert.equal(await bodyRequestId(guard, request("x".repeat(129))), null);
});
