/**
 * A write tool's default call never overwrites what exists. For every tool listed
 * with `destructiveHint: false` (an additive tool), and for the create tools that overwrite only when told
 * to (`if_exists: "update"`), the table below writes over an existing target with the tool's default
 * arguments and checks that the stored values did not change (or that the call was refused). A write tool
 * missing from the table fails the test, so a new one cannot skip the check.
 */
import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const CUSTOMERS_GUID = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDER_TOTAL_COLUMN = "ca7a1000-0000-4000-8000-000000000023";

type Call = { isError?: boolean; data: Record<string, unknown>; json: Record<string, unknown> };

async function call(h: Harness, name: string, args: Record<string, unknown>): Promise<Call> {
  const result = await h.client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    data: (result.structuredContent ?? {}) as Record<string, unknown>,
    json: resultJson(result),
  };
}

function ok(result: Call, what: string): Record<string, unknown> {
  assert.ok(!result.isError, `${what}: ${JSON.stringify(result.json)}`);
  return result.data;
}

interface Case {
  /** Makes the target and returns a reader of the values that must not change. */
  arrange(h: Harness, root: string): Promise<() => Promise<unknown>>;
  /** The tool's default call over the existing target. */
  overwrite(h: Harness): Promise<Call>;
  /** Tools that must refuse (rather than leave things alone and succeed). */
  refuses?: boolean;
}

const describe = (h: Harness, qualifiedName: string) => async () =>
  (await h.catalog.entity.getByUniqueAttribute("DataSet", qualifiedName)).entity.attributes;

const CASES: Record<string, Case> = {
  create_entity: {
    refuses: true,
    arrange: async (h) => {
      ok(
        await call(h, "create_entity", {
          type_name: "DataSet",
          qualified_name: "ds://safe/one",
          name: "one",
          description: "original",
        }),
        "arrange create_entity",
      );
      return describe(h, "ds://safe/one");
    },
    overwrite: (h) =>
      call(h, "create_entity", {
        type_name: "DataSet",
        qualified_name: "ds://safe/one",
        name: "renamed",
        description: "replaced",
      }),
  },
  batch_create_entities: {
    arrange: async (h) => {
      await h.catalog.entity.createOrUpdate({
        entity: {
          typeName: "DataSet",
          attributes: { qualifiedName: "ds://safe/batch", name: "batch", description: "original" },
        },
      });
      return describe(h, "ds://safe/batch");
    },
    overwrite: async (h) => {
      const result = await call(h, "batch_create_entities", {
        entities: [
          { type_name: "DataSet", qualified_name: "ds://safe/batch", name: "b", description: "replaced" },
          { type_name: "DataSet", qualified_name: "ds://safe/batch-new", name: "new" },
        ],
        detail: "full",
      });
      const data = ok(result, "batch_create_entities");
      const results = data.results as Array<{ status: string; error?: string }>;
      assert.deepEqual(results.map((r) => r.status), ["failed", "created"], JSON.stringify(results));
      assert.match(String(results[0].error), /exists already/);
      return result;
    },
  },
  import_entities_from_csv: {
    arrange: async (h, root) => {
      await h.catalog.entity.createOrUpdate({
        entity: {
          typeName: "DataSet",
          attributes: { qualifiedName: "ds://safe/csv", name: "csv", description: "original" },
        },
      });
      await Deno.writeTextFile(
        `${root}/safe.csv`,
        "qualifiedName,name,description\nds://safe/csv,csv2,replaced\nds://safe/csv-new,new,fresh\n",
      );
      return describe(h, "ds://safe/csv");
    },
    overwrite: async (h) => {
      const result = await call(h, "import_entities_from_csv", {
        file_path: "safe.csv",
        entity_type: "DataSet",
      });
      const data = ok(result, "import_entities_from_csv");
      assert.deepEqual([data.created, data.updated, data.skipped], [1, 0, 1]);
      return result;
    },
  },
  create_collection: {
    refuses: true,
    arrange: (h) => Promise.resolve(() => h.catalog.collections.get("finance")),
    overwrite: (h) =>
      call(h, "create_collection", {
        collection_name: "finance",
        parent_collection: "sales",
        description: "replaced",
      }),
  },
  create_glossary_term: {
    arrange: async (h) => {
      const made = ok(
        await call(h, "create_glossary_term", { name: "Safe Term", definition: "original" }),
        "arrange create_glossary_term",
      );
      return () => h.catalog.glossary.getTerm(String(made.guid));
    },
    overwrite: (h) => call(h, "create_glossary_term", { name: "Safe Term", definition: "replaced" }),
  },
  assign_term_to_entities: {
    arrange: async (h) => {
      const first = ok(await call(h, "create_glossary_term", { name: "Assigned A" }), "term A");
      ok(
        await call(h, "assign_term_to_entities", { term_guid: first.guid, entity_guids: [CUSTOMERS_GUID] }),
        "assign A",
      );
      return async () => {
        const { entity } = await h.catalog.entity.get(CUSTOMERS_GUID);
        const meanings = (entity.relationshipAttributes?.meanings ?? []) as Array<{ guid?: string }>;
        return meanings.some((m) => m.guid === first.guid) ? "A kept" : "A lost";
      };
    },
    overwrite: async (h) => {
      const second = ok(await call(h, "create_glossary_term", { name: "Assigned B" }), "term B");
      return call(h, "assign_term_to_entities", { term_guid: second.guid, entity_guids: [CUSTOMERS_GUID] });
    },
  },
  uc_create_domain: {
    arrange: async (h) => {
      const made = ok(
        await call(h, "uc_create_domain", { name: "Safe Domain", description: "original" }),
        "arrange uc_create_domain",
      );
      const id = String(made.id);
      return () => call(h, "uc_get_domain", { domain_id: id }).then((r) => r.data);
    },
    overwrite: (h) => call(h, "uc_create_domain", { name: "Safe Domain", description: "replaced" }),
  },
  uc_create_term: {
    arrange: async (h) => {
      const domain = ok(await call(h, "uc_create_domain", { name: "Term Domain" }), "domain");
      const domainId = String(domain.id);
      const made = ok(
        await call(h, "uc_create_term", {
          name: "Safe UC Term",
          domain_id: domainId,
          description: "original",
        }),
        "arrange uc_create_term",
      );
      const id = String(made.id);
      ucDomain = domainId;
      return () => call(h, "uc_get_term", { term_id: id }).then((r) => r.data);
    },
    overwrite: (h) =>
      call(h, "uc_create_term", { name: "Safe UC Term", domain_id: ucDomain, description: "replaced" }),
  },
  create_lineage: {
    refuses: true,
    arrange: async (h) => {
      const made = ok(
        await call(h, "create_lineage", { ...LINEAGE, description: "original" }),
        "arrange create_lineage",
      );
      return async () => (await h.catalog.entity.get(String(made.process_guid))).entity.attributes;
    },
    overwrite: (h) => call(h, "create_lineage", { ...LINEAGE, description: "replaced" }),
  },
  create_relationship: {
    arrange: async (h) => {
      const made = ok(
        await call(h, "create_relationship", {
          type_name: "azure_sql_table_columns",
          end1_guid: ORDERS,
          end2_guid: ORDER_TOTAL_COLUMN,
        }),
        "arrange create_relationship",
      );
      return () => h.catalog.relationships.get(String(made.guid));
    },
    overwrite: (h) =>
      call(h, "create_relationship", {
        type_name: "azure_sql_table_columns",
        end1_guid: ORDERS,
        end2_guid: ORDER_TOTAL_COLUMN,
        attributes: { description: "replaced" },
      }),
  },
};

let ucDomain = "";

const LINEAGE = { source_guids: [CUSTOMERS_GUID], target_guids: [ORDERS], process_name: "p_safe" };

Deno.test("every non-destructive write tool leaves existing values unchanged with its default arguments", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-safe-writes-" }));
  const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    const { tools } = await h.client.listTools();
    const additive = tools.filter((t) => !t.annotations?.readOnlyHint && !t.annotations?.destructiveHint)
      .map((t) => t.name);
    const listing = tools.find((t) => t.name === "list_available_operations")!.annotations!;
    assert.equal(listing.openWorldHint, false, "the operation list is the server's own: a closed world");
    const covered = new Set(Object.keys(CASES));
    assert.deepEqual(additive.filter((name) => !covered.has(name)), [], "every additive tool has a case");
    for (
      const name of [
        "create_entity",
        "batch_create_entities",
        "import_entities_from_csv",
        "create_collection",
        "create_lineage",
      ]
    ) {
      const annotations = tools.find((t) => t.name === name)!.annotations!;
      assert.equal(annotations.destructiveHint, true, `${name} may overwrite (if_exists "update")`);
      const properties = tools.find((t) => t.name === name)!.inputSchema.properties as Record<
        string,
        unknown
      >;
      assert.ok("if_exists" in properties && "confirm" in properties, name);
    }
    for (const [name, test] of Object.entries(CASES)) {
      const read = await test.arrange(h, root);
      const before = await read();
      const result = await test.overwrite(h);
      if (test.refuses) {
        assert.equal(result.isError, true, `${name} refuses: ${JSON.stringify(result.json)}`);
        assert.match(String(result.json.message), /exists already.*nothing was changed/, name);
      }
      assert.deepEqual(await read(), before, `${name} left the existing values unchanged`);
    }
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test('if_exists "update" overwrites only with "confirm": true', async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-safe-update-" }));
  const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    const base = { type_name: "DataSet", qualified_name: "ds://safe/upd", name: "upd" };
    ok(await call(h, "create_entity", { ...base, description: "original" }), "create");
    const unconfirmed = await call(h, "create_entity", { ...base, description: "new", if_exists: "update" });
    assert.equal(unconfirmed.isError, true);
    assert.match(String(unconfirmed.json.message), /destructive/);
    ok(
      await call(h, "create_entity", { ...base, description: "new", if_exists: "update", confirm: true }),
      "upd",
    );
    assert.equal((await describe(h, "ds://safe/upd")())?.description, "new");

    const moved = await call(h, "create_collection", {
      collection_name: "finance",
      parent_collection: "sales",
      if_exists: "update",
      confirm: true,
    });
    ok(moved, "move finance");
    assert.equal((await h.catalog.collections.get("finance")).parentCollection?.referenceName, "sales");

    const batch = { entities: [{ ...base, description: "batch" }], if_exists: "update" };
    assert.equal((await call(h, "batch_create_entities", batch)).isError, true, "unconfirmed");
    const updated = ok(await call(h, "batch_create_entities", { ...batch, confirm: true }), "batch update");
    assert.equal(updated.updated, 1);
    assert.equal((await describe(h, "ds://safe/upd")())?.description, "batch");

    await Deno.writeTextFile(`${root}/upd.csv`, "qualifiedName,name,description\nds://safe/upd,upd,csv\n");
    const csv = { file_path: "upd.csv", entity_type: "DataSet", if_exists: "update" };
    assert.equal((await call(h, "import_entities_from_csv", csv)).isError, true, "unconfirmed");
    const planned = ok(await call(h, "import_entities_from_csv", { ...csv, dry_run: true }), "a dry run");
    assert.equal(planned.wouldUpdate, 1, "a dry run needs no confirmation");
    const imported = ok(await call(h, "import_entities_from_csv", { ...csv, confirm: true }), "csv update");
    assert.equal(imported.updated, 1);
    assert.equal((await describe(h, "ds://safe/upd")())?.description, "csv");
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("entity.create and collections.create through invoke_operation: refused over an existing target", async () => {
  const h = await startHarness();
  try {
    // The default listing is an index; each category's listing holds its operations' annotations.
    const operations: Array<Record<string, unknown>> = [];
    for (const category of ["entity", "collections"]) {
      const listing = ok(await call(h, "list_available_operations", { category }), category);
      operations.push(
        ...(listing.categories as Array<{ operations: Array<Record<string, unknown>> }>).flatMap((c) =>
          c.operations
        ),
      );
    }
    for (const id of ["entity.create", "collections.create"]) {
      const op = operations.find((o) => o.name === id)!;
      assert.equal(
        (op.annotations as { destructiveHint: boolean }).destructiveHint,
        true,
        `${id}: --if-exists=update may overwrite`,
      );
    }

    const entity = { typeName: "DataSet", qualifiedName: "ds://safe/op", name: "op" };
    ok(
      await call(h, "invoke_operation", {
        operation: "entity.create",
        arguments: { ...entity, description: "original" },
      }),
      "entity.create on a new name",
    );
    const before = await describe(h, "ds://safe/op")();
    const again = await call(h, "invoke_operation", {
      operation: "entity.create",
      arguments: { ...entity, description: "replaced" },
    });
    assert.equal(again.isError, true);
    assert.match(String(again.json.message), /exists already .*nothing was changed/);
    const unconfirmed = await call(h, "invoke_operation", {
      operation: "entity.create",
      arguments: { ...entity, description: "replaced", ifExists: "update" },
    });
    assert.equal(unconfirmed.isError, true);
    assert.match(String(unconfirmed.json.message), /destructive/);
    assert.deepEqual(await describe(h, "ds://safe/op")(), before, "entity.create left it unchanged");
    ok(
      await call(h, "invoke_operation", {
        operation: "entity.create",
        arguments: { ...entity, description: "replaced", ifExists: "update", confirm: true },
      }),
      "confirmed update",
    );
    assert.equal((await describe(h, "ds://safe/op")())?.description, "replaced");

    // Setting an attribute replaces its value: destructive, so refused without "confirm": true.
    for (const id of ["entity.update-attribute", "entity.update-by-unique-attribute"]) {
      const op = operations.find((o) => o.name === id)!;
      assert.equal((op.annotations as { destructiveHint: boolean }).destructiveHint, true, id);
    }
    const guid = String((await h.catalog.entity.getByUniqueAttribute("DataSet", "ds://safe/op")).entity.guid);
    const attribute = await call(h, "invoke_operation", {
      operation: "entity.update-attribute",
      arguments: { guid, attrName: "description", attrValue: "gone" },
    });
    assert.equal(attribute.isError, true);
    assert.match(String(attribute.json.message), /destructive/);
    const byUnique = await call(h, "invoke_operation", {
      operation: "entity.update-by-unique-attribute",
      arguments: { typeName: "DataSet", qualifiedName: "ds://safe/op", attributes: { description: "gone" } },
    });
    assert.equal(byUnique.isError, true);
    assert.equal((await describe(h, "ds://safe/op")())?.description, "replaced", "both left it unchanged");

    const finance = await h.catalog.collections.get("finance");
    const moved = await call(h, "invoke_operation", {
      operation: "collections.create",
      arguments: { collectionName: "finance", parentCollection: "sales", description: "replaced" },
    });
    assert.equal(moved.isError, true);
    assert.match(String(moved.json.message), /exists already .*nothing was changed/);
    assert.deepEqual(await h.catalog.collections.get("finance"), finance, "collections.create moved nothing");
  } finally {
    await h.close();
  }
});

Deno.test("lineage.create through invoke_operation: an existing process is left alone unless --if-exists=update, confirmed", async () => {
  const h = await startHarness();
  try {
    const listing = ok(await call(h, "list_available_operations", { category: "lineage" }), "lineage");
    const operation = (listing.categories as Array<{ operations: Array<Record<string, unknown>> }>)
      .flatMap((c) => c.operations).find((o) => o.name === "lineage.create")!;
    assert.equal((operation.annotations as { destructiveHint: boolean }).destructiveHint, true);

    const lineage = { sourceGuid: [CUSTOMERS_GUID], targetGuid: [ORDERS], processName: "p_op" };
    const made = ok(
      await call(h, "invoke_operation", {
        operation: "lineage.create",
        arguments: { ...lineage, description: "original" },
      }),
      "lineage.create on a new process",
    );
    const guid = String((made.result as { processGuid: string }).processGuid);
    const description = async () => (await h.catalog.entity.get(guid)).entity.attributes?.description;
    const again = await call(h, "invoke_operation", {
      operation: "lineage.create",
      arguments: { ...lineage, description: "replaced" },
    });
    assert.equal(again.isError, true);
    assert.match(String(again.json.message), /exists already .*nothing was changed/);
    const unconfirmed = await call(h, "invoke_operation", {
      operation: "lineage.create",
      arguments: { ...lineage, description: "replaced", ifExists: "update" },
    });
    assert.match(String(unconfirmed.json.message), /destructive/);
    assert.equal(await description(), "original", "neither call changed it");
    const updated = ok(
      await call(h, "invoke_operation", {
        operation: "lineage.create",
        arguments: { ...lineage, description: "replaced", ifExists: "update", confirm: true },
      }),
      "confirmed update",
    );
    assert.equal((updated.result as { created: boolean }).created, false);
    assert.equal(await description(), "replaced");
  } finally {
    await h.close();
  }
});
