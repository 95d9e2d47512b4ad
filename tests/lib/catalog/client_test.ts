/**
 * The HTTP core the clients share decides about tokens per endpoint: with the unified catalog on a
 * loopback emulator and the data map on a real account (or the reverse), the emulator gets no token and
 * the real endpoint still asks for one.
 *
 * Run as govcat subprocesses that may reach 127.0.0.1 only. The managed identity the credential chain
 * would ask is pointed at a closed loopback port, so even a regression could not reach a login host or
 * 169.254.169.254 (design notes, "Testing authentication without leaving the machine").
 */
import assert from "node:assert/strict";
import { httpClientFromConfig } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { runGovcat } from "../../support/govcat_process.ts";

const CLOSED_IDENTITY_ENDPOINT = {
  IDENTITY_ENDPOINT: "http://127.0.0.1:9/msi/token",
  IDENTITY_HEADER: "test-header",
};

Deno.test("an emulator for one API and a real account for the other: tokens are asked for the real one only", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const env = {
      ...CLOSED_IDENTITY_ENDPOINT,
      CATALOG_ACCOUNT_NAME: "contoso",
      CATALOG_UNIFIED_ENDPOINT: emulator.url,
      CATALOG_MAX_RETRIES: "0",
    };
    // The unified catalog is the emulator: no credential is asked, the call succeeds.
    const unified = await runGovcat(["uc", "domain", "list"], env);
    assert.equal(unified.code, 0, unified.stderr);
    assert.ok(Array.isArray(JSON.parse(unified.stdout).value ?? JSON.parse(unified.stdout)), unified.stdout);

    // The data map is the real account: its token is asked for (and cannot be had here), nothing is sent.
    const datamap = await runGovcat(["entity", "get", "--guid=00000000-0000-0000-0000-000000000000"], env);
    assert.equal(datamap.code, 1, datamap.stderr);
    assert.match(datamap.stderr, /AuthenticationError|token/i);
    assert.doesNotMatch(datamap.stderr, /status: 404/);
  } finally {
    await emulator.close();
  }
});

Deno.test("the reverse: the data map on the emulator needs no token while the unified catalog asks for one", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const env = {
      ...CLOSED_IDENTITY_ENDPOINT,
      CATALOG_ACCOUNT_NAME: "contoso",
      CATALOG_ENDPOINT: emulator.url,
      // Named, since a loopback CATALOG_ENDPOINT alone covers the unified catalog too.
      CATALOG_UNIFIED_ENDPOINT: "https://api.purview-service.microsoft.com",
      CATALOG_MAX_RETRIES: "0",
    };
    const datamap = await runGovcat(["entity", "get", "--guid=00000000-0000-0000-0000-000000000000"], env);
    assert.equal(datamap.code, 1);
    assert.match(datamap.stderr, /status: 404/, "the emulator answered, without a token");

    // Before, one decision for both sent the unified catalog's requests without a token.
    const unified = await runGovcat(["uc", "domain", "list"], env);
    assert.equal(unified.code, 1, unified.stdout);
    assert.match(unified.stderr, /AuthenticationError|token/i);
  } finally {
    await emulator.close();
  }
});

Deno.test("each area's base URL comes from its endpoint setting", () => {
  const both = httpClientFromConfig(
    loadConfig({
      CATALOG_ACCOUNT_NAME: "contoso",
      CATALOG_ENDPOINT: "http://127.0.0.1:1",
      CATALOG_UNIFIED_ENDPOINT: "http://127.0.0.1:2",
    }),
  );
  assert.equal(both.baseUrl("unified"), "http://127.0.0.1:2");
  assert.equal(both.baseUrl("scan"), "http://127.0.0.1:1");
});
