/**
 * How the bulk engine sends one batch: units already there are skipped (`--skip-existing`) or, for a batch
 * an earlier run may have applied, counted as recovered; a throttled or unreachable catalog is waited for;
 * a lost answer is settled by asking what was applied before sending again; a refused batch is split in
 * halves until the refused units are alone, and only those are rejected (after a 500, which may come after
 * the write was applied, the rows found applied are recovered first).
 *
 * @module
 */
import { CatalogError, RateLimitError, RetryWaitTooLongError, ServerError } from "../core/errors.ts";
import { backoffDelayMs, clampDelayMs, sleep } from "../http/retry.ts";
import type { AdaptiveWindow } from "./adaptive_window.ts";
import type { BatchRecord } from "./checkpoint.ts";
import { isCallerRefused, isUnreachable, refusalOutcome } from "./refusals.ts";
import type { BulkImport, ImportUnit, UnitOutcome } from "./types.ts";

/** A unit's outcome, including units found already applied after a lost answer. */
type EngineOutcome = UnitOutcome | { status: "recovered" };

/** Rows of each outcome a batch produced: a {@link BatchRecord} without its number. */
export type Tally = Omit<BatchRecord, "batch">;

/** The catalog cannot be reached or refuses every call: stop, keep the checkpoint. */
export class StopImport extends Error {}

/** The engine options the sender reads. */
export interface SenderOptions {
  skipExisting?: boolean;
  /** Attempts while the catalog cannot be reached (default 5), and the first delay (default 1 s). */
  unreachableAttempts?: number;
  retryDelayMs?: number;
}

const MAX_REASON = 500;
/** Attempts at a batch the service keeps throttling before the run stops (resumable). */
const MAX_THROTTLED_ATTEMPTS = 20;

/** A throttle longer than the client waits: the run stops (resumable), saying when to retry. */
const waitTooLong = (error: RetryWaitTooLongError): StopImport =>
  new StopImport(error.message.replace(/[.\s]+$/, ""), { cause: error });

/** Rows of `units`. */
export const rowsIn = (units: ImportUnit<unknown>[]): number =>
  units.reduce((sum, unit) => sum + unit.lines.length, 0);

/** Sends one batch with the engine's rules: skip existing, retry while unreachable, split refused batches. */
export class BatchSender<Item> {
  constructor(
    readonly plugin: BulkImport<Item>,
    readonly window: AdaptiveWindow,
    /** Stops waits between attempts; requests themselves run to their end. */
    readonly stop: AbortSignal,
    readonly options: SenderOptions,
    readonly throttleCount: () => number,
  ) {}

  /** Requests are never aborted by the caller's signal (see runBulkImport). */
  readonly signal: AbortSignal = new AbortController().signal;

  async run(units: ImportUnit<Item>[], uncertain: boolean): Promise<Tally> {
    const record: Tally = {
      rows: rowsIn(units),
      created: 0,
      updated: 0,
      skipped: 0,
      recovered: 0,
      rejected: [],
    };
    let pending = units;
    if (this.options.skipExisting && this.plugin.existing) {
      pending = await this.#without(pending, this.plugin.existing, (count) => record.skipped += count);
    }
    // A batch an earlier run started may have been applied: ask before sending it again.
    if (uncertain && this.plugin.applied && pending.length > 0) {
      pending = await this.#without(pending, this.plugin.applied, (count) => record.recovered += count);
    }
    if (pending.length === 0) return record;
    const outcomes = await this.#send(pending, true);
    outcomes.forEach((outcome, i) => {
      const unit = pending[i];
      const count = unit.lines.length;
      if (outcome.status === "rejected") {
        for (const line of unit.lines) record.rejected.push([line, outcome.reason.slice(0, MAX_REASON)]);
      } else {
        const unchanged = "unchanged" in outcome ? Math.min(outcome.unchanged ?? 0, count) : 0;
        record.skipped += unchanged;
        record[outcome.status] += count - unchanged;
      }
    });
    return record;
  }

  /** The units `test` does not find, counting the rows of those it finds. */
  async #without(
    units: ImportUnit<Item>[],
    test: (units: ImportUnit<Item>[], signal: AbortSignal) => Promise<boolean[]>,
    count: (rows: number) => void,
  ): Promise<ImportUnit<Item>[]> {
    const found = await this.#patiently(() => test(units, this.signal));
    return units.filter((unit, i) => {
      if (found[i]) count(unit.lines.length);
      return !found[i];
    });
  }

  /**
   * Sends units and returns one outcome each, in order. A refusal splits them until the refused ones are
   * alone, and rejects those; while the catalog cannot be reached the batch is retried, sending only what a
   * lost answer did not already apply.
   */
  async #send(units: ImportUnit<Item>[], measure = false): Promise<EngineOutcome[]> {
    const outcomes: EngineOutcome[] = new Array(units.length);
    let open = units.map((_, i) => i);
    let unreachable = 0, throttled = 0;
    for (let attempt = 1;; attempt++) {
      const sending = open.map((i) => units[i]);
      // The window learns from the round trip of a whole batch's first attempt only: a retry or a half
      // of a refused batch is not the same request (Karn's rule).
      const sent = this.window.sent();
      try {
        let answers: UnitOutcome[];
        try {
          answers = await this.plugin.send(sending, this.signal);
        } catch (error) {
          this.window.ended(sent);
          throw error;
        }
        if (measure && attempt === 1) this.window.answered(sent);
        else this.window.ended(sent);
        if (answers.length !== sending.length) {
          throw new Error(
            `import ${this.plugin.id} reported ${answers.length} outcomes for ${sending.length} units`,
          );
        }
        answers.forEach((answer, k) => outcomes[open[k]] = answer);
        return outcomes;
      } catch (error) {
        if (this.stop.aborted) throw error;
        if (isCallerRefused(error)) {
          throw new StopImport(`the catalog refused the import: ${error.message}`, { cause: error });
        }
        if (error instanceof RetryWaitTooLongError) throw waitTooLong(error);
        if (error instanceof RateLimitError) {
          const wait = this.#throttleWait(error, throttled + 1);
          this.window.throttled(wait);
          if (++throttled >= MAX_THROTTLED_ATTEMPTS) {
            throw new StopImport(`the catalog kept throttling (${throttled} refusals in a row)`, {
              cause: error,
            });
          }
          await sleep(wait, this.stop);
          continue;
        }
        if (isUnreachable(error)) {
          if (++unreachable >= (this.options.unreachableAttempts ?? 5)) {
            throw new StopImport(`the catalog could not be reached: ${(error as Error).message}`, {
              cause: error,
            });
          }
          await sleep(this.#delay(unreachable), this.stop);
          open = await this.#notYetApplied(units, open, outcomes);
          if (open.length === 0) return outcomes;
          continue;
        }
        if (error instanceof CatalogError) {
          // A service error (500) may come after the write was applied: what was applied is recovered,
          // and only the rest is split to find the refused rows, so no row is written twice.
          if (error instanceof ServerError) {
            open = await this.#notYetApplied(units, open, outcomes);
            if (open.length === 0) return outcomes;
          }
          const answers = await this.#split(open.map((i) => units[i]), error);
          answers.forEach((answer, k) => outcomes[open[k]] = answer);
          return outcomes;
        }
        throw error;
      }
    }
  }

  /**
   * After an answer that may have come after the write (lost, or a service error), the units of `open`
   * (indexes into `units`) the catalog already holds are marked recovered in `outcomes`; the rest are
   * returned. Without an `applied` check every unit stays open.
   */
  async #notYetApplied(
    units: ImportUnit<Item>[],
    open: number[],
    outcomes: EngineOutcome[],
  ): Promise<number[]> {
    const applied = this.plugin.applied;
    if (!applied) return open;
    const found = await this.#patiently(() => applied(open.map((i) => units[i]), this.signal));
    return open.filter((i, k) => {
      if (found[k]) outcomes[i] = { status: "recovered" };
      return !found[k];
    });
  }

  /**
   * A read (what exists, what was applied) retried while the catalog is throttling or unreachable, as
   * sends are; it stops the run only when the catalog stays away.
   */
  async #patiently<T>(call: () => Promise<T>): Promise<T> {
    let unreachable = 0, throttled = 0;
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (this.stop.aborted) throw error;
        if (error instanceof RetryWaitTooLongError) throw waitTooLong(error);
        if (error instanceof RateLimitError && ++throttled < MAX_THROTTLED_ATTEMPTS) {
          const wait = this.#throttleWait(error, throttled);
          this.window.throttled(wait);
          await sleep(wait, this.stop);
          continue;
        }
        if (isUnreachable(error) && ++unreachable < (this.options.unreachableAttempts ?? 5)) {
          await sleep(this.#delay(unreachable), this.stop);
          continue;
        }
        if (isUnreachable(error) || error instanceof RateLimitError) {
          throw new StopImport(`the catalog could not be asked what it holds: ${(error as Error).message}`, {
            cause: error,
          });
        }
        throw error;
      }
    }
  }

  async #split(units: ImportUnit<Item>[], error: CatalogError): Promise<EngineOutcome[]> {
    if (units.length === 1) return [refusalOutcome(error)];
    const middle = Math.ceil(units.length / 2);
    return [...await this.#send(units.slice(0, middle)), ...await this.#send(units.slice(middle))];
  }

  /** The service's Retry-After (never longer than a timer holds), else the backoff. */
  #throttleWait(error: RateLimitError, attempt: number): number {
    return clampDelayMs((error.retryAfterSeconds ?? 0) * 1000) || this.#delay(attempt);
  }

  #delay(attempt: number): number {
    const base = this.options.retryDelayMs ?? 1000;
    return backoffDelayMs(attempt, { baseMs: base, maxMs: base * 30 });
  }
}
