import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { BUILTIN_TYPEDEFS, createTypeSystem, DEFAULT_SEED } from "../../../../lib/emulator/mod.ts";
import { checkTypeDef } from "../../../../lib/emulator/types/definition_checks.ts";

type Types = ReturnType<typeof createTypeSystem>;

/** Runs `test` with a type system on a fresh in-memory database. */
function withTypes(test: (types: Types) => void): void {
  const database = new DatabaseSync(":memory:");
  try {
    test(createTypeSystem(database, () => 1_000));
  } finally {
    database.close();
  }
}

const TABLE = { qualifiedName: "mssql://s/db/dbo/T", name: "T" };

Deno.test("validateEntity: unknown type is a 404 with TYPE_NAME_NOT_FOUND", () => {
  withTypes((types) => {
    const error = types.validateEntity({ typeName: "no_such_type", attributes: TABLE });
    assert.equal(error?.status, 404);
    assert.equal(error?.code, "ATLAS-404-00-001");
    assert.equal(error?.message, "Given typename no_such_type was invalid");
    // A classification name is not an entity type either.
    assert.equal(
      types.validateEntity({ typeName: "MICROSOFT.PERSONAL.EMAIL", attributes: TABLE })?.status,
      404,
    );
  });
});

Deno.test("validateEntity: inherited attributes are accepted and inherited mandatory ones enforced", () => {
  withTypes((types) => {
    assert.equal(
      types.validateEntity({
        typeName: "azure_sql_table",
        attributes: { ...TABLE, description: "d", owner: "o", displayName: "x", objectType: "U" },
      }),
      undefined,
    );
    const noName = types.validateEntity({ typeName: "azure_sql_column", attributes: { qualifiedName: "q" } });
    assert.equal(noName?.status, 400);
    assert.equal(noName?.code, "ATLAS-400-00-02B");
    assert.equal(noName?.message, "Mandatory field azure_sql_column.name has empty/null value");
    const nullName = types.validateEntity({
      typeName: "DataSet",
      attributes: { qualifiedName: "q", name: null },
    });
    assert.equal(nullName?.code, "ATLAS-400-00-02B");
  });
});

Deno.test("validateEntity: a mandatory reference may come in relationshipAttributes", () => {
  withTypes((types) => {
    const db = { qualifiedName: "mssql://s/db", name: "db" };
    const server = { guid: "ca7a1000-0000-4000-8000-000000000001", typeName: "azure_sql_server" };
    assert.equal(
      types.validateEntity({ typeName: "azure_sql_db", attributes: db })?.message,
      "Mandatory field azure_sql_db.server has empty/null value",
    );
    assert.equal(
      types.validateEntity({ typeName: "azure_sql_db", attributes: { ...db, server } }),
      undefined,
    );
    const viaRelationship = { typeName: "azure_sql_db", attributes: db, relationshipAttributes: { server } };
    assert.equal(types.validateEntity(viaRelationship), undefined);
  });
});

Deno.test("validateEntity: unknown attributes are refused, relationship attribute names accepted as object ids", () => {
  withTypes((types) => {
    const unknown = types.validateEntity({
      typeName: "azure_sql_table",
      attributes: { ...TABLE, colour: "red" },
    });
    assert.equal(unknown?.status, 400);
    assert.equal(unknown?.code, "ATLAS-400-00-023");
    assert.equal(unknown?.message, "Attribute colour not found for type azure_sql_table");
    const columns = [{ guid: "c1" }, {
      typeName: "azure_sql_column",
      uniqueAttributes: { qualifiedName: "q#c" },
    }];
    assert.equal(
      types.validateEntity({ typeName: "azure_sql_table", attributes: { ...TABLE, columns } }),
      undefined,
    );
    const badColumns = types.validateEntity({
      typeName: "azure_sql_table",
      attributes: { ...TABLE, columns: "c1" },
    });
    assert.equal(badColumns?.code, "ATLAS-400-00-028");
  });
});

Deno.test("validateEntity: values must match the attribute types", () => {
  withTypes((types) => {
    const path = { qualifiedName: "https://a.dfs.core.windows.net/fs/x.csv", name: "x.csv" };
    const check = (typeName: string, attributes: Record<string, unknown>) =>
      types.validateEntity({ typeName, attributes })?.code;
    const ok: Array<[string, Record<string, unknown>]> = [
      ["azure_datalake_gen2_path", { ...path, isFile: true, size: 12, modifiedTime: 1_700_000_000_000 }],
      ["azure_datalake_gen2_path", {
        ...path,
        isFile: "false",
        size: "42",
        modifiedTime: "2024-05-01T10:00:00.000Z",
      }],
      ["azure_sql_column", { qualifiedName: "q#c", name: "c", data_type: "int", precision: 10, scale: 0 }],
      ["Process", {
        qualifiedName: "p",
        name: "p",
        inputs: [{ guid: "a", typeName: "azure_sql_table" }],
        outputs: [],
      }],
      ["azure_blob_path", { ...path, softDeletedState: { deleted: true, remainingRetentionDays: 3 } }],
      ["AtlasGlossaryTerm", { qualifiedName: "t@g", name: "t", status: "Draft", examples: ["a", "b"] }],
      // AtlasStringType accepts any value and stores obj.toString(): a number for a string is its text.
      ["DataSet", { qualifiedName: "q", name: 42 }],
    ];
    for (const [typeName, attributes] of ok) assert.equal(check(typeName, attributes), undefined, typeName);
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ["azure_datalake_gen2_path", { ...path, isFile: "yes" }, "boolean"],
      ["azure_datalake_gen2_path", { ...path, size: 1.5 }, "long"],
      ["azure_datalake_gen2_path", { ...path, modifiedTime: "yesterday" }, "date"],
      ["azure_sql_column", { qualifiedName: "q#c", name: "c", precision: 3_000_000_000 }, "int"],
      // Numbers and booleans for a string attribute are accepted (Atlas stores their text), objects are not.
      ["DataSet", { qualifiedName: "q", name: { first: "x" } }, "string"],
      ["Process", { qualifiedName: "p", name: "p", inputs: { guid: "a" } }, "array<DataSet>"],
      ["Process", { qualifiedName: "p", name: "p", inputs: [{ guid: "a", typeName: "Process" }] }, "DataSet"],
      ["Process", { qualifiedName: "p", name: "p", outputs: [{ name: "no id" }] }, "DataSet"],
      [
        "AtlasGlossaryTerm",
        { qualifiedName: "t@g", name: "t", status: "Final" },
        "glossary_term_status_value",
      ],
      ["azure_blob_path", { ...path, softDeletedState: { deleted: "nope" } }, "boolean"],
    ];
    for (const [typeName, attributes, expected] of bad) {
      const error = types.validateEntity({ typeName, attributes });
      assert.equal(error?.status, 400, `${typeName} ${JSON.stringify(attributes)}`);
      assert.equal(error?.code, "ATLAS-400-00-028");
      assert.match(error!.message, new RegExp(`invalid value for type ${expected.replace(/[<>]/g, ".")}`));
    }
  });
});

Deno.test("validateClassification and isA", () => {
  withTypes((types) => {
    assert.equal(types.validateClassification("MICROSOFT.PERSONAL.EMAIL"), undefined);
    const unknown = types.validateClassification("CONTOSO.SECRET");
    assert.equal(unknown?.status, 404);
    assert.equal(unknown?.code, "ATLAS-404-00-008");
    assert.equal(
      types.validateClassification("DataSet")?.status,
      404,
      "an entity type is not a classification",
    );
    assert.ok(types.isA("azure_sql_column", "DataSet"));
    assert.ok(types.isA("azure_sql_table", "Referenceable"));
    assert.ok(types.isA("azure_sql_db", "Asset"));
    assert.ok(types.isA("Process", "Process"));
    assert.ok(!types.isA("azure_sql_table", "Process"));
    assert.ok(!types.isA("no_such_type", "DataSet"));
  });
});

Deno.test("validateBusinessMetadata: unknown group or attribute and wrong values are refused", () => {
  withTypes((types) => {
    types.create({
      businessMetadataDefs: [{
        name: "Stewardship",
        attributeDefs: [
          { name: "steward", typeName: "string", isOptional: true, options: { maxStrLength: "10" } },
          { name: "retentionDays", typeName: "int", isOptional: true },
        ],
      }],
    });
    assert.equal(
      types.validateBusinessMetadata({ Stewardship: { steward: "dana", retentionDays: 30 } }),
      undefined,
    );
    assert.equal(
      types.validateBusinessMetadata({ Stewardship: { steward: null } }),
      undefined,
      "null removes",
    );
    const group = types.validateBusinessMetadata({ Nope: { steward: "x" } });
    assert.equal(group?.status, 400);
    assert.equal(group?.code, "ATLAS-400-00-095");
    assert.match(group!.message, /Stewardship/);
    assert.equal(types.validateBusinessMetadata({ Stewardship: { colour: "x" } })?.code, "ATLAS-400-00-023");
    assert.equal(
      types.validateBusinessMetadata({ Stewardship: { retentionDays: "long" } })?.code,
      "ATLAS-400-00-028",
    );
    assert.equal(
      types.validateBusinessMetadata({ Stewardship: { steward: "far too long" } })?.code,
      "ATLAS-400-00-028",
    );
  });
});

Deno.test("every seed entity is valid under the built-in types, with known classifications", () => {
  const seed = DEFAULT_SEED as {
    entities: Array<
      { typeName: string; attributes: Record<string, unknown>; classifications?: Array<{ typeName: string }> }
    >;
  };
  withTypes((types) => {
    assert.ok(seed.entities.length > 0);
    for (const entity of seed.entities) {
      assert.equal(
        types.validateEntity(entity),
        undefined,
        `${entity.typeName} ${entity.attributes.qualifiedName}`,
      );
      for (const classification of entity.classifications ?? []) {
        assert.equal(
          types.validateClassification(classification.typeName),
          undefined,
          classification.typeName,
        );
      }
    }
  });
});

Deno.test("built-in definitions have fixed guids, unique names and resolvable references", () => {
  const names = BUILTIN_TYPEDEFS.map((def) => def.name);
  assert.equal(new Set(names).size, names.length, "no duplicate names");
  assert.equal(new Set(BUILTIN_TYPEDEFS.map((def) => def.guid)).size, names.length, "no duplicate guids");
  withTypes((first) => {
    withTypes((second) => {
      assert.deepEqual(first.byName("DataSet"), second.byName("DataSet"), "the same on every emulator");
    });
    const dataSet = first.byName("DataSet")!;
    assert.equal(dataSet.version, 1);
    assert.equal(dataSet.createTime, dataSet.updateTime);
    assert.deepEqual(dataSet.superTypes, ["Asset"]);
    assert.ok(dataSet.subTypes!.includes("azure_sql_table"));
    const table = first.byName("azure_sql_table")!;
    const columns = table.relationshipAttributeDefs!.find((a) => a.name === "columns")!;
    assert.equal(columns.typeName, "array<azure_sql_column>");
    assert.equal(columns.relationshipTypeName, "azure_sql_table_columns");
    // Every built-in passes the checks a caller's definitions get (types exist, ends well formed, ...).
    for (const def of BUILTIN_TYPEDEFS) {
      assert.equal(checkTypeDef(def, (name) => first.find(name))?.message, undefined, def.name);
    }
  });
});
