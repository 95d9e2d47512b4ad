/**
 * The column lineage check against the emulator over HTTP: a file's columns through its tabular schema, an
 * end without columns left unchecked and said so, an undefined process type, and a mapping given whole
 * whose DatasetMapping does not name the process's ends.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import type { LineageEnd } from "../../../lib/catalog/lineage_builder.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { ColumnLineageChecker } from "../../../lib/lineage/column_mapping_check.ts";

const MONTHLY_REVENUE = "ca7a1000-0000-4000-8000-000000000060";

Deno.test("ColumnLineageChecker: schemas through tabular_schema, ends without one, types, DatasetMapping", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url });
    const catalog = CatalogClient.fromConfig(config, { retryBaseMs: 5 });
    const written = await catalog.entity.createOrUpdateMany([
      { guid: "-1", typeName: "tabular_schema", attributes: { qualifiedName: "schema://orders", name: "s" } },
      {
        guid: "-2",
        typeName: "column",
        attributes: { qualifiedName: "schema://orders#id", name: "id" },
        relationshipAttributes: { composeSchema: { guid: "-1", typeName: "tabular_schema" } },
      },
      {
        guid: "-3",
        typeName: "DataSet",
        attributes: { qualifiedName: "file://orders.csv", name: "orders.csv" },
        relationshipAttributes: { tabular_schema: { guid: "-1", typeName: "tabular_schema" } },
      },
    ]);
    const file: LineageEnd = {
      guid: written.guidAssignments!["-3"],
      typeName: "DataSet",
      qualifiedName: "file://orders.csv",
    };
    const revenue: LineageEnd = {
      guid: MONTHLY_REVENUE,
      typeName: "DataSet",
      qualifiedName: "custom://finance/monthly-revenue",
    };
    const checker = new ColumnLineageChecker(catalog);

    const good = await checker.check({
      processType: "Process",
      source: file,
      target: revenue,
      pairs: [{ source: "id", target: "anything" }],
    });
    assert.deepEqual(
      good,
      { issues: [], unchecked: [MONTHLY_REVENUE] },
      "a data set without columns is unchecked",
    );

    const bad = await checker.check({
      processType: "NoSuchProcess",
      source: file,
      target: revenue,
      pairs: [{ source: "ID", target: "x", line: 7 }],
      entries: [{
        line: 9,
        entries: [{
          DatasetMapping: { Source: "file://other.csv", Sink: revenue.qualifiedName },
          ColumnMapping: [],
        }],
      }],
    });
    assert.deepEqual(bad.issues.map((i) => [i.field, i.line]), [
      ["process_type", undefined],
      ["source_column", 7],
      ["metadata", 9],
    ]);
    assert.match(bad.issues[0].message, /process type NoSuchProcess is not defined in the catalog/);
    assert.match(
      bad.issues[1].message,
      /"ID" is not a column of the source DataSet file:\/\/orders\.csv.*write it "id"/,
    );
    assert.match(bad.issues[2].message, /Source "file:\/\/other\.csv" is not the source's qualified name/);
  } finally {
    await emulator.close();
  }
});
