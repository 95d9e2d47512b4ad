/**
 * The scanning routes of the emulator over HTTP: status codes of the 2023-09-01 contract (201 created,
 * 200 replaced, 202 run accepted) and of the service where they differ (200 and the object deleted),
 * azure-style 404 and 400 bodies, validation by kind and collection, scan runs and history, and the scan templates (triggers and classification rules:
 * `extras_test.ts`).
 */
import assert from "node:assert/strict";
import { scanTemplate } from "../../../../lib/templates/scan_templates.ts";
import { call, withEmulator } from "../emulator_test_helpers.ts";
import {
  assertAzureError,
  DATA_SOURCES as DS,
  SCAN_V as V,
  STORAGE_SOURCE as storage,
} from "./test_server.ts";

const RUN_ID = "138301e4-f4f9-4ab5-b734-bac446b236e7";

Deno.test("scan routes: data source create, replace, get, list, delete with the contract's statuses", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const created = await call(emulator, "PUT", `${DS}/sales-blob?${V}`, {
      ...storage,
      properties: { ...storage.properties, collection: { referenceName: "sales" } },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, "sales-blob");
    assert.equal(created.body.kind, "AzureStorage");
    assert.equal(created.body.properties.collection.referenceName, "sales");
    assert.equal(created.body.properties.collection.type, "CollectionReference");
    assert.ok(created.body.properties.createdAt);

    const replaced = await call(emulator, "PUT", `${DS}/SALES-blob?${V}`, {
      kind: "AdlsGen2",
      properties: {},
    });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.name, "sales-blob", "the first spelling of the name is kept");
    assert.equal(replaced.body.kind, "AdlsGen2");
    assert.equal(replaced.body.properties.collection.referenceName, "emulator", "the root when left out");

    const got = await call(emulator, "GET", `${DS}/sales-blob?${V}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.kind, "AdlsGen2");

    const list = await call(emulator, "GET", `${DS}?${V}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 1);
    assert.equal(list.body.value[0].name, "sales-blob");
    assert.equal(list.body.nextLink, undefined);

    const deleted = await call(emulator, "DELETE", `${DS}/sales-blob?${V}`);
    assert.equal(deleted.status, 200, "the service answers the deleted data source");
    assert.equal(deleted.body.name, "sales-blob");
    assert.equal(deleted.body.kind, "AdlsGen2");
    const gone = await call(emulator, "GET", `${DS}/sales-blob?${V}`);
    assert.equal(gone.status, 404);
    assertAzureError(gone.body, "DataSourceNotFound", /sales-blob/);
    assert.equal((await call(emulator, "DELETE", `${DS}/sales-blob?${V}`)).status, 404);
  });
});

Deno.test("scan routes: data source validation answers 400 naming the problem", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    const cases: [string, unknown, RegExp, string?][] = [
      ["good-name", { kind: "Nope" }, /Unknown data source kind "Nope"/, "kind"],
      ["good-name", { properties: {} }, /needs a kind/, "kind"],
      ["good-name", [storage], /must be a JSON object/],
      ["good-name", { ...storage, properties: { collection: { referenceName: "missing" } } }, /'missing'/],
      ["good-name", { ...storage, properties: { collection: "sales" } }, /referenceName/],
      ["good-name", { ...storage, properties: [] }, /properties must be an object/],
      ["x", storage, /not a valid data source name/],
      ["bad--name", storage, /not a valid data source name/],
    ];
    for (const [name, body, pattern, target] of cases) {
      const reply = await call(emulator, "PUT", `${DS}/${name}?${V}`, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assertAzureError(reply.body, "BadRequest", pattern);
      if (target) assert.equal(reply.body.error.target, target);
    }
    const empty = await call(emulator, "PUT", `${DS}/good-name?${V}`, undefined, { rawBody: "" });
    assert.equal(empty.status, 400);
    assertAzureError(empty.body, "BadRequest", /empty/);
    const broken = await call(emulator, "PUT", `${DS}/good-name?${V}`, undefined, { rawBody: "{nope" });
    assertAzureError(broken.body, "BadRequest", /not valid JSON/);
    assert.equal((await call(emulator, "GET", `${DS}?${V}`)).body.count, 0, "nothing was stored");
  });
});

Deno.test("scan routes: scans of a data source, kinds that fit, 404s and cascade on delete", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    assert.equal((await call(emulator, "PUT", `${DS}/lake?${V}`, storage)).status, 201);
    const scans = `${DS}/lake/scans`;
    const created = await call(emulator, "PUT", `${scans}/nightly?${V}`, { kind: "AzureStorageMsi" });
    assert.equal(created.status, 201);
    assert.equal(created.body.dataSourceName, "lake");
    assert.equal(created.body.properties.scanRulesetName, "AzureStorage");
    assert.equal(created.body.properties.scanRulesetType, "System");
    assert.equal(created.body.properties.collection.referenceName, "emulator");
    await call(emulator, "PUT", `/scan/azureKeyVaults/vault?${V}`, {
      properties: { baseUrl: "https://vault.vault.azure.net/" },
    });
    const key = await call(emulator, "PUT", `/scan/credentials/key?${V}`, {
      kind: "AccountKey",
      properties: {
        typeProperties: {
          accountKey: { type: "AzureKeyVaultSecret", secretName: "key", store: { referenceName: "vault" } },
        },
      },
    });
    assert.equal(key.status, 201);
    const replaced = await call(emulator, "PUT", `${scans}/nightly?${V}`, {
      kind: "AzureStorageCredential",
      properties: { credential: { referenceName: "key", credentialType: "AccountKey" } },
    });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.body.kind, "AzureStorageCredential");

    const misfit = await call(emulator, "PUT", `${scans}/other?${V}`, { kind: "AdlsGen2Msi" });
    assert.equal(misfit.status, 400);
    assertAzureError(misfit.body, "BadRequest", /does not fit data source 'lake' of kind AzureStorage/);
    const unknown = await call(emulator, "PUT", `${scans}/other?${V}`, { kind: "Whatever" });
    assertAzureError(unknown.body, "BadRequest", /Unknown scan kind/);
    const ruleset = await call(emulator, "PUT", `${scans}/other?${V}`, {
      kind: "AzureStorageMsi",
      properties: { scanRulesetType: "Mine" },
    });
    assertAzureError(ruleset.body, "BadRequest", /scanRulesetType 'Mine'/);

    const noSource = await call(emulator, "PUT", `${DS}/nope/scans/nightly?${V}`, {
      kind: "AzureStorageMsi",
    });
    assert.equal(noSource.status, 404);
    assertAzureError(noSource.body, "DataSourceNotFound", /'nope'/);
    const noScan = await call(emulator, "GET", `${scans}/missing?${V}`);
    assert.equal(noScan.status, 404);
    assertAzureError(noScan.body, "ScanNotFound", /'missing'/);

    const list = await call(emulator, "GET", `${scans}?${V}`);
    assert.deepEqual(list.body.value.map((s: { name: string }) => s.name), ["nightly"]);
    assert.equal(list.body.count, 1);

    const kindChange = await call(emulator, "PUT", `${DS}/lake?${V}`, { kind: "AdlsGen2" });
    assert.equal(kindChange.status, 409);
    assertAzureError(kindChange.body, "DataSourceKindChangeNotAllowed", /has scans/);

    assert.equal((await call(emulator, "DELETE", `${scans}/nightly?${V}`)).body.name, "nightly");
    assert.equal((await call(emulator, "GET", `${scans}/nightly?${V}`)).status, 404);
    assert.equal(
      (await call(emulator, "PUT", `${scans}/again?${V}`, { kind: "AzureStorageMsi" })).status,
      201,
    );
    assert.equal((await call(emulator, "DELETE", `${DS}/lake?${V}`)).status, 200);
    assert.equal((await call(emulator, "PUT", `${DS}/lake?${V}`, storage)).status, 201);
    assert.equal(
      (await call(emulator, "GET", `${scans}?${V}`)).body.count,
      0,
      "scans went with their source",
    );
  });
});

Deno.test("scan routes: a run is accepted with Operation-Location and shows in the history", async () => {
  await withEmulator({ seed: false }, async (emulator) => {
    await call(emulator, "PUT", `${DS}/lake?${V}`, storage);
    await call(emulator, "PUT", `${DS}/lake/scans/nightly?${V}`, { kind: "AzureStorageMsi" });
    const scan = `${DS}/lake/scans/nightly`;
    const run = await call(emulator, "POST", `${scan}:run?${V}&runId=${RUN_ID}&scanLevel=Full`);
    assert.equal(run.status, 202);
    assert.equal(run.body.id, RUN_ID);
    assert.equal(run.body.status, "Accepted");
    assert.equal(run.body.scanLevelType, "Full");
    assert.equal(run.body.dataSourceType, "AzureStorage");
    assert.equal(run.body.runType, "Manual");
    assert.equal(
      run.headers.get("operation-location"),
      `${emulator.url}${scan}/runs/${RUN_ID}?${V}`,
    );

    const again = await call(emulator, "POST", `${scan}:run?${V}&runId=${RUN_ID}`);
    assert.equal(again.status, 409);
    assertAzureError(again.body, "ScanRunAlreadyExists", new RegExp(RUN_ID));
    const noId = await call(emulator, "POST", `${scan}:run?${V}`);
    assertAzureError(noId.body, "BadRequest", /runId query parameter is required/);
    const badId = await call(emulator, "POST", `${scan}:run?${V}&runId=abc`);
    assertAzureError(badId.body, "BadRequest", /not a GUID/);
    const badLevel = await call(
      emulator,
      "POST",
      `${scan}:run?${V}&runId=${crypto.randomUUID()}&scanLevel=Deep`,
    );
    assertAzureError(badLevel.body, "BadRequest", /scanLevel 'Deep'/);
    const noScan = await call(
      emulator,
      "POST",
      `${DS}/lake/scans/missing:run?${V}&runId=${crypto.randomUUID()}`,
    );
    assert.equal(noScan.status, 404);
    assertAzureError(noScan.body, "ScanNotFound", /missing/);
    assert.equal((await call(emulator, "POST", `${scan}:jump?${V}`)).status, 404);

    const legacy = await call(emulator, "PUT", `${scan}/runs/${crypto.randomUUID()}?${V}`);
    assert.equal(legacy.status, 202, "the older PUT …/runs/{runId} starts a run too");

    const history = await call(emulator, "GET", `${scan}/runs?${V}`);
    assert.equal(history.status, 200);
    assert.equal(history.body.count, 2);
    assert.equal(history.body.value[1].id, RUN_ID, "newest first");
    const one = await call(emulator, "GET", `${scan}/runs/${RUN_ID}?${V}`);
    assert.equal(one.status, 200);
    assert.ok(["InProgress", "Succeeded"].includes(one.body.status));
    const missing = await call(emulator, "GET", `${scan}/runs/${crypto.randomUUID()}?${V}`);
    assert.equal(missing.status, 404);
    assertAzureError(missing.body, "ScanRunNotFound", /Scan run/);
  });
});

Deno.test("scan routes: the scanning templates govcat ships, placeholders filled in, are accepted", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const fill = (name: string) =>
      JSON.parse(
        JSON.stringify(scanTemplate(name)!.payload)
          .replaceAll("<collection-name>", "finance")
          .replaceAll("<server-name>", "fin-sql")
          .replaceAll("<database-name>", "ledger")
          .replaceAll("<classification-name>", "EMPLOYEE_ID"),
      );
    const source = await call(emulator, "PUT", `${DS}/fin-sql?${V}`, fill("scan-source"));
    assert.equal(source.status, 201, JSON.stringify(source.body));
    assert.equal(source.body.properties.collection.referenceName, "finance");
    const scan = await call(emulator, "PUT", `${DS}/fin-sql/scans/weekly?${V}`, fill("scan"));
    assert.equal(scan.status, 201, JSON.stringify(scan.body));
    const trigger = await call(
      emulator,
      "PUT",
      `${DS}/fin-sql/scans/weekly/triggers/default?${V}`,
      fill("scan-trigger"),
    );
    assert.equal(trigger.status, 201, JSON.stringify(trigger.body));
    const rule = await call(
      emulator,
      "PUT",
      `/scan/classificationrules/employee-id?${V}`,
      fill("classification-rule"),
    );
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
  });
});
