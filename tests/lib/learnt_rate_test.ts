import assert from "node:assert/strict";
import { LearntRate, RATE_KEPT } from "../../lib/learnt_rate.ts";

const near = (actual: number, expected: number, message?: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, message ?? `${actual} ≉ ${expected}`);

/** A learnt rate on a clock the test moves. */
function rateOn() {
  const clock = { now: 1_000_000 };
  const rate = new LearntRate({ now: () => clock.now });
  /** `count` requests sent evenly over `ms`. */
  const send = (count: number, ms: number) => {
    for (let i = 0; i < count; i++) {
      rate.sent();
      clock.now += ms / count;
    }
  };
  return { rate, clock, send };
}

Deno.test("nothing is learnt before the first throttle: no pacing", () => {
  const { rate, send } = rateOn();
  send(500, 1000);
  assert.equal(rate.perSecond, Infinity);
});

Deno.test("a throttle keeps a share of the rate the service admitted over the last second: sent, less refused", () => {
  const { rate, clock, send } = rateOn();
  send(60, 1000);
  clock.now += 500; // the first half of those left more than a second ago
  rate.throttled(0);
  // 30 sent within the last second, one of them refused.
  near(rate.perSecond, RATE_KEPT * 29);
});

Deno.test("the requests refused together are one throttle: one cut, until its pause and one interval have passed", () => {
  const { rate, clock, send } = rateOn();
  send(20, 1000);
  rate.throttled(200);
  const cut = rate.perSecond;
  clock.now += 100;
  rate.throttled(200);
  assert.ok(rate.perSecond >= cut, "a 429 within the pause does not cut again");
  clock.now += 200 + 1000 / cut;
  rate.throttled(0);
  assert.ok(rate.perSecond < cut, "a 429 after the pause and one interval does");
});

Deno.test("the rate regrows as CUBIC does: back to the admitted rate, flat near it, then beyond; forgotten at twice it", () => {
  const { rate, clock, send } = rateOn();
  send(20, 1000);
  rate.throttled(0); // 19 admitted
  const ceiling = 19;
  near(rate.perSecond, RATE_KEPT * ceiling);
  const k = Math.cbrt((ceiling * (1 - RATE_KEPT)) / 0.4) * 1000;
  clock.now += k / 2;
  const halfway = rate.perSecond;
  assert.ok(halfway > RATE_KEPT * ceiling && halfway < ceiling);
  clock.now += k / 2;
  near(rate.perSecond, ceiling, "back at the admitted rate after K");
  clock.now += 1000;
  assert.ok(rate.perSecond > ceiling, "then probing beyond it");
  clock.now += 10_000;
  assert.equal(rate.perSecond, Infinity, "no throttle while it doubled: forgotten");
});

Deno.test("a throttle while pacing never learns a rate above the one paced to, even with a burst still in the last second", () => {
  const { rate, clock, send } = rateOn();
  send(100, 1000);
  rate.throttled(0); // 99 admitted: paced to RATE_KEPT × 99, one request every 11 ms
  clock.now += 20; // past the interval: a new throttle
  const paced = rate.perSecond;
  rate.throttled(0); // the burst still counts 98 admitted in the last second, more than paced to
  near(rate.perSecond, RATE_KEPT * paced);
});
