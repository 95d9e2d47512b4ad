/**
 * What the import plug-ins of the bulk engine share when they write unit by unit instead of in one call:
 * telling a refusal of the rows (rejected into the reject file) from trouble with the service (thrown, so
 * the engine retries, slows down or stops), the reject reason in the engine's own format, and a memory of
 * the units a batch has settled, so a batch the engine sends again (after a 429, a dropped answer, or to
 * split it) never writes a unit twice.
 *
 * @example
 * ```ts
 * import { refusalOutcome, SettledUnits } from "./bulk_outcomes.ts";
 * import { NotFoundError } from "../core/errors.ts";
 * const settled = new SettledUnits<string>();
 * const unit = { lines: [2], item: "finance" };
 * settled.settle(unit, refusalOutcome(new NotFoundError({ status: 404, message: "no such parent" })));
 * settled.pending([unit]); // []: settled already
 * settled.outcomes([unit]); // [{ status: "rejected", reason: "404: no such parent", httpStatus: 404, … }]
 * ```
 *
 * @module
 */
import type { ImportUnit, UnitOutcome } from "../csv/types.ts";
import { isRowRefusal, refusalOutcome } from "../csv/refusals.ts";

export { isRowRefusal, refusalOutcome };

/** A rejected outcome found by the import itself (a row naming something that is not there). */
export function rejectedOutcome(reason: string, httpStatus?: number): UnitOutcome {
  return httpStatus === undefined
    ? { status: "rejected", reason }
    : { status: "rejected", reason, httpStatus };
}

/**
 * Outcomes of the units already settled. The engine hands the same unit objects to `send` again when it
 * retries or splits a batch; units settled by an earlier attempt keep their outcome and are not sent.
 */
export class SettledUnits<Item> {
  readonly #outcomes = new WeakMap<ImportUnit<Item>, UnitOutcome>();

  /** The units of `units` without an outcome yet. */
  pending(units: readonly ImportUnit<Item>[]): ImportUnit<Item>[] {
    return units.filter((unit) => !this.#outcomes.has(unit));
  }

  settle(unit: ImportUnit<Item>, outcome: UnitOutcome): void {
    this.#outcomes.set(unit, outcome);
  }

  /** The outcome of each unit, in order; every unit must be settled. */
  outcomes(units: readonly ImportUnit<Item>[]): UnitOutcome[] {
    return units.map((unit) => {
      const outcome = this.#outcomes.get(unit);
      if (!outcome) throw new Error(`unit of line ${unit.lines[0]} has no outcome`);
      return outcome;
    });
  }
}

/**
 * A lookup an import makes once and shares across batches (the terms of a glossary or domain by name):
 * the first call loads it, later calls get the same answer, `fresh` loads it again, and a failed load is
 * forgotten so the next call tries again.
 */
export function sharedLookup<T>(load: (signal: AbortSignal) => Promise<T>): (
  signal: AbortSignal,
  fresh?: boolean,
) => Promise<T> {
  let current: Promise<T> | undefined;
  return (signal, fresh = false) => {
    if (!current || fresh) {
      const loading = load(signal);
      loading.catch(() => {
        if (current === loading) current = undefined;
      });
      current = loading;
    }
    return current;
  };
}
