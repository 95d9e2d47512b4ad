/**
 * What a throttling emulator answered during an import, for the bulk bench's throttle figures
 * (tests/e2e/bulk_import_bench.ts): how many requests it admitted and refused, and how full the import
 * kept its window.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../lib/emulator/mod.ts";
 * import { watchAnswers } from "./emulator_answers.ts";
 * const emulator = await startEmulator({ seed: false, faults: { requestsPerSecond: 20 } });
 * const watch = watchAnswers(emulator.faults);
 * // … an import against emulator.url …
 * const { sustained } = watch.stop();
 * ```
 *
 * @module
 */
import type { FaultController } from "../../lib/emulator/faults.ts";

/** Requests the emulator answered, by kind: 200s, of which bulk writes, and 429s. */
export interface Answered {
  admitted: number;
  writes: number;
  refused: number;
}

/** How long after the first admission the import is judged: the opening and the pause that follows it. */
const OPENING_MS = 2000;

/**
 * Counts the emulator's answers every 25 ms (its log has no times). Returns, when stopped, the counts of
 * the first second after the first admission, the totals, and the sustained rate: the mean, from
 * {@link OPENING_MS} after the first admission to the last, of the requests admitted in the trailing second
 * (how full the import keeps the service's own window). A count from the first admission to the last would
 * charge an evenly paced import for the second the opening burst fills (a client pacing at exactly R
 * reads 80% of R at R = 100 over 500 writes), and one from the end of that second would credit a bursting
 * import with its last burst (110% of R and more): the trailing second is R for both when they keep up.
 */
export function watchAnswers(faults: FaultController) {
  const count = (): Answered => {
    const log = faults.stats().log;
    const admitted = log.filter((entry) => entry.status === 200);
    return {
      admitted: admitted.length,
      writes: admitted.filter((entry) => entry.method === "POST").length,
      refused: log.filter((entry) => entry.status === 429).length,
    };
  };
  const samples: Array<{ at: number; admitted: number }> = [];
  let first: number | undefined, last = 0;
  let firstSecond: Answered | undefined;
  const timer = setInterval(() => {
    const at = performance.now();
    const answered = count();
    if (answered.admitted > 0) first ??= at;
    if (first !== undefined && at >= first + 1000) firstSecond ??= answered;
    if (answered.admitted > (samples.at(-1)?.admitted ?? 0)) last = at;
    samples.push({ at, admitted: answered.admitted });
  }, 25);
  const sustained = () => {
    let sum = 0, n = 0, back = 0;
    for (const sample of samples) {
      if (sample.at < first! + OPENING_MS || sample.at > last) continue;
      while (samples[back + 1].at <= sample.at - 1000) back++;
      sum += sample.admitted - samples[back].admitted;
      n++;
    }
    return sum / n;
  };
  return {
    stop() {
      clearInterval(timer);
      return { firstSecond: firstSecond!, total: count(), sustained: sustained() };
    },
    cancel: () => clearInterval(timer),
  };
}
