import assert from "node:assert/strict";
import { RateLimiter } from "../../../lib/http/rate_limiter.ts";

Deno.test("the bucket allows a one-second burst, then paces to the rate", async () => {
  const limiter = new RateLimiter(20);
  const started = performance.now();
  for (let i = 0; i < 25; i++) await limiter.acquire();
  const elapsed = performance.now() - started;
  // 20 immediately, 5 more at 20/s need about 250 ms.
  assert.ok(elapsed >= 200, `paced: took ${elapsed} ms`);
  assert.ok(elapsed < 2000, `not stalled: took ${elapsed} ms`);
});

Deno.test("a shared pause holds every caller back and is never shortened", async () => {
  const limiter = new RateLimiter(0);
  limiter.pauseFor(120);
  limiter.pauseFor(10);
  const started = performance.now();
  await Promise.all([limiter.acquire(), limiter.acquire()]);
  assert.ok(performance.now() - started >= 100);
});

Deno.test("acquire honours an abort signal", async () => {
  const limiter = new RateLimiter(0);
  limiter.pauseFor(10_000);
  const controller = new AbortController();
  const waiting = limiter.acquire(controller.signal);
  controller.abort(new Error("stopped"));
  await assert.rejects(waiting, /stopped/);
});

Deno.test("after a throttle, callers released together leave one interval of the learnt rate apart", async () => {
  // The rate is learnt on a clock the test moves (held still while the callers wait, so it does not regrow).
  const clock = { now: 1_000_000 };
  const limiter = new RateLimiter(0, { now: () => clock.now });
  for (let i = 0; i < 10; i++) {
    await limiter.acquire();
    clock.now += 100;
  }
  assert.equal(limiter.pacedPerSecond, Infinity, "no pacing before a throttle");
  limiter.throttled(0);
  // 9 admitted in the last second (10 sent, 1 refused): paced to 0.9 × 9 = 8.1 a second, 123 ms apart.
  const interval = 1000 / limiter.pacedPerSecond;
  assert.ok(interval > 100);
  const started = performance.now();
  const left: number[] = [];
  await Promise.all(
    [0, 1, 2].map(() => limiter.acquire().then(() => left.push(performance.now() - started))),
  );
  assert.ok(left[2] >= 2 * interval - 5, `the third left after two intervals: ${left.map(Math.round)} ms`);
});
