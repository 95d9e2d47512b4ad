/**
 * The knobs of fault injection and their validation: random faults ({@link FaultSettings}) and the
 * deterministic script tests use ({@link FaultStep}). Validation errors name the field and what it accepts,
 * because they reach people through `PUT /_emulator/faults` and `govcat emulator --...` options.
 *
 * @example
 * ```ts
 * import { validateFaultSettings } from "./fault_settings.ts";
 * const changes = validateFaultSettings({ throttleRate: 0.2, randomSeed: 7 });
 * console.log(changes.throttleRate); // 0.2
 * ```
 *
 * @module
 */
import { isObject } from "./entity/model.ts";

/** Random faults applied to every non-admin request. Rates are fractions from 0 to 1. */
export interface FaultSettings {
  /** Added delay before each response, in milliseconds. */
  latencyMs: number;
  /** Fraction of requests answered 429 with `Retry-After`. */
  throttleRate: number;
  /** `Retry-After` (seconds) on injected 429 and 503 answers. */
  retryAfterSeconds: number;
  /** Fraction of requests answered with `errorStatus`. */
  errorRate: number;
  /** Status of injected errors: 500 to 599 (503 carries `Retry-After`). */
  errorStatus: number;
  /** Requests admitted per second; 0 turns the limit off. Excess requests get 429. */
  requestsPerSecond: number;
  /** Fraction of requests whose response is cut off mid-body. */
  dropRate: number;
  /** Seed of the random generator, for reproducible fractions; absent means truly random. */
  randomSeed?: number;
}

/** One scripted fault, consumed by the first non-admin request it matches. */
export interface FaultStep {
  /** Answer this status, with the error body of the path's API. */
  status?: number;
  /** Value of `Retry-After`. */
  retryAfterSeconds?: number;
  /** Value of `retry-after-ms` (and `x-ms-retry-after-ms`). */
  retryAfterMs?: number;
  /** Cut the response off mid-body, so the client sees a network error. */
  drop?: boolean;
  /** Extra delay before the response, in milliseconds. */
  delayMs?: number;
  /** Perform the request first (its side effects happen), then answer `status` or drop: a lost response. */
  afterHandling?: boolean;
  /** Only requests whose path contains this text. */
  path?: string;
  /** Only requests with this method. */
  method?: string;
}

/** No faults at all. */
export const DEFAULT_FAULT_SETTINGS: Readonly<FaultSettings> = Object.freeze({
  latencyMs: 0,
  throttleRate: 0,
  retryAfterSeconds: 1,
  errorRate: 0,
  errorStatus: 503,
  requestsPerSecond: 0,
  dropRate: 0,
});

/** A fault setting or script step that is not acceptable; `field` names it. */
export class FaultSettingsError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field} ${problem}`);
    this.name = "FaultSettingsError";
    this.field = field;
  }
}

type Rule = (value: unknown) => string | undefined;

const MAX_DELAY_MS = 600_000;
const rate: Rule = (v) => isNumberIn(v, 0, 1) ? undefined : "must be a number from 0 to 1";
const milliseconds: Rule = (v) =>
  isIntegerIn(v, 0, MAX_DELAY_MS)
    ? undefined
    : `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`;
const seconds: Rule = (v) =>
  isNumberIn(v, 0, 3600) ? undefined : "must be a number of seconds from 0 to 3600";

const SETTING_RULES: Record<keyof FaultSettings, Rule> = {
  latencyMs: milliseconds,
  throttleRate: rate,
  retryAfterSeconds: seconds,
  errorRate: rate,
  errorStatus: (v) => isIntegerIn(v, 500, 599) ? undefined : "must be a 5xx status such as 500 or 503",
  requestsPerSecond: (v) =>
    isNumberIn(v, 0, 1_000_000) ? undefined : "must be a number of requests, 0 for no limit",
  dropRate: rate,
  randomSeed: (v) => v === null || isIntegerIn(v, -(2 ** 31), 2 ** 32) ? undefined : "must be an integer",
};

const STEP_RULES: Record<keyof FaultStep, Rule> = {
  status: (v) => isIntegerIn(v, 400, 599) ? undefined : "must be an HTTP error status from 400 to 599",
  retryAfterSeconds: seconds,
  retryAfterMs: (v) => isIntegerIn(v, 0, 3_600_000) ? undefined : "must be a whole number of milliseconds",
  drop: (v) => typeof v === "boolean" ? undefined : "must be true or false",
  delayMs: milliseconds,
  afterHandling: (v) => typeof v === "boolean" ? undefined : "must be true or false",
  path: (v) => typeof v === "string" ? undefined : "must be a string",
  method: (v) =>
    typeof v === "string" && /^[A-Za-z]+$/.test(v) ? undefined : "must be an HTTP method such as POST",
};

/**
 * Checks a partial {@link FaultSettings}; returns it typed. `randomSeed: null` clears the seed. Throws
 * {@link FaultSettingsError} on an unknown field or a bad value.
 */
export function validateFaultSettings(
  changes: unknown,
): Partial<FaultSettings> & { randomSeed?: number | null } {
  if (!isObject(changes)) throw new FaultSettingsError("settings", "must be a JSON object");
  for (const [field, value] of Object.entries(changes)) {
    const rule = SETTING_RULES[field as keyof FaultSettings];
    if (!rule) {
      throw new FaultSettingsError(
        field,
        `is not a fault setting; known: ${Object.keys(SETTING_RULES).join(", ")}`,
      );
    }
    if (value === undefined) continue;
    const problem = rule(value);
    if (problem) throw new FaultSettingsError(field, problem);
  }
  return changes as Partial<FaultSettings>;
}

/** Checks a fault script (an array of {@link FaultStep}); throws {@link FaultSettingsError} naming `steps[i].field`. */
export function validateFaultScript(steps: unknown): FaultStep[] {
  if (!Array.isArray(steps)) throw new FaultSettingsError("steps", "must be an array of fault steps");
  steps.forEach((step, i) => {
    if (!isObject(step)) throw new FaultSettingsError(`steps[${i}]`, "must be a JSON object");
    for (const [field, value] of Object.entries(step)) {
      const rule = STEP_RULES[field as keyof FaultStep];
      if (!rule) {
        throw new FaultSettingsError(
          `steps[${i}].${field}`,
          `is not a fault step field; known: ${Object.keys(STEP_RULES).join(", ")}`,
        );
      }
      const problem = value === undefined ? undefined : rule(value);
      if (problem) throw new FaultSettingsError(`steps[${i}].${field}`, problem);
    }
  });
  return steps as FaultStep[];
}

function isNumberIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return isNumberIn(value, min, max) && Number.isInteger(value);
}
