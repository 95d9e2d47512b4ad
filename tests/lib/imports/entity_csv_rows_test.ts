import assert from "node:assert/strict";
import type { CheckedRow } from "../../../lib/csv/types.ts";
import { entityFromRow, extraValues } from "../../../lib/imports/entity_csv_rows.ts";

const OWNER = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";

const row = (values: CheckedRow["values"], extras: CheckedRow["extras"] = {}): CheckedRow => ({
  line: 2,
  cells: [],
  values,
  extras,
});

// The JSON text is compared too: the request body must keep its keys in the same order.
const same = (actual: unknown, expected: unknown) => {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
};

Deno.test("entityFromRow: a bulk-import row becomes plain objects, keys in order, extras assigned", () => {
  same(
    entityFromRow(
      "entity-bulk-import",
      row(
        {
          typeName: "DataSet",
          qualifiedName: "ds://a/b",
          displayName: "B",
          description: "About b",
          owner: [OWNER],
          source: "CRM",
          collection: "finance",
        },
        {
          "attr.retention": "30",
          "attr.layout": '{"kind":"wide"}',
          "attr.name": "b-name",
          "bm.Gov.steward": "x",
          "attr.empty": "",
        },
      ),
    ),
    {
      entity: {
        typeName: "DataSet",
        attributes: {
          qualifiedName: "ds://a/b",
          name: "b-name",
          displayName: "B",
          description: "About b",
          userDescription: "Source: CRM",
          retention: "30",
          layout: { kind: "wide" },
        },
        contacts: { Owner: [{ id: OWNER }] },
        businessAttributes: { Gov: { steward: "x" } },
      },
      collection: "finance",
    },
  );
  same(entityFromRow("entity-bulk-import", row({ typeName: "T", qualifiedName: "mssql://s/db/orders/" })), {
    entity: { typeName: "T", attributes: { qualifiedName: "mssql://s/db/orders/", name: "orders" } },
  });
});

Deno.test("entityFromRow: classified and dataset rows keep their shapes", () => {
  same(
    entityFromRow(
      "entity-classified",
      row({ name: "n", typeName: "T", qualifiedName: "q://n", classifications: ["PII", "Finance"] }),
    ),
    {
      entity: {
        typeName: "T",
        attributes: { qualifiedName: "q://n", name: "n" },
        classifications: [{ typeName: "PII" }, { typeName: "Finance" }],
      },
    },
  );
  same(
    entityFromRow(
      "entity-dataset",
      row({ name: "Sales", description: "d", source_system: "SAP BW", format: "csv", tags: ["a", "b"] }),
    ),
    {
      entity: {
        typeName: "DataSet",
        attributes: {
          qualifiedName: "sap-bw://Sales",
          name: "Sales",
          description: "d",
          userDescription: "source system: SAP BW; format: csv",
        },
        labels: ["a", "b"],
      },
    },
  );
});

Deno.test("extraValues: groups and attributes named like Object's own properties are data, not its functions", () => {
  const extras = extraValues(row({}, {
    "bm.toString.x": "v1",
    "bm.hasOwnProperty.valueOf": "v2",
    "attr.toString": "v3",
  }));
  same(extras, {
    attributes: { toString: "v3" },
    businessAttributes: { toString: { x: "v1" }, hasOwnProperty: { valueOf: "v2" } },
  });
  assert.equal((Object.prototype.toString as unknown as Record<string, unknown>).x, undefined);
  assert.equal(({} as Record<string, unknown>).valueOf, Object.prototype.valueOf);
});
