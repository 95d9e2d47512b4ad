/**
 * The client-wide pause on 429: when the service throttles one call, every call of the client waits the
 * Retry-After before sending again, retried or not. Checked against the emulator's scripted faults, with
 * the time each request reached the emulator.
 */
import assert from "node:assert/strict";
import { RateLimitError } from "../../../lib/core/errors.ts";
import { HttpClient } from "../../../lib/http/client.ts";
import { type FaultInjector, startEmulator } from "../../../lib/emulator/mod.ts";

const PATH = "/datamap/api/atlas/v2/types/typedefs/headers";
const RETRY_AFTER_MS = 400;
const SENDERS = 4;

/**
 * Four senders loop over GETs to an emulator answering in 30 ms; once they are going, one request is
 * answered 429 with retry-after-ms 400. Returns when the client saw the 429 and when each request reached
 * the emulator (epoch ms, the emulator's own clock: it runs in this process).
 */
async function throttleOnce(maxRetries: number) {
  const emulator = await startEmulator({ seed: false, faults: { latencyMs: 30 } });
  const injector = emulator.faults as FaultInjector;
  const arrivals: number[] = [];
  const plan = injector.plan.bind(injector);
  injector.plan = (method, path, now) => {
    if (path.includes("typedefs/headers")) arrivals.push(now);
    return plan(method, path, now);
  };
  const http = new HttpClient({ baseUrls: { datamap: emulator.url }, maxRetries, retryBaseMs: 5 });
  let seen: number | undefined;
  http.onThrottle(() => seen ??= Date.now());
  const throttled: unknown[] = [];
  let stop = false;
  const sender = async () => {
    while (!stop) {
      try {
        await http.request({ method: "GET", path: PATH, apiVersion: false });
      } catch (error) {
        throttled.push(error);
      }
    }
  };
  try {
    const senders = Array.from({ length: SENDERS }, sender);
    await new Promise((resolve) => setTimeout(resolve, 150));
    emulator.faults.script([{ status: 429, retryAfterMs: RETRY_AFTER_MS, path: "typedefs/headers" }]);
    const deadline = Date.now() + 5_000;
    while (seen === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS + 200));
    stop = true;
    await Promise.all(senders);
  } finally {
    await emulator.close();
  }
  assert.ok(seen !== undefined, "the scripted 429 reached the client");
  return { seen, arrivals, throttled };
}

function assertPaused(seen: number, arrivals: number[]): void {
  const after = arrivals.filter((at) => at > seen);
  const early = after.filter((at) => at < seen + RETRY_AFTER_MS - 5);
  assert.deepEqual(
    early.map((at) => at - seen),
    [],
    `requests reached the emulator within the ${RETRY_AFTER_MS} ms Retry-After (ms after the 429)`,
  );
  // Every sender was held, not stopped: they all send again once the pause is over.
  assert.ok(after.length >= SENDERS, `${after.length} requests after the pause`);
}

Deno.test("after a 429 with Retry-After, no request of the client reaches the service before it has passed", async () => {
  const { seen, arrivals, throttled } = await throttleOnce(3);
  assert.deepEqual(throttled, [], "the throttled call was retried and succeeded");
  assertPaused(seen, arrivals);
});

Deno.test("the pause holds the other calls even when the throttled call is not retried", async () => {
  const { seen, arrivals, throttled } = await throttleOnce(0);
  assert.equal(throttled.length, 1);
  assert.ok(throttled[0] instanceof RateLimitError, String(throttled[0]));
  assertPaused(seen, arrivals);
});
