import assert from "node:assert/strict";
import { backoffDelayMs, retryAfterMs, shouldRetry } from "../../../lib/http/retry.ts";

Deno.test("retryAfterMs reads milliseconds headers first, then seconds, then an HTTP date", () => {
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" })), 250);
  assert.equal(retryAfterMs(new Headers({ "x-ms-retry-after-ms": "1500" })), 1500);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "2" })), 2000);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "0.5" })), 500);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now), 3000);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "soon" })), undefined);
  assert.equal(retryAfterMs(new Headers()), undefined);
});

Deno.test("backoff grows exponentially, stays within bounds and is jittered", () => {
  const options = { baseMs: 100, maxMs: 1000 };
  assert.equal(backoffDelayMs(1, { ...options, random: () => 0 }), 50);
  assert.equal(backoffDelayMs(1, { ...options, random: () => 0.999999 }), 100);
  assert.equal(backoffDelayMs(3, { ...options, random: () => 0 }), 200);
  assert.equal(backoffDelayMs(10, { ...options, random: () => 0.999999 }), 1000);
  const samples = new Set(Array.from({ length: 20 }, () => backoffDelayMs(4, options)));
  assert.ok(samples.size > 1, "jitter spreads retries");
});

Deno.test("shouldRetry: idempotent calls retry transient failures; writes only when nothing was applied", () => {
  const table: Array<[Parameters<typeof shouldRetry>[0], boolean, boolean]> = [
    [{ kind: "status", status: 429 }, true, true],
    [{ kind: "status", status: 429 }, false, true],
    [{ kind: "status", status: 503 }, true, true],
    [{ kind: "status", status: 503 }, false, false],
    [{ kind: "status", status: 502 }, true, true],
    [{ kind: "status", status: 504 }, false, false],
    [{ kind: "status", status: 500 }, true, false],
    [{ kind: "status", status: 404 }, true, false],
    [{ kind: "status", status: 400 }, true, false],
    [{ kind: "network", sent: false }, false, true],
    [{ kind: "network", sent: true }, false, false],
    [{ kind: "network", sent: true }, true, true],
    [{ kind: "timeout" }, true, true],
    [{ kind: "timeout" }, false, false],
  ];
  for (const [outcome, idempotent, expected] of table) {
    assert.equal(
      shouldRetry(outcome, idempotent),
      expected,
      `${JSON.stringify(outcome)} idempotent=${idempotent}`,
    );
  }
});
