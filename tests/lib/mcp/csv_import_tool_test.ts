/**
 * `import_entities_from_csv` through a real SDK client over streamable HTTP: a mapped import, a dry run,
 * a file with bad rows, and paths outside CATALOG_MCP_FILE_ROOT (including through a symlink) refused.
 */
import assert from "node:assert/strict";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

async function withRoot(test: (root: string, outside: string) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-root-" }));
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-outside-" }));
  try {
    await test(root, outside);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
}

const CSV = [
  "path,title,team,tags",
  "ds://mcp/orders,Orders,sales,pii;finance",
  "ds://mcp/customers,Customers,crm,",
  "ds://mcp/returns,,sales,finance",
].join("\n") + "\n";

Deno.test("import_entities_from_csv: mapped columns become entities; dry run first changes nothing", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(`${root}/assets.csv`, CSV);
    const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const args = {
        file_path: "assets.csv",
        entity_type: "DataSet",
        column_mapping: { path: "qualifiedName", title: "name", team: "owner" },
      };
      const before = harness.emulator.entityCount();
      const plan = await harness.client.callTool({
        name: "import_entities_from_csv",
        arguments: { ...args, dry_run: true },
      });
      assert.equal(plan.isError, undefined, JSON.stringify(plan.content));
      const planned = plan.structuredContent as Record<string, unknown>;
      assert.equal(planned.wouldCreate, 3);
      assert.deepEqual(planned.ignoredColumns, ["tags"]);
      assert.equal(harness.emulator.entityCount(), before);

      const result = await harness.client.callTool({ name: "import_entities_from_csv", arguments: args });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const summary = result.structuredContent as Record<string, unknown>;
      assert.deepEqual([summary.rows, summary.created, summary.rejected], [3, 3, 0]);
      assert.deepEqual(resultJson(result), summary);
      assert.equal(harness.emulator.entityCount(), before + 3);
      const returns = await harness.catalog.entity.getByUniqueAttribute("DataSet", "ds://mcp/returns");
      // No title: the name falls back to the last segment of the qualified name.
      assert.equal(returns.entity?.attributes?.name, "returns");
      assert.equal(returns.entity?.attributes?.owner, "sales");
    } finally {
      await harness.close();
    }
  });
});

Deno.test("import_entities_from_csv: bad rows and bad mappings are refused before anything is sent", async () => {
  await withRoot(async (root) => {
    await Deno.writeTextFile(`${root}/bad.csv`, "path,title\nds://a,A\n,B\nds://a,C\n");
    const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const before = harness.emulator.entityCount();
      const bad = await harness.client.callTool({
        name: "import_entities_from_csv",
        arguments: {
          file_path: "bad.csv",
          entity_type: "DataSet",
          column_mapping: { path: "qualifiedName" },
        },
      });
      assert.equal(bad.isError, true);
      const text = JSON.stringify(bad.content);
      assert.match(text, /bad\.csv:3:1: column path/);
      assert.match(text, /bad\.csv:4:1: .*also on line 2/);
      const unmapped = await harness.client.callTool({
        name: "import_entities_from_csv",
        arguments: { file_path: "bad.csv", entity_type: "DataSet", column_mapping: { title: "name" } },
      });
      assert.equal(unmapped.isError, true);
      assert.match(JSON.stringify(unmapped.content), /qualifiedName/);
      // A target that would reach Object.prototype in the server is refused, and pollutes nothing.
      const hostile = await harness.client.callTool({
        name: "import_entities_from_csv",
        arguments: {
          file_path: "bad.csv",
          entity_type: "DataSet",
          column_mapping: { path: "qualifiedName", title: "bm.__proto__.polluted" },
        },
      });
      assert.equal(hostile.isError, true);
      assert.match(
        String(resultJson(hostile).message),
        /"bm\.__proto__\.polluted", which cannot name an attribute/,
      );
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(harness.emulator.entityCount(), before);
    } finally {
      await harness.close();
    }
  });
});

Deno.test("import_entities_from_csv: files outside CATALOG_MCP_FILE_ROOT are refused, symlinks too", async () => {
  await withRoot(async (root, outside) => {
    await Deno.writeTextFile(`${outside}/secret.csv`, CSV);
    await Deno.symlink(`${outside}/secret.csv`, `${root}/link.csv`);
    const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const before = harness.emulator.entityCount();
      for (
        const file_path of [
          `${outside}/secret.csv`,
          "../" + outside.split("/").pop() + "/secret.csv",
          "link.csv",
        ]
      ) {
        const result = await harness.client.callTool({
          name: "import_entities_from_csv",
          arguments: { file_path, entity_type: "DataSet", column_mapping: { path: "qualifiedName" } },
        });
        assert.equal(result.isError, true, file_path);
        assert.match(JSON.stringify(result.content), /CATALOG_MCP_FILE_ROOT|outside/, file_path);
      }
      assert.equal(harness.emulator.entityCount(), before);
    } finally {
      await harness.close();
    }
  });
});
