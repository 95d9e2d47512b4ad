import assert from "node:assert/strict";
import { FaultSettingsError, mulberry32, startEmulator } from "../../../lib/emulator/mod.ts";
import { call, DATAMAP, tableEntity, timed, withEmulator } from "./emulator_test_helpers.ts";

const ENTITY = `${DATAMAP}/atlas/v2/entity`;
const MISSING = `${DATAMAP}/atlas/v2/entity/guid/00000000-0000-4000-8000-000000000000`;

Deno.test("scripted 429 with Retry-After answers once, and the log proves the POST was sent twice", async () => {
  await withEmulator({}, async (emulator) => {
    emulator.faults.script([{ status: 429, retryAfterSeconds: 2, method: "POST", path: "/atlas/v2/entity" }]);
    const unmatched = await call(emulator, "GET", MISSING);
    assert.equal(unmatched.status, 404, "a GET does not consume a POST step");

    const throttled = await call(emulator, "POST", ENTITY, { entity: tableEntity("A") });
    assert.equal(throttled.status, 429);
    assert.equal(throttled.headers.get("retry-after"), "2");
    assert.equal(throttled.body.errorCode, "TooManyRequests");
    assert.equal(throttled.body.requestId, throttled.headers.get("x-ms-request-id"));
    assert.equal(emulator.entityCount(), 0, "a throttled request has no effect");

    const retried = await call(emulator, "POST", ENTITY, { entity: tableEntity("A") });
    assert.equal(retried.status, 200);
    assert.deepEqual(emulator.faults.pendingSteps(), []);

    const stats = emulator.faults.stats();
    assert.equal(stats.total, 3);
    assert.equal(stats.byRoute[`POST ${ENTITY}`], 2);
    assert.deepEqual(stats.log.map((e) => [e.method, e.status, e.fault]), [
      ["GET", 404, undefined],
      ["POST", 429, "script"],
      ["POST", 200, undefined],
    ]);
  });
});

Deno.test("scripted 503 with retry-after-ms, and random 500/503 errors", async () => {
  await withEmulator({}, async (emulator) => {
    emulator.faults.script([{ status: 503, retryAfterMs: 150 }]);
    const scripted = await call(emulator, "GET", MISSING);
    assert.equal(scripted.status, 503);
    assert.equal(scripted.headers.get("retry-after-ms"), "150");
    assert.equal(scripted.headers.get("x-ms-retry-after-ms"), "150");
    assert.equal(scripted.headers.get("retry-after"), null);
    assert.equal(scripted.body.errorCode, "ServiceUnavailable");

    emulator.faults.set({ errorRate: 1, retryAfterSeconds: 3 });
    const unavailable = await call(emulator, "POST", ENTITY, { entity: tableEntity("B") });
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get("retry-after"), "3");

    emulator.faults.set({ errorStatus: 500 });
    const failed = await call(emulator, "GET", MISSING);
    assert.equal(failed.status, 500);
    assert.equal(failed.body.errorCode, "ATLAS-500-00-001");
    assert.equal(failed.headers.get("retry-after"), null);
    assert.equal(emulator.entityCount(), 0);
  });
});

Deno.test("a dropped response makes the client's read fail", async () => {
  await withEmulator({}, async (emulator) => {
    emulator.faults.script([{ drop: true }]);
    await assert.rejects(fetch(emulator.url + MISSING).then((response) => response.text()), TypeError);

    emulator.faults.set({ dropRate: 1 });
    await assert.rejects(fetch(emulator.url + MISSING).then((response) => response.json()), TypeError);

    const log = emulator.faults.stats().log;
    assert.deepEqual(log.map((e) => [e.status, e.fault]), [[0, "script"], [0, "drop"]]);
  });
});

Deno.test("afterHandling performs the write before answering 503 or dropping (a lost response)", async () => {
  await withEmulator({}, async (emulator) => {
    emulator.faults.script([{ status: 503, afterHandling: true, method: "POST" }]);
    const lost = await call(emulator, "POST", ENTITY, { entity: tableEntity("Lost") });
    assert.equal(lost.status, 503);
    const qualifiedName = encodeURIComponent("mssql://test-sql.database.windows.net/TestDb/dbo/Lost");
    const read = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/entity/uniqueAttribute/type/azure_sql_table?attr:qualifiedName=${qualifiedName}`,
    );
    assert.equal(read.status, 200, "the entity exists although the client saw 503");

    emulator.faults.script([{ drop: true, afterHandling: true, method: "POST" }]);
    await assert.rejects(
      fetch(emulator.url + ENTITY, {
        method: "POST",
        body: JSON.stringify({ entity: tableEntity("Dropped") }),
      })
        .then((response) => response.text()),
      TypeError,
    );
    assert.equal(emulator.entityCount(), 2);
    assert.equal(emulator.faults.stats().byRoute[`POST ${ENTITY}`], 2);
  });
});

Deno.test("a dropped answer to a write that answers 204 (no body) is lost too, not a 500", async () => {
  await withEmulator({}, async (emulator) => {
    const created = await call(emulator, "POST", ENTITY, { entity: tableEntity("Gone") });
    const guid =
      Object.values((created.body as { guidAssignments: Record<string, string> }).guidAssignments)[0];
    const labels = `${DATAMAP}/atlas/v2/entity/guid/${guid}/labels`;
    emulator.faults.script([{ drop: true, afterHandling: true, method: "PUT" }]);
    await assert.rejects(
      fetch(emulator.url + labels, { method: "PUT", body: JSON.stringify(["kept"]) })
        .then((response) => response.text()),
      TypeError,
      "the client's read fails, as when the connection is lost",
    );
    const read = await call(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${guid}`);
    assert.deepEqual((read.body as { entity: { labels?: string[] } }).entity.labels, ["kept"], "applied");
    assert.deepEqual(emulator.faults.stats().log.at(-2)?.status, 0, "logged as dropped");
  });
});

Deno.test("latency and step delays slow responses down", async () => {
  await withEmulator({ faults: { latencyMs: 60 } }, async (emulator) => {
    assert.ok(await timed(() => call(emulator, "GET", MISSING)) >= 55);
    emulator.faults.set({ latencyMs: 0 });
    emulator.faults.script([{ delayMs: 50 }]);
    assert.ok(await timed(() => call(emulator, "GET", MISSING)) >= 45);
    const health = await timed(() => call(emulator, "GET", "/_emulator/health"));
    assert.ok(health < 1000);
  });
});

Deno.test("requestsPerSecond answers the excess 429 with when a slot frees", async () => {
  await withEmulator({ faults: { requestsPerSecond: 2 } }, async (emulator) => {
    const statuses: number[] = [];
    let throttled: Headers | undefined;
    for (let i = 0; i < 3; i++) {
      const reply = await call(emulator, "GET", MISSING);
      statuses.push(reply.status);
      if (reply.status === 429) throttled = reply.headers;
    }
    assert.deepEqual(statuses, [404, 404, 429]);
    assert.equal(throttled?.get("retry-after"), "1");
    const waitMs = Number(throttled?.get("retry-after-ms"));
    assert.ok(waitMs > 0 && waitMs <= 1000, `retry-after-ms ${waitMs}`);
    assert.equal(emulator.faults.stats().log[2].fault, "rps");
  });
});

Deno.test("a seeded throttleRate throttles the same requests on every run", async () => {
  const expected: number[] = [];
  const random = mulberry32(42);
  for (let i = 0; i < 12; i++) {
    const [throttleDraw] = [random(), random(), random()];
    expected.push(throttleDraw < 0.5 ? 429 : 404);
  }
  assert.ok(expected.includes(429) && expected.includes(404), "the sample exercises both outcomes");

  for (let run = 0; run < 2; run++) {
    await withEmulator({ faults: { throttleRate: 0.5, randomSeed: 42 } }, async (emulator) => {
      const statuses: number[] = [];
      for (let i = 0; i < expected.length; i++) statuses.push((await call(emulator, "GET", MISSING)).status);
      assert.deepEqual(statuses, expected);
    });
  }
});

Deno.test("admin endpoints are never faulted and bad in-process settings throw", async () => {
  await withEmulator({ faults: { errorRate: 1, dropRate: 1 } }, async (emulator) => {
    const health = await call(emulator, "GET", "/_emulator/health");
    assert.equal(health.status, 200);
    assert.equal(emulator.faults.stats().total, 0);
    assert.throws(() => emulator.faults.set({ throttleRate: 1.5 }), FaultSettingsError);
    assert.throws(() => emulator.faults.script([{ status: 99 }]), /steps\[0\]\.status/);
  });
  await assert.rejects(startEmulator({ faults: { errorStatus: 404 } }), /errorStatus must be a 5xx/);
});
