/**
 * Choosing a file's template from its header (the imports that take several templates): the header is read
 * with the separator given or detected; a header that fits none names the closest template, the columns it
 * misses and how the header was read.
 */
import assert from "node:assert/strict";
import { chooseTemplate, readCsvHeader, readHeader } from "../../../lib/templates/template_choice.ts";
import { UsageError } from "../../../lib/core/errors.ts";

const ENTITY = ["entity-bulk-import", "entity-dataset", "entity-classified", "entity-table"];

async function withFile<T>(content: string, body: (path: string) => Promise<T>): Promise<T> {
  const path = await Deno.makeTempFile({ prefix: "govcat_choice_", suffix: ".csv" });
  try {
    await Deno.writeTextFile(path, content);
    return await body(path);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("the header is read with its separator, detected or given", async () => {
  await withFile("\r\nname\towner_email\r\nx\ty\r\n", async (path) => {
    assert.deepEqual(await readCsvHeader(path, "t.csv"), {
      cells: ["name", "owner_email"],
      delimiter: "\t",
      detected: true,
    });
    assert.deepEqual(await readHeader(path, "t.csv", { delimiter: "," }), ["name\towner_email"]);
    assert.equal((await chooseTemplate(path, "t.csv", undefined, ENTITY)).name, "entity-dataset");
  });
  await withFile("", async (path) => {
    assert.equal(await readCsvHeader(path, "e.csv"), undefined);
    await assert.rejects(readHeader(path, "e.csv"), /e\.csv is empty: a header line and at least one row/);
  });
});

Deno.test("a header that fits no template names the closest one, the column it misses, and how it was read", async () => {
  await withFile("name;typeName;description\r\norders;azure_sql_table;x\r\n", async (path) => {
    await assert.rejects(
      chooseTemplate(path, "tables.csv", undefined, ENTITY),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message ===
          "tables.csv:1: the header (name, typeName, description) matches none of the templates " +
            `${ENTITY.join(", ")}. The closest is entity-table, which needs the column qualifiedName. The ` +
            "header was read with semicolons (;) between fields, detected from the header." &&
        /Add the missing columns, or name the template with --template \(`govcat templates show entity-table`/
          .test(error.hint ?? ""),
    );
    // Named, the template is taken as it is: the check lists what the file lacks.
    assert.equal((await chooseTemplate(path, "tables.csv", "entity-table", ENTITY)).name, "entity-table");
  });
});
