import assert from "node:assert/strict";
import { AdaptiveWindow, INITIAL_WINDOW, type SentRequest } from "../../../lib/csv/adaptive_window.ts";

/** A window on a clock the test moves. */
function windowOn(max: number, options: { initial?: number; coolDownMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const window = new AdaptiveWindow(max, { ...options, now: () => clock.now });
  const flight: SentRequest[] = [];
  const topUp = () => {
    while (flight.length < window.size) flight.push(window.sent());
  };
  /**
   * `answers` answers, each `rttMs` after its request, with the window kept full as an import keeps it: an
   * answer makes room for the next request (default: one window's worth).
   */
  const steady = (rttMs: number, answers = window.size) => {
    topUp();
    for (let i = 0; i < answers; i++) {
      const at = flight.shift()!;
      clock.now = Math.max(clock.now, at.at + rttMs);
      window.answered(at);
      topUp();
    }
  };
  /** `count` requests sent together and answered `rttMs` later, with nothing else in flight. */
  const burst = (rttMs: number, count: number) => {
    const sent = Array.from({ length: count }, () => window.sent());
    clock.now += rttMs;
    for (const at of sent) window.answered(at);
  };
  /** Answers whatever is in flight, `rttMs` after it was sent, sending nothing more. */
  const drain = (rttMs: number) => {
    while (flight.length > 0) {
      const at = flight.shift()!;
      clock.now = Math.max(clock.now, at.at + rttMs);
      window.answered(at);
    }
  };
  return { window, clock, steady, burst, drain };
}

Deno.test("the window starts small and is bounded by the maximum", () => {
  assert.equal(new AdaptiveWindow(32).size, INITIAL_WINDOW);
  assert.equal(new AdaptiveWindow(2).size, 2);
  assert.equal(new AdaptiveWindow(0).size, 1);
  assert.equal(new AdaptiveWindow(32, { initial: 1 }).size, 1);
});

Deno.test("slow start: each answer as fast as the baseline adds a batch (double per round trip), up to the maximum", () => {
  const { window, steady } = windowOn(40);
  steady(20, 4); // one round trip of the first window
  assert.equal(window.size, 8);
  steady(20, 8);
  assert.equal(window.size, 16);
  steady(20, 100);
  assert.equal(window.size, 40);
});

Deno.test("the window does not grow while the import keeps fewer than half of it in flight", () => {
  const { window, burst } = windowOn(32, { initial: 16 });
  for (let i = 0; i < 10; i++) burst(20, 4);
  assert.equal(window.size, 16);
});

Deno.test("rising latency shrinks the window; latency within the tolerance holds it", () => {
  const { window, steady } = windowOn(64, { initial: 32 });
  steady(20, 40);
  assert.equal(window.size, 64);
  // 25 ms is within 2 × the baseline: no queueing seen, nothing shrinks.
  steady(25, 64);
  assert.equal(window.size, 64);
  // Four times the baseline: the service is queueing; the window shrinks, by at most 10% an answer.
  steady(80, 1);
  assert.ok(window.size < 64 && window.size >= 57, `smoothed cut: 64 to ${window.size}`);
  steady(80, 30);
  assert.ok(window.size <= 16, `answers that stay slow cut it hard: ${window.size}`);
  assert.ok(window.size >= 1);
});

Deno.test("after slowing down, growth is additive: about one batch per window of good answers", () => {
  const { window, steady, drain } = windowOn(64, { initial: 8 });
  steady(20, 8); // the baseline; slow start to 16
  assert.equal(window.size, 16);
  steady(60, 1); // queueing: leave slow start
  drain(60);
  const after = window.size;
  assert.ok(after < 16, `shrunk: ${after}`);
  steady(20, 4 * after); // four windows of answers at the baseline
  assert.ok(window.size >= after + 2 && window.size <= after + 4, `additive: ${after} to ${window.size}`);
});

Deno.test("a 429 halves the window, once per cool-down, and never below one", () => {
  const { window, clock } = windowOn(32, { initial: 32, coolDownMs: 1000 });
  window.throttled();
  assert.equal(window.size, 16);
  window.throttled(); // the same throttle seen by another call in flight
  assert.equal(window.size, 16);
  clock.now += 1001;
  window.throttled();
  assert.equal(window.size, 8);
  for (let i = 0; i < 10; i++) {
    clock.now += 1001;
    window.throttled();
  }
  assert.equal(window.size, 1);
});

Deno.test("after a 429, growth is additive, not slow start", () => {
  const { window, clock, steady, drain } = windowOn(64, { initial: 16 });
  steady(20, 16);
  assert.equal(window.size, 32);
  window.throttled(); // 32 -> 16
  assert.equal(window.size, 16);
  drain(20);
  clock.now += 1001;
  steady(20, 64); // four windows of answers at the baseline
  assert.ok(window.size >= 18 && window.size <= 20, `additive: 16 to ${window.size}`);
});

Deno.test("Karn's rule: a round trip that overlaps a throttle or its pause is not a sample", () => {
  const { window, clock, burst } = windowOn(64, { initial: 16, coolDownMs: 100 });
  // Sixteen sent before the 429, answered after its 2 s pause: counted, they would grow the window.
  const early = Array.from({ length: 16 }, () => window.sent());
  window.throttled(2000);
  assert.equal(window.size, 8);
  clock.now += 1990;
  for (const at of early) window.answered(at);
  assert.equal(window.size, 8);
  // Sent within the pause the 429 asked for: not samples either.
  burst(20, 8);
  assert.equal(window.size, 8);
  // Sent after it: counted again (growing the window additively: a 429 ended slow start).
  burst(20, 9);
  assert.equal(window.size, 9);
});

Deno.test("the window does not grow for the cool-down after a 429, whatever the wait it asked for", () => {
  const { window, clock, steady, drain } = windowOn(64, { initial: 16, coolDownMs: 1000 });
  steady(20, 16);
  window.throttled(0);
  assert.equal(window.size, 16);
  drain(20);
  steady(20, 64);
  assert.equal(window.size, 16, "answers of requests sent within the cool-down are not samples");
  clock.now += 1000;
  drain(20);
  steady(20, 64);
  assert.ok(window.size >= 18, `growing again: ${window.size}`);
});

Deno.test("requests that end without a round trip leave the window as it is", () => {
  const { window, clock } = windowOn(32);
  const sent = Array.from({ length: 4 }, () => window.sent());
  clock.now += 20;
  for (const at of sent) window.ended(at);
  assert.equal(window.size, 4);
  window.succeeded();
  assert.equal(window.size, 4);
});
