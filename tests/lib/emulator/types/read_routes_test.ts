import assert from "node:assert/strict";
import { API_VERSION, call, CATALOG, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const TYPES = `${DATAMAP}/atlas/v2/types`;
const FIVE_LISTS = ["classificationDefs", "entityDefs", "enumDefs", "relationshipDefs", "structDefs"];

/** A business metadata group and a term template, so every category has a definition to read. */
const EXTRA_DEFS = {
  businessMetadataDefs: [{
    name: "Stewardship",
    attributeDefs: [{ name: "steward", typeName: "string", isOptional: true }],
  }],
  termTemplateDefs: [{
    name: "KPI template",
    attributeDefs: [{ name: "target", typeName: "string", isOptional: true }],
  }],
};

Deno.test("GET typedefs lists every category, and each type filter only its own", async () => {
  await withEmulator({}, async (emulator) => {
    assert.equal((await call(emulator, "POST", `${TYPES}/typedefs`, EXTRA_DEFS)).status, 200);

    const all = await call(emulator, "GET", `${TYPES}/typedefs?${API_VERSION}`);
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body).sort(), ["businessMetadataDefs", ...FIVE_LISTS].sort());
    const names = (list: Array<{ name: string }>) => list.map((d) => d.name);
    assert.ok(names(all.body.entityDefs).includes("azure_sql_table"));
    assert.ok(names(all.body.classificationDefs).includes("MICROSOFT.PERSONAL.EMAIL"));
    assert.ok(names(all.body.enumDefs).includes("glossary_term_status_value"));
    assert.ok(names(all.body.structDefs).includes("blob_soft_deleted_state"));
    assert.ok(names(all.body.relationshipDefs).includes("azure_sql_table_columns"));
    assert.deepEqual(names(all.body.businessMetadataDefs), ["Stewardship"]);
    for (const list of FIVE_LISTS) {
      for (const def of all.body[list]) {
        assert.equal(def.category, list.replace("Defs", "").toUpperCase(), def.name);
      }
    }

    const withTemplates = await call(emulator, "GET", `${TYPES}/typedefs?includeTermTemplate=true`);
    assert.deepEqual(names(withTemplates.body.termTemplateDefs), ["KPI template"]);

    const filters: Record<string, string> = {
      ENTITY: "entityDefs",
      classification: "classificationDefs",
      ENUM: "enumDefs",
      STRUCT: "structDefs",
      RELATIONSHIP: "relationshipDefs",
      BUSINESS_METADATA: "businessMetadataDefs",
      TERM_TEMPLATE: "termTemplateDefs",
    };
    for (const [type, key] of Object.entries(filters)) {
      const filtered = await call(emulator, "GET", `${TYPES}/typedefs?type=${type}`);
      assert.equal(filtered.status, 200, type);
      assert.ok(filtered.body[key].length > 0, `${type} lists ${key}`);
      for (const [otherKey, list] of Object.entries(filtered.body)) {
        if (otherKey !== key) assert.deepEqual(list, [], `${type} leaves ${otherKey} empty`);
      }
    }
    for (const type of ["PRIMITIVE", "ARRAY", "MAP", "OBJECT_ID_TYPE"]) {
      const none = await call(emulator, "GET", `${TYPES}/typedefs?type=${type}`);
      assert.ok(Object.values(none.body).every((list) => (list as unknown[]).length === 0), type);
    }
  });
});

Deno.test("GET typedefs/headers gives guid, name and category of every definition", async () => {
  await withEmulator({}, async (emulator) => {
    const headers = await call(emulator, "GET", `${TYPES}/typedefs/headers`);
    assert.equal(headers.status, 200);
    const dataSet = headers.body.find((h: { name: string }) => h.name === "DataSet");
    assert.deepEqual(Object.keys(dataSet).sort(), ["category", "guid", "name"]);
    assert.equal(dataSet.category, "ENTITY");
    const enums = await call(emulator, "GET", `${TYPES}/typedefs/headers?type=ENUM`);
    assert.ok(enums.body.length > 0);
    assert.ok(enums.body.every((h: { category: string }) => h.category === "ENUM"));
    const full = await call(emulator, "GET", `${TYPES}/typedefs`);
    const count = Object.values(full.body).reduce((n: number, list) => n + (list as unknown[]).length, 0);
    assert.equal(headers.body.length, count, "headers cover the same definitions as the full list");
  });
});

Deno.test("each category's definitions are found by name and guid, and under any-category routes", async () => {
  await withEmulator({}, async (emulator) => {
    await call(emulator, "POST", `${TYPES}/typedefs`, EXTRA_DEFS);
    const cases: Array<[path: string, name: string, category: string]> = [
      [`${TYPES}/entitydef`, "azure_sql_table", "ENTITY"],
      [`${TYPES}/classificationdef`, "MICROSOFT.FINANCIAL.CREDIT_CARD_NUMBER", "CLASSIFICATION"],
      [`${TYPES}/enumdef`, "AtlasGlossaryTermRelationshipStatus", "ENUM"],
      [`${TYPES}/relationshipdef`, "azure_sql_table_columns", "RELATIONSHIP"],
      [`${TYPES}/structdef`, "blob_soft_deleted_state", "STRUCT"],
      [`${TYPES}/businessmetadatadef`, "Stewardship", "BUSINESS_METADATA"],
      [`${DATAMAP}/types/termtemplatedef`, "KPI template", "TERM_TEMPLATE"],
    ];
    for (const [path, name, category] of cases) {
      const byName = await call(emulator, "GET", `${path}/name/${encodeURIComponent(name)}`);
      assert.equal(byName.status, 200, `${path} ${name}`);
      assert.equal(byName.body.name, name);
      assert.equal(byName.body.category, category);
      assert.equal(typeof byName.body.guid, "string");
      for (const field of ["createTime", "updateTime", "version"]) {
        assert.equal(typeof byName.body[field], "number");
      }
      assert.equal(typeof byName.body.typeVersion, "string");
      const byGuid = await call(emulator, "GET", `${path}/guid/${byName.body.guid}`);
      assert.deepEqual(byGuid.body, byName.body);
      const anyByName = await call(emulator, "GET", `${TYPES}/typedef/name/${encodeURIComponent(name)}`);
      assert.deepEqual(anyByName.body, byName.body);
      const anyByGuid = await call(
        emulator,
        "GET",
        `${CATALOG}/atlas/v2/types/typedef/guid/${byName.body.guid}`,
      );
      assert.deepEqual(anyByGuid.body, byName.body);
    }

    const relationship = await call(emulator, "GET", `${TYPES}/relationshipdef/name/azure_sql_table_columns`);
    assert.equal(relationship.body.relationshipCategory, "COMPOSITION");
    assert.equal(relationship.body.relationshipLabel, "r:azure_sql_table_columns");
    assert.deepEqual(relationship.body.endDef1, {
      type: "azure_sql_table",
      name: "columns",
      isContainer: true,
      cardinality: "SET",
      isLegacyAttribute: true,
    });
    const column = await call(emulator, "GET", `${TYPES}/entitydef/name/azure_sql_column`);
    const dataType = column.body.attributeDefs.find((a: { name: string }) => a.name === "data_type");
    assert.deepEqual(dataType, {
      name: "data_type",
      typeName: "string",
      isOptional: true,
      cardinality: "SINGLE",
      valuesMinCount: 0,
      valuesMaxCount: 1,
      isUnique: false,
      isIndexable: false,
      includeInNotification: false,
    });
    const referenceable = await call(emulator, "GET", `${TYPES}/entitydef/name/Referenceable`);
    const qualifiedName = referenceable.body.attributeDefs[0];
    assert.equal(qualifiedName.name, "qualifiedName");
    assert.equal(qualifiedName.isOptional, false);
    assert.equal(qualifiedName.isUnique, true);
  });
});

Deno.test("unknown names and guids, and names of another category, are 404 with Atlas bodies", async () => {
  await withEmulator({}, async (emulator) => {
    const cases: Array<[path: string, code: string, message: string]> = [
      [`${TYPES}/typedef/name/no_such_type`, "ATLAS-404-00-001", "Given typename no_such_type was invalid"],
      [
        `${TYPES}/entitydef/name/MICROSOFT.PERSONAL.EMAIL`,
        "ATLAS-404-00-001",
        "Given typename MICROSOFT.PERSONAL.EMAIL was invalid",
      ],
      [`${TYPES}/classificationdef/name/DataSet`, "ATLAS-404-00-001", "Given typename DataSet was invalid"],
      [
        `${TYPES}/typedef/guid/00000000-0000-4000-8000-000000000000`,
        "ATLAS-404-00-002",
        "Given type guid 00000000-0000-4000-8000-000000000000 was invalid",
      ],
      [`${TYPES}/enumdef/guid/nope`, "ATLAS-404-00-002", "Given type guid nope was invalid"],
    ];
    for (const [path, code, message] of cases) {
      const reply = await call(emulator, "GET", path);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.body.errorCode, code, path);
      assert.equal(reply.body.errorMessage, message);
      assert.equal(reply.body.requestId, reply.headers.get("x-ms-request-id"));
    }
    const dataSet = await call(emulator, "GET", `${TYPES}/typedef/name/DataSet`);
    const wrongCategory = await call(emulator, "GET", `${TYPES}/relationshipdef/guid/${dataSet.body.guid}`);
    assert.equal(wrongCategory.status, 404);
  });
});

/**
 * What the service's typedefs carry beyond the contract's required fields (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/recording_should_list_all_available_typedefs_sources.json):
 * all six lists, empty ones included; propagateTags on relationship defs; ownedRef constraints on the
 * container's relationship attributes; businessAttributeDefs on entity defs; the glossary types under
 * `__internal`; serviceType and options kept as defined.
 */
Deno.test("typedefs carry what the service lists: six lists, propagateTags, ownedRef, businessAttributeDefs", async () => {
  await withEmulator({}, async (emulator) => {
    const all = await call(emulator, "GET", `${TYPES}/typedefs?${API_VERSION}`);
    assert.deepEqual(Object.keys(all.body), [
      "enumDefs",
      "structDefs",
      "classificationDefs",
      "entityDefs",
      "relationshipDefs",
      "businessMetadataDefs",
    ]);
    assert.deepEqual(all.body.businessMetadataDefs, [], "listed while empty");
    for (const def of all.body.relationshipDefs) assert.equal(typeof def.propagateTags, "string", def.name);
    for (const def of all.body.entityDefs) assert.deepEqual(def.businessAttributeDefs, {}, def.name);

    const glossary = (await call(emulator, "GET", `${TYPES}/entitydef/name/AtlasGlossary`)).body;
    assert.deepEqual(glossary.superTypes, ["__internal"]);
    assert.equal(glossary.serviceType, "atlas_core");
    const internal = (await call(emulator, "GET", `${TYPES}/entitydef/name/__internal`)).body;
    assert.ok(internal.subTypes.includes("AtlasGlossary"), JSON.stringify(internal.subTypes));

    const columns =
      (await call(emulator, "GET", `${TYPES}/relationshipdef/name/azure_sql_table_columns`)).body;
    assert.equal(columns.propagateTags, "NONE");
    const assignment =
      (await call(emulator, "GET", `${TYPES}/relationshipdef/name/AtlasGlossarySemanticAssignment`)).body;
    assert.equal(assignment.propagateTags, "ONE_TO_TWO");

    const relationAttribute = async (type: string, name: string) =>
      (await call(emulator, "GET", `${TYPES}/entitydef/name/${type}`)).body.relationshipAttributeDefs
        .find((a: { name: string }) => a.name === name);
    assert.deepEqual(await relationAttribute("azure_sql_table", "columns"), {
      name: "columns",
      typeName: "array<azure_sql_column>",
      isOptional: true,
      cardinality: "SET",
      valuesMinCount: -1,
      valuesMaxCount: -1,
      isUnique: false,
      isIndexable: false,
      includeInNotification: false,
      constraints: [{ type: "ownedRef" }],
      relationshipTypeName: "azure_sql_table_columns",
      isLegacyAttribute: true,
    });
    const table = await relationAttribute("azure_sql_column", "table");
    assert.equal(table.isOptional, false, "a composition's child names its container");
    assert.equal(table.constraints, undefined);
    assert.equal((await relationAttribute("azure_sql_table", "meanings")).constraints, undefined);
    // As recorded for AtlasGlossary: its terms and categories are owned.
    for (const name of ["terms", "categories"]) {
      assert.deepEqual((await relationAttribute("AtlasGlossary", name)).constraints, [{ type: "ownedRef" }]);
    }

    // A created definition keeps its serviceType, options and propagateTags; the answer lists all six.
    const created = await call(emulator, "POST", `${TYPES}/typedefs`, {
      entityDefs: [{
        name: "contoso_report",
        superTypes: ["DataSet"],
        serviceType: "Contoso",
        options: { purviewEntityExtDef: '{"isContainer":false}' },
      }],
      relationshipDefs: [{
        name: "contoso_report_sources",
        relationshipCategory: "ASSOCIATION",
        propagateTags: "BOTH",
        endDef1: { type: "contoso_report", name: "sources", cardinality: "SET" },
        endDef2: { type: "DataSet", name: "reports", cardinality: "SET" },
      }],
      businessMetadataDefs: [{
        name: "Reporting",
        attributeDefs: [{
          name: "audience",
          typeName: "string",
          isOptional: true,
          options: { applicableEntityTypes: '["contoso_report"]', maxStrLength: "50" },
        }],
      }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(Object.keys(created.body).sort(), [...FIVE_LISTS, "businessMetadataDefs"].sort());
    const report = created.body.entityDefs[0];
    assert.equal(report.serviceType, "Contoso");
    assert.deepEqual(report.options, { purviewEntityExtDef: '{"isContainer":false}' });
    assert.deepEqual(Object.keys(report.businessAttributeDefs), ["Reporting"]);
    assert.equal(report.businessAttributeDefs.Reporting[0].name, "audience");
    assert.equal(created.body.relationshipDefs[0].propagateTags, "BOTH");
    const dataSet = (await call(emulator, "GET", `${TYPES}/entitydef/name/DataSet`)).body;
    assert.deepEqual(dataSet.businessAttributeDefs, {}, "applies to the named type and its subtypes only");
  });
});
