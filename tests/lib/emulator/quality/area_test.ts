/**
 * The emulator's data quality area over real HTTP: rules on an asset, a run that evaluates them over the
 * catalog's view of the asset (Customers of the seed: columns CustomerId, FullName, Email, CreatedAt), and
 * the score and observations that come out, read back through every route that shows them; the rule
 * checks that protect stored rules; the generic store of the untyped parts; and the error shape.
 */
import assert from "node:assert/strict";
import { call, ok, withEmulator } from "../emulator_test_helpers.ts";

const V = "api-version=2025-09-01-preview";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const DOMAIN = "/purviewdataquality/api/business-domains/sales";
const ASSET = `${DOMAIN}/data-products/crm/data-assets/${CUSTOMERS}`;

function rule(n: number, column: string, status = "Active") {
  return {
    id: `0000000${n}-0000-4000-8000-000000000000`,
    name: `${column} complete`,
    type: "Completeness",
    status,
    typeProperties: { column: { type: "string", value: column } },
  };
}

Deno.test("quality: a run scores the asset's active rules over the catalog, and every view shows it", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await ok(emulator, "POST", `${ASSET}/bulk/global-rules?${V}`, [
      rule(1, "Email"), // a column with a data type: passes
      rule(2, "PhoneNumber"), // no such column or attribute: fails
      rule(3, "description"), // an attribute with a value: passes
      rule(4, "FullName", "Draft"), // not active: skipped
    ]);
    const started = await call(emulator, "POST", `${ASSET}/observations?${V}`, {});
    assert.equal(started.status, 201);
    const runId = started.body;
    assert.equal(typeof runId, "string");

    const observation = await ok(emulator, "GET", `${ASSET}/observations/${runId}?${V}`);
    assert.equal(observation.body.status, "Succeeded");
    assert.equal(observation.body.score, 66.7);
    const run = await ok(emulator, "GET", `${DOMAIN}/runs/${runId}?${V}`);
    assert.equal(run.body.outcomeId, observation.body.outcomeId);

    const outcome = await ok(emulator, "GET", `${DOMAIN}/outcomes/${run.body.outcomeId}?${V}`);
    const results = Object.fromEntries(
      outcome.body.opinions.map((o: { controlId: string; value: { result: string } }) => [
        o.controlId.slice(7, 8),
        o.value.result,
      ]),
    );
    assert.deepEqual(results, { 1: "Passed", 2: "Failed", 3: "Passed", 4: "Skipped" });
    assert.equal(outcome.body.observations.length, 4);

    const report = await ok(emulator, "GET", `${DOMAIN}/report?${V}`);
    assert.deepEqual(report.body, [{
      businessDomainId: "sales",
      dataProductId: "crm",
      dataAssetId: CUSTOMERS,
      score: "66.7",
      jobId: runId,
    }]);
    const product = await ok(emulator, "GET", `${DOMAIN}/data-products/crm?${V}`);
    assert.equal(product.body.score, 66.7);
    assert.equal(product.body.dataAssets[0].ruleCount, 4);
    const history = await ok(emulator, "GET", `${ASSET}/runs?${V}`);
    assert.deepEqual(history.body.map((r: { runId: string }) => r.runId), [runId]);
    const trend = await ok(emulator, "GET", `${ASSET}/rule-opinions/${rule(2, "").id}?${V}`);
    assert.equal(trend.body[0].value.result, "Failed");
    const stored = await ok(emulator, "GET", `${ASSET}/global-rules/${rule(1, "").id}?${V}`);
    assert.equal(stored.body.score, 100, "a rule keeps its last result");
  });
});

Deno.test("quality: a changed rule changes the next run's score, and the report shows the latest", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "owner"));
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(2, "CreatedAt"));
    const first = await call(emulator, "POST", `${ASSET}/observations?${V}`);
    assert.equal((await ok(emulator, "GET", `${ASSET}/observations/${first.body}?${V}`)).body.score, 100);
    await ok(emulator, "PUT", `${ASSET}/global-rules/${rule(2, "").id}?${V}`, rule(2, "Missing"));
    const second = await call(emulator, "POST", `${ASSET}/observations?${V}`);
    assert.equal((await ok(emulator, "GET", `${ASSET}/observations/${second.body}?${V}`)).body.score, 50);
    const report = await ok(emulator, "GET", `${DOMAIN}/report?${V}`);
    assert.equal(report.body[0].score, "50", "the report shows the latest run");
  });
});

Deno.test("quality: a run of an asset the catalog does not hold fails and says why", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const path = `${DOMAIN}/data-products/crm/data-assets/00000000-0000-4000-8000-00000000dead`;
    const started = await call(emulator, "POST", `${path}/observations?${V}`);
    assert.equal(started.status, 201);
    const run = await ok(emulator, "GET", `${path}/observations/${started.body}?${V}`);
    assert.equal(run.body.status, "Failed");
    assert.match(run.body.message, /not an entity of the catalog/);
  });
});

Deno.test("quality: a disabled asset takes no runs", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await ok(emulator, "POST", `${ASSET}/disable?${V}`);
    const refused = await call(emulator, "POST", `${ASSET}/observations?${V}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, "AssetDisabled");
    assert.equal(refused.headers.get("x-ms-error-code"), "AssetDisabled");
  });
});

Deno.test("quality: rule checks protect what is stored", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const cases: [unknown, string][] = [
      [{ ...rule(1, "Email"), id: "not-a-uuid" }, "id"],
      [{ ...rule(1, "Email"), status: "" }, "status"],
      [{ ...rule(1, "Email"), score: 150 }, "score"],
      [{ ...rule(1, "Email"), typeProperties: { column: { value: 7 } } }, "typeProperties.column.value"],
      [
        { ...rule(1, "Email"), dataAsset: { type: "DataAsset", referenceId: "other" } },
        "dataAsset.referenceId",
      ],
    ];
    for (const [body, target] of cases) {
      const reply = await call(emulator, "POST", `${ASSET}/global-rules?${V}`, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.error.target, target);
    }
    assert.deepEqual((await ok(emulator, "GET", `${ASSET}/global-rules?${V}`)).body, []);
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Email"));
    const again = await call(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Email"));
    assert.equal(again.status, 409);
    const deleted = await call(emulator, "DELETE", `${ASSET}/global-rules/${rule(1, "").id}?${V}`);
    assert.equal(deleted.status, 204);
    assert.equal((await call(emulator, "GET", `${ASSET}/global-rules/${rule(1, "").id}?${V}`)).status, 404);
  });
});

Deno.test("quality: untyped resources are stored as sent, merged, listed and deleted", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const created = await ok(emulator, "POST", `${DOMAIN}/alerts?${V}`, {
      name: "Score drop",
      threshold: 80,
    });
    const id = created.body.id;
    await ok(emulator, "PATCH", `${DOMAIN}/alerts/${id}?${V}`, { threshold: 70 });
    const read = await ok(emulator, "GET", `${DOMAIN}/alerts/${id}?${V}`);
    assert.equal(read.body.threshold, 70);
    assert.equal(read.body.name, "Score drop");
    const listed = await ok(emulator, "GET", `${DOMAIN}/alerts?name=score&${V}`);
    assert.equal(listed.body.count, 1);
    await ok(emulator, "DELETE", `${DOMAIN}/alerts/${id}?${V}`);
    assert.equal((await call(emulator, "GET", `${DOMAIN}/alerts/${id}?${V}`)).status, 404);
    const source = await ok(emulator, "POST", `${DOMAIN}/data-sources?${V}`, {
      name: "crm",
      credential: { type: "Basic", typeProperties: { user: "u", password: "s3cret" } },
    });
    assert.equal(source.body.credential.typeProperties.password, "***", "secrets are not echoed");
  });
});

Deno.test("quality: errors use the azure shape with x-ms-error-code", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const reply = await call(emulator, "GET", `${DOMAIN}/runs/nope?${V}`);
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body.error).sort(), ["code", "details", "message", "target"]);
    assert.equal(reply.headers.get("x-ms-error-code"), "NotFound");
    const bad = await call(emulator, "POST", `${DOMAIN}/runs?${V}`, undefined, { rawBody: "{" });
    assert.equal(bad.status, 400);
  });
});

Deno.test("quality: runs follow the catalog: a column added without a data type fails its rule", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Phone"));
    const run = async () => {
      const started = await call(emulator, "POST", `${ASSET}/observations?${V}`);
      const observation = await ok(emulator, "GET", `${ASSET}/observations/${started.body}?${V}`);
      const outcome = await ok(emulator, "GET", `${DOMAIN}/outcomes/${observation.body.outcomeId}?${V}`);
      return outcome.body.opinions[0].value;
    };
    assert.match((await run()).reason, /no column or attribute named Phone/);
    await ok(emulator, "POST", "/datamap/api/atlas/v2/entity?api-version=2023-09-01", {
      entity: {
        typeName: "azure_sql_column",
        attributes: {
          qualifiedName: "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers#Phone",
          name: "Phone",
        },
        relationshipAttributes: { table: { guid: CUSTOMERS, typeName: "azure_sql_table" } },
      },
    });
    const result = await run();
    assert.equal(result.result, "Failed");
    assert.match(result.reason, /column Phone declares no data type/);
  });
});

Deno.test("quality: rules, runs and scores persist in the data file across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-quality-" });
  const dataFile = `${dir}/catalog.db`;
  try {
    await withEmulator({ seed: true, dataFile }, async (emulator) => {
      await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Email"));
      await call(emulator, "POST", `${ASSET}/observations?${V}`);
    });
    await withEmulator({ dataFile }, async (emulator) => {
      assert.equal((await ok(emulator, "GET", `${ASSET}/global-rules?${V}`)).body.length, 1);
      assert.equal((await ok(emulator, "GET", `${DOMAIN}/report?${V}`)).body[0].score, "100");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("quality: profiles and rule suggestions come from the catalog's columns", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const profileRun = await ok(emulator, "POST", `${ASSET}/profiles?${V}`, {});
    const profile = await ok(emulator, "GET", `${ASSET}/profiles/${profileRun.body}?${V}`);
    assert.deepEqual(profile.body.columns.map((c: { name: string }) => c.name), [
      "CustomerId",
      "FullName",
      "Email",
      "CreatedAt",
    ]);
    const email = await ok(emulator, "GET", `${ASSET}/columns/email/profiles/${profileRun.body}?${V}`);
    assert.equal(email.body.name, "Email");
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Email"));
    await ok(emulator, "POST", `${ASSET}/rule-suggestion/config?${V}`, {
      notImportantColumns: ["CreatedAt"],
    });
    await ok(emulator, "POST", `${ASSET}/rule-suggestions?${V}`, {});
    const suggested = await ok(emulator, "GET", `${ASSET}/rule-suggestions?${V}`);
    assert.deepEqual(
      suggested.body.map((s: { typeProperties: { column: { value: string } } }) =>
        s.typeProperties.column.value
      ),
      ["CustomerId", "FullName"],
      "no suggestion for a column a rule checks or the configuration marks unimportant",
    );
    const projection = await ok(emulator, "POST", `${DOMAIN}/utilities/parse-projection?${V}`, {
      projection: "a, upper(b, c) AS d",
    });
    assert.deepEqual(projection.body.columns, [
      { expression: "a", alias: "a" },
      { expression: "upper(b, c)", alias: "d" },
    ]);
  });
});

Deno.test("quality: a schedule's scan runs every asset it lists", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    await ok(emulator, "POST", `${ASSET}/global-rules?${V}`, rule(1, "Email"));
    const schedule = await ok(emulator, "POST", `${DOMAIN}/schedules?${V}`, {
      name: "nightly",
      dataAssets: [{ dataProductId: "crm", dataAssetId: CUSTOMERS }, {
        dataProductId: "crm",
        dataAssetId: "gone",
      }],
    });
    const scanId =
      (await ok(emulator, "POST", `${DOMAIN}/schedules/${schedule.body.id}/scans?${V}`, {})).body;
    const scan = await ok(emulator, "GET", `${DOMAIN}/schedules/${schedule.body.id}/scans/${scanId}?${V}`);
    assert.deepEqual([scan.body.succeeded, scan.body.failed, scan.body.status], [1, 1, "Failed"]);
    const runs = await ok(
      emulator,
      "GET",
      `${DOMAIN}/schedules/${schedule.body.id}/scans/${scanId}/runs?${V}`,
    );
    assert.equal(runs.body.count, 2);
    assert.equal((await ok(emulator, "GET", `${DOMAIN}/report?${V}`)).body[0].score, "100");
  });
});

Deno.test("quality: scoped asset metadata reads back by data product, and without one (2026-01-12-preview)", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const noProduct = "00000000-0000-0000-0000-000000000000";
    await ok(
      emulator,
      "PUT",
      `${DOMAIN}/data-products/${noProduct}/data-assets/${CUSTOMERS}/scoped-asset-metadata?${V}`,
      {
        description: "customers, no product",
      },
    );
    await ok(emulator, "POST", `${ASSET}/update-favourite-column-paths?${V}`, {
      favouriteColumnPaths: ["Email"],
    });
    const byProduct = await ok(
      emulator,
      "GET",
      `${DOMAIN}/data-assets/${CUSTOMERS}/scoped-asset-metadata?dataProductId=crm&api-version=2026-01-12-preview`,
    );
    assert.deepEqual(byProduct.body.favouriteColumnPaths, ["Email"]);
    assert.equal(byProduct.body.dataProduct.referenceId, "crm");
    const alone = await ok(
      emulator,
      "GET",
      `${DOMAIN}/data-assets/${CUSTOMERS}/scoped-asset-metadata?api-version=2026-01-12-preview`,
    );
    assert.equal(alone.body.description, "customers, no product");
  });
});
