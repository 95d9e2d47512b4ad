/**
 * What BatchSender tells the adaptive window: the round trip of each batch's first attempt (so the window
 * grows while answers come back), nothing for retries or halves of a refused batch, and a 429 that reaches
 * it halves the window.
 */
import assert from "node:assert/strict";
import { AdaptiveWindow } from "../../../lib/csv/adaptive_window.ts";
import { BatchSender } from "../../../lib/csv/batch_sender.ts";
import type { BulkImport, CsvTemplate, ImportUnit, UnitOutcome } from "../../../lib/csv/types.ts";
import { BadRequestError, RateLimitError } from "../../../lib/core/errors.ts";

const units = (count: number, from = 0): ImportUnit<number>[] =>
  Array.from({ length: count }, (_, i) => ({ lines: [from + i + 2], item: from + i }));

/** An import whose sends take `ms` and answer "created", after the failures `failures` throws, in order. */
function fakeImport(ms: number, failures: Error[] = []): BulkImport<number> & { sends: number[] } {
  const sends: number[] = [];
  return {
    id: "test.import",
    template: {} as CsvTemplate,
    sends,
    send: async (batch) => {
      sends.push(batch.length);
      await new Promise((resolve) => setTimeout(resolve, ms));
      const failure = failures.shift();
      if (failure) throw failure;
      return batch.map((): UnitOutcome => ({ status: "created" }));
    },
    describe: () => ({}),
  };
}

const senderOf = (plugin: BulkImport<number>, window: AdaptiveWindow) =>
  new BatchSender(plugin, window, new AbortController().signal, { retryDelayMs: 1 }, () => 0);

Deno.test("the round trips of batches in flight grow the window", async () => {
  const window = new AdaptiveWindow(32);
  assert.equal(window.size, 4);
  const sender = senderOf(fakeImport(5), window);
  await Promise.all(Array.from({ length: 4 }, (_, i) => sender.run(units(10, i * 10), false)));
  assert.equal(window.size, 8, "slow start: one more batch for each of the four answers");
});

Deno.test("a retried batch and the halves of a refused one are not round trips the window learns from", async () => {
  const window = new AdaptiveWindow(32);
  const refused = new BadRequestError({ status: 400, message: "bad row" });
  const plugin = fakeImport(5, [refused]);
  const sender = senderOf(plugin, window);
  const tallies = await Promise.all(Array.from({ length: 4 }, (_, i) => sender.run(units(2, i * 2), false)));
  assert.equal(tallies.reduce((sum, t) => sum + t.created, 0), 8);
  assert.equal(plugin.sends.length, 6, "one batch was sent again in halves");
  // The three batches answered the first time grow the window; the refused one and its halves do not.
  assert.equal(window.size, 7);
});

Deno.test("a 429 that reaches the sender halves the window", async () => {
  const window = new AdaptiveWindow(32, { initial: 16 });
  const throttled = new RateLimitError({ status: 429, message: "slow down" });
  const sender = senderOf(fakeImport(1, [throttled]), window);
  const tally = await sender.run(units(3), false);
  assert.equal(tally.created, 3, "sent again after the wait");
  assert.equal(window.size, 8);
});
