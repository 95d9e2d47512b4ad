/**
 * `import_entities_from_csv` with `plan: true`, through a real SDK client: the answer counts what would
 * happen and lists the first changed fields (old → new); nothing is written, and an overwrite plan needs
 * no confirmation.
 */
import assert from "node:assert/strict";
import { startHarness } from "../../support/mcp_harness.ts";

Deno.test("import_entities_from_csv plan: counts and the changed fields, nothing written", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-plan-" }));
  const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
  try {
    await harness.catalog.entity.createOrUpdate({
      typeName: "DataSet",
      attributes: { qualifiedName: "ds://plan/orders", name: "Orders" },
    });
    await Deno.writeTextFile(
      `${root}/assets.csv`,
      "path,title\nds://plan/orders,Orders v2\nds://plan/new,New one\n",
    );
    const args = {
      file_path: "assets.csv",
      entity_type: "DataSet",
      column_mapping: { path: "qualifiedName", title: "name" },
      plan: true,
    };
    const writes = () =>
      harness.emulator.faults.stats().log.filter((entry) =>
        entry.method !== "GET" && !entry.path.includes("/search/")
      ).length;
    const before = writes();

    const skipping = await harness.client.callTool({ name: "import_entities_from_csv", arguments: args });
    assert.equal(skipping.isError, undefined, JSON.stringify(skipping.content));
    const skipped = skipping.structuredContent as Record<string, unknown>;
    assert.deepEqual([skipped.wouldCreate, skipped.wouldSkip, skipped.wouldUpdate], [1, 1, 0]);

    const updating = await harness.client.callTool({
      name: "import_entities_from_csv",
      arguments: { ...args, if_exists: "update" },
    });
    assert.equal(updating.isError, undefined, JSON.stringify(updating.content));
    const planned = updating.structuredContent as {
      wouldUpdate: number;
      preview: Array<Record<string, unknown>>;
    };
    assert.equal(planned.wouldUpdate, 1);
    assert.ok(
      planned.preview.some((row) =>
        row.action === "update" && row.field === "name" && row.old === "Orders" && row.new === "Orders v2"
      ),
      JSON.stringify(planned.preview),
    );
    assert.equal(writes(), before, "a plan writes nothing");
    const orders = await harness.catalog.entity.getByUniqueAttribute("DataSet", "ds://plan/orders");
    assert.equal(orders.entity?.attributes?.name, "Orders");
  } finally {
    await harness.close();
    await Deno.remove(root, { recursive: true });
  }
});
