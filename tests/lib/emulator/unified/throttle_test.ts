/**
 * Rate limiting of the unified catalog area: with small limits and a short window, the request over the
 * limit answers 429 with `Retry-After` and the azure error body, and succeeds once the window frees.
 */
import assert from "node:assert/strict";
import { createUnifiedCatalogArea, DEFAULT_LIMITS } from "../../../../lib/emulator/unified/area.ts";
import { serveArea } from "../../../support/local_server.ts";

const V = "api-version=2025-09-15-preview";

Deno.test("unified catalog throttling: 429 with Retry-After, then success after the window", async () => {
  const server = serveArea(
    createUnifiedCatalogArea({
      limits: { read: 2, write: 5, operations: { "terms.list": 3 } },
      windowMs: 400,
    }),
    { prefix: "/datagovernance/catalog" },
  );
  const base = `${server.url}/datagovernance/catalog`;
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}?${V}`);
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: await response.json(),
    };
  };
  try {
    for (let i = 0; i < 3; i++) assert.equal((await get("/terms")).status, 200);
    const limited = await get("/terms");
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, "1");
    assert.equal(limited.body.error.code, "TooManyRequests");
    assert.match(limited.body.error.message, /terms\.list: at most 3 requests per 0\.4 seconds/);
    // Other operations have windows of their own (read default 2).
    assert.equal((await get("/dataProducts")).status, 200);
    assert.equal((await get("/dataProducts")).status, 200);
    assert.equal((await get("/dataProducts")).status, 429);
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert.equal((await get("/terms")).status, 200);
    assert.equal((await get("/dataProducts")).status, 200);
    assert.equal(DEFAULT_LIMITS.operations["terms.list"], 100);
    assert.equal(DEFAULT_LIMITS.operations["criticalDataElements.create"], 200);
  } finally {
    await server.close();
  }
});
