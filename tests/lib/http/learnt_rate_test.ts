import assert from "node:assert/strict";
import { LearntRate, RATE_KEPT } from "../../../lib/http/learnt_rate.ts";

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

Deno.test("a client younger than a second measures what was admitted over its own age", () => {
  const { rate, send } = rateOn();
  send(10, 250);
  rate.throttled(0); // 9 admitted in a quarter of a second: 36 a second
  near(rate.perSecond, RATE_KEPT * 36);
});

Deno.test("the cut waits for the pause to end, counting the refusals of the requests in flight: a window's burst reads R", () => {
  const { rate, clock, send } = rateOn();
  send(40, 200); // a burst: the service's window admits 20 of them at once
  rate.throttled(800); // the first 429, asking for the rest of the window's second
  for (let i = 0; i < 19; i++) rate.throttled(800); // the rest of the burst, refused as it is answered
  assert.equal(rate.perSecond, Infinity, "nothing is sent during the pause, nothing decided");
  clock.now += 800;
  near(rate.perSecond, RATE_KEPT * 20, "20 admitted over the 200 ms of the burst and the 800 ms pause");
});

Deno.test("the requests refused together are one throttle: a 429 within one interval of the cut is not another", () => {
  const { rate, clock, send } = rateOn();
  send(40, 1000);
  for (let i = 0; i < 10; i++) rate.throttled(200); // 10 of the last second's 40 refused: well over
  clock.now += 200;
  const cut = rate.perSecond; // RATE_KEPT × 30 admitted over the second and the pause: 22.5
  near(cut, (RATE_KEPT * 30) / 1.2);
  clock.now += 10; // within one interval (44 ms) of the cut
  rate.throttled(0);
  assert.ok(Math.abs(rate.perSecond - cut) < 0.1, `${rate.perSecond}: still the cut of the same throttle`);
  clock.now += 50; // past it: still well over, a throttle of its own
  rate.throttled(0);
  assert.ok(Math.abs(rate.perSecond - cut) > 1, `${rate.perSecond}: a new cut`);
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

Deno.test("a 429 below the rate of the last cut, the service taking nearly everything, is not a cut", () => {
  const { rate, send } = rateOn();
  send(100, 1000);
  rate.throttled(0); // 99 admitted: paced to RATE_KEPT × 99
  send(90, 1000); // regrowing, still below 99
  const paced = rate.perSecond;
  assert.ok(paced < 99);
  rate.throttled(0); // one 429 in the last second's 90: a transient refusal
  assert.ok(rate.perSecond >= paced, "the rate keeps regrowing");
});

Deno.test("a 429 once the rate has regrown past the last cut's is a cut from that rate, or what was admitted if lower while at pace", () => {
  const { rate, clock, send } = rateOn();
  send(20, 1000);
  rate.throttled(0); // 19 admitted
  clock.now += 2000; // past K after the next second: beyond 19
  send(10, 1000); // held back (by backoffs): what was admitted says nothing of the limit
  const paced = rate.perSecond;
  assert.ok(paced > 19 && paced < 21);
  rate.throttled(0);
  near(rate.perSecond, RATE_KEPT * paced);
  clock.now += 3000;
  send(25, 1000); // at pace (about 25 a second by now), 24 admitted
  assert.ok(rate.perSecond > 24);
  rate.throttled(0);
  near(rate.perSecond, RATE_KEPT * 24);
});

Deno.test("a service refusing a clear share of what was sent is a cut to what it admitted, however the rate stands", () => {
  const { rate, clock, send } = rateOn();
  send(100, 1000);
  rate.throttled(0); // paced to RATE_KEPT × 99, below the last cut's rate from now on
  for (let i = 0; i < 29; i++) rate.throttled(0); // within the same throttle: counted, no cut
  clock.now += 20;
  rate.throttled(0); // the last second: 98 sent, 31 refused, 67 admitted
  near(rate.perSecond, RATE_KEPT * 67);
});

Deno.test("two refusals among a handful of requests are chance, not a service well over the client", () => {
  const { rate, clock, send } = rateOn();
  send(20, 1000);
  rate.throttled(0); // 19 admitted
  clock.now += 1000; // nothing sent for a while (retries waiting out a backoff), still regrowing
  send(4, 400);
  const paced = rate.perSecond;
  rate.throttled(0);
  clock.now += 100;
  rate.throttled(0); // 2 of the last second's 4 refused
  assert.ok(rate.perSecond >= paced, "no cut");
});
