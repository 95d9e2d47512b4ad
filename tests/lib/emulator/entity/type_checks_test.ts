import assert from "node:assert/strict";
import type { AreaDependencies, TypeSystem } from "../../../../lib/emulator/area.ts";
import { entityArea } from "../../../../lib/emulator/entity/area.ts";
import { EmulatorError, errorResponse } from "../../../../lib/emulator/errors.ts";
import { readJsonBody, Router } from "../../../../lib/emulator/router.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";

/** A type system that refuses what the test names, and records what it was asked. */
function stubTypes(): TypeSystem & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    validateEntity(entity) {
      seen.push(`entity:${entity.typeName}`);
      if (entity.typeName === "Forbidden") {
        return new EmulatorError(404, "ATLAS-404-00-001", `Given typename ${entity.typeName} was invalid`);
      }
      if (entity.attributes?.size !== undefined && typeof entity.attributes.size !== "number") {
        return new EmulatorError(
          400,
          "ATLAS-400-00-028",
          "invalid value: DataSet.size: invalid value for type long",
        );
      }
      return undefined;
    },
    validateClassification(name) {
      seen.push(`classification:${name}`);
      return name === "BAD"
        ? new EmulatorError(404, "ATLAS-404-00-008", `Given classification ${name} was invalid`)
        : undefined;
    },
    validateBusinessMetadata(bm) {
      seen.push(`bm:${JSON.stringify(bm)}`);
      return "Nope" in bm
        ? new EmulatorError(400, "ATLAS-400-00-095", "Invalid business-metadata: Nope")
        : undefined;
    },
    isA: (typeName, superType) => typeName === superType,
  };
}

/** The entity area alone on 127.0.0.1, with the stub type system, answering errors as the server does. */
async function withStubArea(
  test: (base: string, store: EntityStore, types: ReturnType<typeof stubTypes>) => Promise<void>,
): Promise<void> {
  const store = EntityStore.open();
  const types = stubTypes();
  const deps: AreaDependencies = { store, types, now: Date.now };
  const router = new Router().mount("/datamap/api", entityArea(deps));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const requestId = crypto.randomUUID();
    try {
      const match = router.match(request.method, url.pathname);
      if (match.kind !== "found") throw EmulatorError.routeNotFound(request.method, url.pathname);
      return await match.handler({
        request,
        url,
        params: match.params,
        requestId,
        readJson: () => readJsonBody(request),
      });
    } catch (error) {
      if (!request.bodyUsed) await request.body?.cancel();
      if (error instanceof EmulatorError) return errorResponse("atlas", error, requestId);
      throw error;
    }
  });
  try {
    await test(`http://127.0.0.1:${server.addr.port}/datamap/api/atlas/v2/entity`, store, types);
  } finally {
    await server.shutdown();
    store.close();
  }
}

// deno-lint-ignore no-explicit-any
async function send(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

const dataset = (name: string, extra: Record<string, unknown> = {}) => ({
  typeName: "DataSet",
  attributes: { qualifiedName: `ds://${name}`, name },
  ...extra,
});

Deno.test("every entity write goes through the type system; its error is the answer and nothing is written", async () => {
  await withStubArea(async (base, store, types) => {
    const bulk = await send("POST", `${base}/bulk`, {
      entities: [dataset("a"), { typeName: "Forbidden", attributes: { qualifiedName: "f://x" } }],
    });
    assert.equal(bulk.status, 404);
    assert.deepEqual(Object.keys(bulk.body).sort(), ["errorCode", "errorMessage", "requestId"]);
    assert.equal(bulk.body.errorCode, "ATLAS-404-00-001");
    assert.equal(store.countAll(), 0, "a bulk request is all or nothing");
    assert.ok(types.seen.includes("entity:Forbidden"));

    const badClassification = await send("POST", base, {
      entity: dataset("b", { classifications: [{ typeName: "BAD" }] }),
    });
    assert.equal(badClassification.status, 404);
    assert.equal(badClassification.body.errorCode, "ATLAS-404-00-008");
    const badValue = await send("POST", base, {
      entity: dataset("c", { attributes: { qualifiedName: "ds://c", size: "big" } }),
    });
    assert.equal(badValue.status, 400);
    const badBm = await send("POST", base, {
      entity: dataset("d", { businessAttributes: { Nope: { a: 1 } } }),
    });
    assert.equal(badBm.status, 400);
    assert.equal(badBm.body.errorCode, "ATLAS-400-00-095");
    const badLabel = await send("POST", base, { entity: dataset("e", { labels: ["not ok"] }) });
    assert.equal(badLabel.status, 400);
    assert.equal(store.countAll(), 0);

    const created = await send("POST", base, { entity: dataset("ok") });
    assert.equal(created.status, 200);
    const guid = created.body.mutatedEntities.CREATE[0].guid;
    const partial = await send("PUT", `${base}/guid/${guid}?name=size`, "huge");
    assert.equal(partial.status, 400, "a partial update is checked as merged");
    const classification = await send("POST", `${base}/guid/${guid}/classifications`, [{ typeName: "BAD" }]);
    assert.equal(classification.status, 404);
    const bm = await send("POST", `${base}/guid/${guid}/businessmetadata`, { Nope: { a: 1 } });
    assert.equal(bm.status, 400);
    assert.ok(types.seen.includes('bm:{"Nope":{"a":1}}'));
    const entity = store.get(guid)!;
    assert.equal(entity.version, 0, "refused writes leave the entity as it was");
    assert.equal(entity.attributes.size, undefined);
    assert.equal(entity.classifications, undefined);

    const unknownType = await send("GET", `${base}/uniqueAttribute/type/Forbidden?attr:qualifiedName=x`);
    assert.equal(unknownType.status, 404);
    assert.equal(unknownType.body.errorCode, "ATLAS-404-00-001", "the type is checked before the instance");
  });
});
