/**
 * Writing a local file is a change: every operation with an output, report, reject or checkpoint
 * file argument says so, and none that always writes one is read-only. A new operation with such an
 * argument fails here until it is annotated.
 */
import assert from "node:assert/strict";
import { inputFields } from "../../../lib/operations/fields.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { callIsReadOnly } from "../../../lib/operations/types.ts";

/** Arguments naming a file the operation writes. */
const OUTPUT_FIELDS = /^(outputFile|reportFile|errorsFile|checkpointFile)$/;

Deno.test("every operation that writes a local file says so, and only one that writes none on request is read-only", () => {
  const registry = createOperationRegistry();
  const writers: string[] = [];
  for (const operation of registry.all()) {
    const fields = inputFields(operation.input);
    const outputs = fields.filter((field) => OUTPUT_FIELDS.test(field.name));
    const declared = operation.annotations.writesLocalFile ?? [];
    for (const field of declared) {
      assert.ok(fields.some((f) => f.name === field), `${operation.id}: writesLocalFile names ${field}`);
    }
    if (outputs.length === 0 && declared.length === 0) continue;
    writers.push(operation.id);
    // Reject files and checkpoints belong to imports, which change the catalog anyway.
    const imports = outputs.every((field) => field.name === "errorsFile" || field.name === "checkpointFile");
    if (imports) {
      assert.equal(
        operation.annotations.readOnly,
        false,
        `${operation.id} writes reject files and checkpoints`,
      );
      continue;
    }
    for (const field of outputs) {
      assert.ok(declared.includes(field.name), `${operation.id}: ${field.name} is in writesLocalFile`);
    }
    if (operation.annotations.readOnly) {
      // Read-only only without its file arguments, which must then be optional.
      for (const field of declared) {
        assert.equal(fields.find((f) => f.name === field)?.required, false, `${operation.id}: ${field}`);
      }
      assert.equal(callIsReadOnly(operation.annotations, {}), true);
      assert.equal(callIsReadOnly(operation.annotations, { [declared[0]]: "x" }), false, operation.id);
    }
    // An existing file is replaced only when the call says so.
    assert.ok(
      fields.some((field) => field.name === "overwrite") || declared.length === 0,
      `${operation.id} takes overwrite`,
    );
  }
  for (const id of ["collections.export", "validate.csv", "templates.write", "lineage_csv.generate_sample"]) {
    assert.ok(writers.includes(id), id);
  }
  assert.equal(registry.get("collections.export")!.annotations.readOnly, false);
});
