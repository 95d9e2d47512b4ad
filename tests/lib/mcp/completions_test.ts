/**
 * MCP completions: `completion/complete` offers catalog names for the prompts'
 * arguments (entity types, business metadata, collections, glossaries, domains) and the resource
 * templates' variables (type definitions, templates): the names starting with the typed prefix in any
 * letter case, at most 100, with total and hasMore. A real SDK client over streamable HTTP against the
 * seeded emulator.
 */
import assert from "node:assert/strict";
import { allTemplateNames } from "../../../lib/operations/template_operations.ts";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";

type Ref = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

async function complete(harness: Harness, ref: Ref, name: string, value: string) {
  const { completion } = await harness.client.complete({ ref, argument: { name, value } });
  return completion;
}

const prompt = (name: string): Ref => ({ type: "ref/prompt", name });
const template = (uri: string): Ref => ({ type: "ref/resource", uri });

Deno.test("completions: declared; entity type and type definition names by prefix", async () => {
  const harness = await startHarness();
  try {
    assert.deepEqual(harness.client.getServerCapabilities()?.completions, {});
    const types = await complete(harness, prompt("register_asset"), "type_name", "AZURE_SQL_T");
    assert.deepEqual(types.values, ["azure_sql_table"]);
    assert.equal(types.total, 1);
    assert.equal(types.hasMore, false);
    const sql = await complete(harness, prompt("explore_asset"), "type_name", "azure_sql_");
    assert.ok(
      sql.values.length > 2 && sql.values.every((v) => v.startsWith("azure_sql_")),
      sql.values.join(),
    );
    assert.deepEqual(sql.values, [...sql.values].sort((a, b) => a.localeCompare(b)));

    // Every type definition for the resource template.
    const all = await complete(harness, template("govcat://typedefs/{name}"), "name", "");
    assert.ok((all.total ?? 0) > sql.values.length && all.values.length === all.total, JSON.stringify(all));
    // Entity types only for a prompt's type_name: a classification is not one.
    const classification =
      (await complete(harness, template("govcat://typedefs/{name}"), "name", "MICROSOFT."))
        .values[0];
    assert.ok(classification, "the emulator has MICROSOFT.* classifications");
    assert.deepEqual(
      (await complete(harness, prompt("register_asset"), "type_name", classification)).values,
      [],
    );
  } finally {
    await harness.close();
  }
});

Deno.test("completions: collection, glossary, domain and business metadata names from the catalog", async () => {
  const harness = await startHarness();
  try {
    for (const name of ["finance", "finance-eu", "sales", "refinance"]) {
      await harness.catalog.collections.createOrUpdate(name, {
        parentCollection: { referenceName: "emulator" },
      });
    }
    const collections = await complete(harness, prompt("register_asset"), "collection", "Fin");
    assert.deepEqual(collections.values, ["finance", "finance-eu"]);
    assert.equal(collections.total, 2);

    for (const name of ["Sales glossary", "Finance glossary", "Sales terms", "Presales glossary"]) {
      await harness.catalog.glossary.create({ name, qualifiedName: name });
    }
    const glossaries = await complete(harness, prompt("register_asset"), "glossary_name", "sales");
    assert.deepEqual(glossaries.values, ["Sales glossary", "Sales terms"]);

    for (const name of ["Marketing", "Manufacturing", "Legal"]) {
      const created = await harness.client.callTool({ name: "uc_create_domain", arguments: { name } });
      assert.ok(!created.isError, JSON.stringify(created));
    }
    const domains = await complete(harness, prompt("create_domain_term"), "domain_name", "ma");
    assert.deepEqual(domains.values, ["Manufacturing", "Marketing"]);

    await harness.catalog.types.create({
      businessMetadataDefs: [{ name: "DataQuality", attributeDefs: [] }, {
        name: "DataOwnership",
        attributeDefs: [],
      }],
    });
    const definitions = await complete(
      harness,
      prompt("cleanup_metadata_definition"),
      "definition_name",
      "data",
    );
    // Beside the seed's DataStewardship.
    assert.deepEqual(definitions.values, ["DataOwnership", "DataQuality", "DataStewardship"]);

    const templates = await complete(harness, template("govcat://templates/{name}"), "name", "lineage-");
    assert.deepEqual(templates.values, allTemplateNames().filter((n) => n.startsWith("lineage-")).sort());
    assert.ok(templates.values.length > 0);
  } finally {
    await harness.close();
  }
});

Deno.test("completions: at most 100 values, with total and hasMore", async () => {
  const harness = await startHarness();
  try {
    const names = Array.from({ length: 130 }, (_, i) => `bulk-${String(i).padStart(3, "0")}`);
    for (const name of names) {
      await harness.catalog.collections.createOrUpdate(name, {
        parentCollection: { referenceName: "emulator" },
      });
    }
    const page = await complete(harness, prompt("register_asset"), "collection", "BULK-");
    assert.deepEqual(page.values, names.slice(0, 100));
    assert.equal(page.total, 130);
    assert.equal(page.hasMore, true);
    const narrow = await complete(harness, prompt("register_asset"), "collection", "bulk-12");
    assert.deepEqual(narrow.values, names.slice(120, 130));
    assert.equal(narrow.hasMore, false);
  } finally {
    await harness.close();
  }
});

Deno.test("completions: free-text and GUID arguments offer nothing; unknown references are -32602", async () => {
  const harness = await startHarness();
  try {
    assert.deepEqual((await complete(harness, prompt("explore_asset"), "query", "cu")).values, []);
    assert.deepEqual((await complete(harness, template("govcat://entity/{guid}"), "guid", "ca")).values, []);
    for (
      const [ref, name] of [
        [prompt("no_such_prompt"), "x"],
        [prompt("explore_asset"), "colour"],
        [template("govcat://nothing/{x}"), "x"],
      ] as Array<[Ref, string]>
    ) {
      await assert.rejects(complete(harness, ref, name, ""), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602, error.message);
        return true;
      });
    }
  } finally {
    await harness.close();
  }
});
