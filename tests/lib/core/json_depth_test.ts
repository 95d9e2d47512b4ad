/**
 * Nesting depth without recursion: the raw answer is scanned before parsing, a value before rendering, and
 * a million levels cost neither a stack overflow nor much time.
 */
import assert from "node:assert/strict";
import { AnswerTooDeepError } from "../../../lib/core/errors.ts";
import {
  assertRenderableDepth,
  jsonBytesExceedDepth,
  MAX_JSON_DEPTH_LIMIT,
  valueExceedsDepth,
} from "../../../lib/core/json_depth.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** `levels` arrays inside one another, built without recursion. */
function deepValue(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

Deno.test("jsonBytesExceedDepth: counts arrays and objects, not brackets inside strings", () => {
  assert.equal(jsonBytesExceedDepth(bytes('{"a":[1,{"b":2}]}'), 3), false);
  assert.equal(jsonBytesExceedDepth(bytes('{"a":[1,{"b":2}]}'), 2), true);
  assert.equal(jsonBytesExceedDepth(bytes('["[[[[", "\\"[[[[", "{{{{\\\\"]'), 1), false);
  assert.equal(jsonBytesExceedDepth(bytes("[1],[2],[3]"), 1), false, "siblings do not add up");
  assert.equal(jsonBytesExceedDepth(bytes("not json at all"), 1), false);
});

Deno.test("jsonBytesExceedDepth: a million levels are refused at once, without recursion", () => {
  const text = bytes("[".repeat(1_000_000) + "]".repeat(1_000_000));
  const started = performance.now();
  assert.equal(jsonBytesExceedDepth(text, 256), true);
  assert.equal(jsonBytesExceedDepth(text, 2_000_000), false);
  assert.ok(performance.now() - started < 2000);
});

Deno.test("valueExceedsDepth: walks a million-level value with a stack of its own", () => {
  assert.equal(valueExceedsDepth({ a: { b: [1] } }, 3), false);
  assert.equal(valueExceedsDepth({ a: { b: [1] } }, 2), true);
  assert.equal(valueExceedsDepth("text", 0), false);
  assert.equal(valueExceedsDepth(deepValue(1_000_000), MAX_JSON_DEPTH_LIMIT), true);
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.equal(valueExceedsDepth(cycle, 50), true, "a cycle is too deep, not a hang");
});

Deno.test("assertRenderableDepth: a result past the render bound is a clear AnswerTooDeepError", () => {
  assertRenderableDepth(deepValue(MAX_JSON_DEPTH_LIMIT));
  assert.throws(
    () => assertRenderableDepth(deepValue(1_000_000)),
    (error) =>
      error instanceof AnswerTooDeepError &&
      /more than 1000 levels deep; it was not rendered/.test(error.message),
  );
});
