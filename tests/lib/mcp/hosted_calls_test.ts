/**
 * The registry of running hosted calls on its own: a cancellation reaches a call only under the same
 * session id and the exact JSON-RPC id (0 included, "1" is not 1), calls without a session cannot be
 * cancelled by id, and an ended call is forgotten.
 */
import assert from "node:assert/strict";
import { HostedCalls } from "../../../lib/mcp/hosted_calls.ts";

function tracked(calls: HostedCalls, session: string | undefined, ids: (string | number)[]) {
  const state = { stopped: 0 };
  const untrack = calls.track(session, ids, () => state.stopped++);
  return { state, untrack };
}

Deno.test("a cancellation stops only the call of the same session and the exact id", () => {
  const calls = new HostedCalls();
  const zero = tracked(calls, "session-a", [0]);
  const text = tracked(calls, "session-a", ["1"]);
  const other = tracked(calls, "session-b", [0]);
  assert.equal(calls.cancel("session-b", 1), false);
  assert.equal(calls.cancel("session-a", 1), false, '1 is not "1"');
  assert.equal(calls.cancel("session-c", 0), false);
  assert.deepEqual([zero.state.stopped, text.state.stopped, other.state.stopped], [0, 0, 0]);
  assert.equal(calls.cancel("session-a", 0), true, "id 0 is an id");
  assert.deepEqual([zero.state.stopped, text.state.stopped, other.state.stopped], [1, 0, 0]);
});

Deno.test("a call without a session stops only when its client leaves or the server closes", () => {
  const calls = new HostedCalls();
  const anonymous = tracked(calls, undefined, [5]);
  assert.equal(calls.cancel("", 5), false);
  assert.equal(calls.endSession(""), 0);
  assert.equal(anonymous.state.stopped, 0);
  calls.stopAll();
  assert.equal(anonymous.state.stopped, 1);
});

Deno.test("ending a session stops each of its calls once, a batch included; ended calls are forgotten", () => {
  const calls = new HostedCalls();
  const batch = tracked(calls, "s", [1, 2]);
  const single = tracked(calls, "s", [3]);
  const prefixed = tracked(calls, "s2", [1]);
  assert.equal(calls.endSession("s"), 2);
  assert.deepEqual([batch.state.stopped, single.state.stopped, prefixed.state.stopped], [1, 1, 0]);
  batch.untrack();
  single.untrack();
  assert.equal(calls.size, 1);
  assert.equal(calls.cancel("s", 1), false, "an ended call is not found again");
});
