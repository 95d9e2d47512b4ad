import assert from "node:assert/strict";
import { DEFAULT_FAULT_SETTINGS } from "../../../lib/emulator/mod.ts";
import { call, CATALOG, DATAMAP, tableEntity, withEmulator } from "./emulator_test_helpers.ts";

const MISSING = `${DATAMAP}/atlas/v2/entity/guid/00000000-0000-4000-8000-000000000000`;

Deno.test("health and fault settings over HTTP, with validation naming the bad field", async () => {
  await withEmulator({}, async (emulator) => {
    const health = await call(emulator, "GET", "/_emulator/health");
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: "ok" });
    assert.ok(health.headers.get("x-ms-request-id"));

    const initial = await call(emulator, "GET", "/_emulator/faults");
    assert.deepEqual(initial.body, DEFAULT_FAULT_SETTINGS);

    const changed = await call(emulator, "PUT", "/_emulator/faults", { throttleRate: 0.25, randomSeed: 9 });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.throttleRate, 0.25);
    assert.equal(changed.body.randomSeed, 9);
    assert.equal(changed.body.errorStatus, 503);
    assert.deepEqual(emulator.faults.get(), changed.body);

    const unseeded = await call(emulator, "PUT", "/_emulator/faults", { randomSeed: null });
    assert.equal(unseeded.body.randomSeed, undefined);

    const outOfRange = await call(emulator, "PUT", "/_emulator/faults", { throttleRate: 2 });
    assert.equal(outOfRange.status, 400);
    assert.equal(outOfRange.body.error.code, "InvalidFaultSettings");
    assert.equal(outOfRange.body.error.target, "throttleRate");
    assert.match(outOfRange.body.error.message, /throttleRate must be a number from 0 to 1/);

    const unknown = await call(emulator, "PUT", "/_emulator/faults", { latency: 5 });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.target, "latency");
    assert.match(unknown.body.error.message, /latency is not a fault setting; known: latencyMs/);

    const wrongType = await call(emulator, "PUT", "/_emulator/faults", { errorStatus: "503" });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.error.target, "errorStatus");

    const notJson = await call(emulator, "PUT", "/_emulator/faults", undefined, { rawBody: "throttle" });
    assert.equal(notJson.status, 400);
    assert.ok(notJson.body.error.message);

    assert.equal(emulator.faults.get().throttleRate, 0.25, "rejected changes leave settings untouched");

    const wrongMethod = await call(emulator, "DELETE", "/_emulator/faults");
    assert.equal(wrongMethod.status, 405);
    const unknownRoute = await call(emulator, "GET", "/_emulator/nothing");
    assert.equal(unknownRoute.status, 404);
    assert.equal(unknownRoute.body.error.code, "NotFound");
  });
});

Deno.test("fault scripts over HTTP are validated, listed and consumed", async () => {
  await withEmulator({}, async (emulator) => {
    const invalid = await call(emulator, "POST", "/_emulator/faults/script", [{ status: 429 }, {
      drop: "yes",
    }]);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.target, "steps[1].drop");

    const unknownField = await call(emulator, "POST", "/_emulator/faults/script", [{ statuss: 429 }]);
    assert.equal(unknownField.status, 400);
    assert.equal(unknownField.body.error.target, "steps[0].statuss");

    const scripted = await call(emulator, "POST", "/_emulator/faults/script", {
      steps: [{ status: 429, retryAfterSeconds: 1 }, { status: 500, path: "/search/" }],
    });
    assert.equal(scripted.status, 200);
    assert.equal(scripted.body.steps.length, 2);

    const first = await call(emulator, "GET", MISSING);
    assert.equal(first.status, 429);
    const pending = await call(emulator, "GET", "/_emulator/faults/script");
    assert.deepEqual(pending.body.steps, [{ status: 500, path: "/search/" }]);

    const search = await call(emulator, "POST", `${CATALOG}/search/query`, { keywords: "*" });
    assert.equal(search.status, 500);
    const after = await call(emulator, "GET", MISSING);
    assert.equal(after.status, 404);
  });
});

Deno.test("stats count API requests only, and reset clears faults, script, stats and optionally data", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, { entity: tableEntity("Counted") });
    await call(emulator, "GET", MISSING);
    await call(emulator, "GET", MISSING);
    await call(emulator, "GET", "/_emulator/health");

    const stats = await call(emulator, "GET", "/_emulator/stats");
    assert.equal(stats.body.total, 3);
    assert.deepEqual(stats.body.byRoute, { [`POST ${DATAMAP}/atlas/v2/entity`]: 1, [`GET ${MISSING}`]: 2 });
    assert.deepEqual(stats.body.log.map((e: { status: number }) => e.status), [200, 404, 404]);

    await call(emulator, "PUT", "/_emulator/faults", { latencyMs: 5 });
    await call(emulator, "POST", "/_emulator/faults/script", [{ status: 503 }]);
    const reset = await call(emulator, "POST", "/_emulator/reset");
    assert.equal(reset.status, 200);
    assert.equal(reset.body.dataCleared, false);
    assert.equal(reset.body.entityCount, 43, "the seed's 42 and the one counted");
    assert.deepEqual(emulator.faults.get(), DEFAULT_FAULT_SETTINGS);
    assert.deepEqual(emulator.faults.pendingSteps(), []);
    assert.deepEqual(emulator.faults.stats(), { total: 0, byRoute: {}, log: [] });

    const wiped = await call(emulator, "POST", "/_emulator/reset?data=true");
    assert.equal(wiped.body.dataCleared, true);
    assert.equal(emulator.entityCount(), 0);
  });
});
