/**
 * The HTTP core against the emulator's fault injection, the way govcat builds it from its configuration
 * (`httpClientFromConfig`): 429 bursts (Retry-After in seconds and in milliseconds), 500 and 503 storms,
 * responses cut off mid-body before and after the write was applied, answers slower than CATALOG_TIMEOUT,
 * a refused connection, a catalog that comes back while the call retries, and a storm of mixed faults.
 * Every call ends as a success or a typed {@link CatalogError}, within a deadline; each scenario also
 * checks how many requests the emulator saw, and a write that is not idempotent is never applied twice.
 *
 * @module
 */
import assert from "node:assert/strict";
import { httpClientFromConfig } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import type { FaultSettings, FaultStep } from "../../lib/emulator/fault_settings.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import {
  CatalogError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../lib/core/errors.ts";
import type { HttpClient } from "../../lib/http/client.ts";

const ENTITY = "/datamap/api/atlas/v2/entity";
/** The entity every GET scenario reads. */
const TARGET = "ds://resilience/target";
/** The entity every POST scenario tries to create. */
const CREATED = "ds://resilience/created";
/** No call may take longer than this, whatever the faults: a hang fails the test, not the suite. */
const CALL_DEADLINE_MS = 20_000;
const NOT_REPEATED = /not repeated because it may already have been applied/;

type ErrorClass = new (...args: never[]) => CatalogError;

interface Scenario {
  name: string;
  /** GET of an existing entity (idempotent), or POST creating one (not marked idempotent). */
  call: "get" | "create";
  faults?: Partial<FaultSettings>;
  script?: FaultStep[];
  /** CATALOG_MAX_RETRIES (default 3) and CATALOG_TIMEOUT (seconds, default 30). */
  maxRetries?: number;
  timeoutSeconds?: number;
  /** `undefined` means the call succeeds. */
  error?: { kind: ErrorClass; status: number; message?: RegExp[]; hint?: RegExp; retryAfterSeconds?: number };
  /** Requests the emulator saw for the call. */
  requests: number;
  /** Whether the entity a `create` names ends stored (once: version 0). */
  written?: boolean;
  /** Bounds of the call's duration: waits the service asked for are honoured, and nothing hangs. */
  minMs?: number;
  maxMs?: number;
}

const step = (method: string, fault: Partial<FaultStep>): FaultStep => ({ method, path: ENTITY, ...fault });
const times = (n: number, fault: FaultStep): FaultStep[] => Array.from({ length: n }, () => ({ ...fault }));

const SCENARIOS: Scenario[] = [
  {
    name: "a 429 burst with Retry-After: 1 is waited out, then the GET succeeds",
    call: "get",
    script: times(2, step("GET", { status: 429, retryAfterSeconds: 1 })),
    requests: 3,
    minMs: 1900,
    maxMs: 10_000,
  },
  {
    name: "a 429 burst with retry-after-ms is waited out (not the 60 s backoff), then the GET succeeds",
    call: "get",
    script: times(3, step("GET", { status: 429, retryAfterMs: 80 })),
    requests: 4,
    minMs: 200,
    maxMs: 5_000,
  },
  {
    name: "a 429 burst longer than the retries ends in RateLimitError",
    call: "get",
    script: times(5, step("GET", { status: 429, retryAfterMs: 20 })),
    maxRetries: 3,
    error: {
      kind: RateLimitError,
      status: 429,
      message: [/\(after 4 attempts\)/],
      hint: /CATALOG_BATCH_SIZE/,
      retryAfterSeconds: 1,
    },
    requests: 4,
  },
  {
    name: "a 429 on a POST that is not idempotent is retried (nothing was processed); created once",
    call: "create",
    script: times(2, step("POST", { status: 429, retryAfterMs: 30 })),
    requests: 3,
    written: true,
  },
  {
    name: "a 500 storm fails the GET at once with ServerError (a 500 is not transient)",
    call: "get",
    faults: { errorRate: 1, errorStatus: 500 },
    error: { kind: ServerError, status: 500, hint: /retry later/ },
    requests: 1,
  },
  {
    name: "a 500 on a POST fails with ServerError saying the outcome is unknown",
    call: "create",
    faults: { errorRate: 1, errorStatus: 500 },
    error: { kind: ServerError, status: 500, message: [NOT_REPEATED] },
    requests: 1,
    written: false,
  },
  {
    name: "a 503 storm with Retry-After: 1 exhausts the retries with ServerError",
    call: "get",
    faults: { errorRate: 1, errorStatus: 503, retryAfterSeconds: 1 },
    maxRetries: 2,
    error: { kind: ServerError, status: 503, message: [/\(after 3 attempts\)/], retryAfterSeconds: 1 },
    requests: 3,
    minMs: 1900,
    maxMs: 10_000,
  },
  {
    name: "a 503 storm that ends before the retries do: the GET succeeds",
    call: "get",
    script: times(3, step("GET", { status: 503, retryAfterMs: 20 })),
    requests: 4,
  },
  {
    name: "a 503 on a POST that is not idempotent is not resent",
    call: "create",
    script: [step("POST", { status: 503, retryAfterSeconds: 0, afterHandling: true })],
    error: { kind: ServerError, status: 503, message: [NOT_REPEATED] },
    requests: 1,
    written: true,
  },
  {
    name: "a GET whose response is cut off mid-body is retried and succeeds",
    call: "get",
    script: [step("GET", { drop: true })],
    requests: 2,
  },
  {
    name: "GETs cut off every time end in NetworkError after the retries",
    call: "get",
    faults: { dropRate: 1 },
    maxRetries: 2,
    error: { kind: NetworkError, status: 0, message: [/\(after 3 attempts\)/], hint: /connection broke/ },
    requests: 3,
  },
  {
    name: "a POST applied but cut off is not resent: NetworkError, outcome unknown; written once",
    call: "create",
    script: [step("POST", { drop: true, afterHandling: true })],
    error: { kind: NetworkError, status: 0, message: [NOT_REPEATED], hint: /check the result first/ },
    requests: 1,
    written: true,
  },
  {
    name: "a POST cut off before it was applied: the same NetworkError, and nothing written",
    call: "create",
    script: [step("POST", { drop: true })],
    error: { kind: NetworkError, status: 0, message: [NOT_REPEATED] },
    requests: 1,
    written: false,
  },
  {
    name: "GETs slower than CATALOG_TIMEOUT end in TimeoutError after the retries",
    call: "get",
    faults: { latencyMs: 1600 },
    maxRetries: 1,
    timeoutSeconds: 1,
    error: {
      kind: TimeoutError,
      status: 0,
      message: [/within 1 s/, /\(after 2 attempts\)/],
      hint: /CATALOG_TIMEOUT/,
    },
    requests: 2,
    minMs: 1900,
    maxMs: 8_000,
  },
  {
    name: "a POST slower than CATALOG_TIMEOUT is not resent: TimeoutError, outcome unknown; written once",
    call: "create",
    faults: { latencyMs: 1600 },
    timeoutSeconds: 1,
    error: { kind: TimeoutError, status: 0, message: [/within 1 s/, NOT_REPEATED] },
    requests: 1,
    written: true,
    minMs: 900,
    maxMs: 5_000,
  },
];

/** The HTTP core as govcat's configuration builds it, with short backoff steps unless `options` say. */
function clientFor(
  url: string,
  env: Record<string, string> = {},
  options: { retryBaseMs?: number } = { retryBaseMs: 5 },
) {
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: url,
    CATALOG_RATE_LIMIT: "0",
    ...env,
  });
  return httpClientFromConfig(config, options);
}

const entityBody = (qualifiedName: string) => ({
  entity: { typeName: "DataSet", attributes: { qualifiedName, name: qualifiedName.split("/").at(-1) } },
});

function callOf(http: HttpClient, call: Scenario["call"], signal: AbortSignal): Promise<unknown> {
  if (call === "get") {
    return http.request({
      method: "GET",
      path: `${ENTITY}/uniqueAttribute/type/DataSet`,
      query: { "attr:qualifiedName": TARGET },
      signal,
    });
  }
  return http.request({ method: "POST", path: ENTITY, body: entityBody(CREATED), idempotent: false, signal });
}

/** Runs a call to its end: `{value}` or `{error}`, with its duration. */
async function settle(promise: Promise<unknown>): Promise<{ value?: unknown; error?: unknown; ms: number }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/**
 * Requests the emulator counted, once the count is stable: the emulator counts a request when it has
 * answered, which for a slow answer is after the client has given up on it.
 */
async function settledRequests(emulator: RunningEmulator, atLeast: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (emulator.faults.stats().total < atLeast && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  return emulator.faults.stats().total;
}

/** The stored version of a DataSet, or undefined when there is none. */
async function storedVersion(http: HttpClient, qualifiedName: string): Promise<number | undefined> {
  const result = await http.request<{ entities?: Array<{ version?: number }> }>({
    method: "GET",
    path: `${ENTITY}/bulk/uniqueAttribute/type/DataSet`,
    query: { "attr_1:qualifiedName": qualifiedName, minExtInfo: true },
  });
  const entities = result.entities ?? [];
  assert.ok(entities.length <= 1, `${qualifiedName} is stored at most once`);
  return entities[0]?.version;
}

function assertTypedError(error: unknown, expected: NonNullable<Scenario["error"]>, label: string) {
  assert.ok(
    error instanceof expected.kind,
    `${label}: expected ${expected.kind.name}, got ${(error as Error)?.constructor?.name}: ${error}`,
  );
  assert.equal(error.status, expected.status, `${label}: status`);
  for (const pattern of expected.message ?? []) assert.match(error.message, pattern, `${label}: message`);
  if (expected.hint) assert.match(error.hint ?? "", expected.hint, `${label}: hint`);
  if (expected.retryAfterSeconds !== undefined) {
    assert.equal(error.retryAfterSeconds, expected.retryAfterSeconds, `${label}: retryAfterSeconds`);
  }
  assert.equal(error.exitCode, 1, `${label}: a service failure exits 1`);
}

Deno.test("HTTP core under injected faults: every call succeeds or fails typed, with a known request count", async (t) => {
  const emulator = await startEmulator({ seed: false });
  try {
    const plain = clientFor(emulator.url);
    await plain.request({ method: "POST", path: ENTITY, body: entityBody(TARGET) });
    for (const scenario of SCENARIOS) {
      await t.step(scenario.name, async () => {
        emulator.faults.reset();
        if (await storedVersion(plain, CREATED) !== undefined) {
          await plain.request({
            method: "DELETE",
            path: `${ENTITY}/uniqueAttribute/type/DataSet`,
            query: { "attr:qualifiedName": CREATED },
          });
        }
        emulator.faults.reset();
        if (scenario.faults) emulator.faults.set(scenario.faults);
        if (scenario.script) emulator.faults.script(scenario.script);
        const env: Record<string, string> = { CATALOG_MAX_RETRIES: String(scenario.maxRetries ?? 3) };
        if (scenario.timeoutSeconds) env.CATALOG_TIMEOUT = String(scenario.timeoutSeconds);
        const http = clientFor(emulator.url, env);

        const outcome = await settle(
          callOf(http, scenario.call, AbortSignal.timeout(CALL_DEADLINE_MS)),
        );
        if (scenario.error) {
          assert.equal(outcome.error !== undefined, true, `the call failed (got ${JSON.stringify(outcome)})`);
          assertTypedError(outcome.error, scenario.error, scenario.name);
        } else {
          assert.equal(outcome.error, undefined, `the call succeeded: ${outcome.error}`);
          if (scenario.call === "get") {
            const entity = (outcome.value as { entity?: { attributes?: Record<string, unknown> } }).entity;
            assert.equal(entity?.attributes?.qualifiedName, TARGET, "the whole answer was read");
          }
        }
        if (scenario.minMs !== undefined) {
          assert.ok(outcome.ms >= scenario.minMs, `took ${Math.round(outcome.ms)} ms, ≥ ${scenario.minMs}`);
        }
        assert.ok(outcome.ms < (scenario.maxMs ?? 5_000), `took ${Math.round(outcome.ms)} ms`);

        const requests = await settledRequests(emulator, scenario.requests);
        assert.equal(requests, scenario.requests, "requests the emulator saw");

        if (scenario.call === "create") {
          emulator.faults.reset();
          const version = await storedVersion(plain, CREATED);
          if (scenario.written) assert.equal(version, 0, "the entity was written exactly once");
          else assert.equal(version, undefined, "nothing was written");
        }
      });
    }
  } finally {
    await emulator.close();
  }
});

Deno.test("a refused connection is a NetworkError saying nothing was sent, after the retries", async () => {
  const emulator = await startEmulator({ seed: false });
  const url = emulator.url;
  await emulator.close();
  const http = clientFor(url, { CATALOG_MAX_RETRIES: "2" });
  const outcome = await settle(
    http.request({
      method: "POST",
      path: ENTITY,
      body: entityBody(CREATED),
      idempotent: false,
      signal: AbortSignal.timeout(CALL_DEADLINE_MS),
    }),
  );
  assertTypedError(outcome.error, {
    kind: NetworkError,
    status: 0,
    message: [/Could not reach the catalog/, /\(after 3 attempts\)/],
    hint: /CATALOG_ENDPOINT/,
  }, "refused");
  // Nothing reached a service, so even a write is retried, and the error does not warn of a lost answer.
  assert.doesNotMatch((outcome.error as Error).message, NOT_REPEATED);
});

Deno.test("a write retried while the catalog is down lands once when it comes back on the same port", async () => {
  const first = await startEmulator({ seed: false });
  const port = first.port;
  await first.close();
  // The backoff of govcat's configuration (no retryBaseMs given): its waits (0.4-0.8 s, then 0.8-1.6 s, ...)
  // outlast the restart below. Regression: an option passed as undefined used to override the default, the
  // backoff became NaN and every retry fired at once, failing the call before the catalog was back.
  const http = clientFor(first.url, { CATALOG_MAX_RETRIES: "3" }, { retryBaseMs: undefined });
  let second: RunningEmulator | undefined;
  const restart = new Promise<void>((resolve, reject) =>
    setTimeout(() => startEmulator({ seed: false, port }).then((e) => (second = e, resolve()), reject), 150)
  );
  try {
    const outcome = await settle(
      http.request({
        method: "POST",
        path: ENTITY,
        body: entityBody(CREATED),
        idempotent: false,
        signal: AbortSignal.timeout(CALL_DEADLINE_MS),
      }),
    );
    await restart;
    assert.equal(outcome.error, undefined, `the write succeeded once the catalog was back: ${outcome.error}`);
    assert.ok(outcome.ms >= 350, `the retries waited (${Math.round(outcome.ms)} ms)`);
    assert.ok(second);
    assert.equal(second.faults.stats().total, 1, "only the attempt after the restart reached the catalog");
    assert.equal(await storedVersion(clientFor(second.url), CREATED), 0, "written once");
  } finally {
    await restart.catch(() => {});
    await second?.close();
  }
});

Deno.test("a storm of mixed faults on 200 concurrent calls: each settles typed, no write applied twice", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const plain = clientFor(emulator.url);
    await plain.request({ method: "POST", path: ENTITY, body: entityBody(TARGET) });
    emulator.faults.reset();
    emulator.faults.set({
      throttleRate: 0.15,
      retryAfterSeconds: 0,
      errorRate: 0.15,
      errorStatus: 503,
      dropRate: 0.15,
      latencyMs: 5,
      randomSeed: 9,
    });
    // Lost answers of writes that were applied: the case where resending would write twice.
    emulator.faults.script([
      ...times(10, step("POST", { drop: true, afterHandling: true })),
      ...times(10, step("POST", { status: 503, afterHandling: true })),
    ]);
    const http = clientFor(emulator.url, { CATALOG_MAX_RETRIES: "3" });
    const names = Array.from({ length: 100 }, (_, i) => `ds://resilience/storm/${i}`);
    const calls = [
      ...names.map((name) =>
        settle(http.request({
          method: "POST",
          path: ENTITY,
          body: entityBody(name),
          idempotent: false,
          signal: AbortSignal.timeout(CALL_DEADLINE_MS),
        }))
      ),
      ...names.map(() => settle(callOf(http, "get", AbortSignal.timeout(CALL_DEADLINE_MS)))),
    ];
    const outcomes = await Promise.all(calls);
    const untyped = outcomes.filter((o) => o.error !== undefined && !(o.error instanceof CatalogError));
    assert.deepEqual(untyped.map((o) => String(o.error)), [], "every failure is a CatalogError");
    const failedWrites = outcomes.slice(0, 100).filter((o) => o.error).length;
    const failedReads = outcomes.slice(100).filter((o) => o.error).length;
    assert.ok(failedWrites >= 20, `the scripted lost answers failed their writes (${failedWrites} failed)`);
    assert.ok(failedReads < 100, `reads were retried through the storm (${failedReads} of 100 failed)`);

    emulator.faults.reset();
    for (const [i, name] of names.entries()) {
      const version = await storedVersion(plain, name);
      if (outcomes[i].error === undefined) assert.equal(version, 0, `${name}: succeeded, so stored once`);
      else assert.ok(version === undefined || version === 0, `${name}: never written twice (${version})`);
    }
  } finally {
    await emulator.close();
  }
});
