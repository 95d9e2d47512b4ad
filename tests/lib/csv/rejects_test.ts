/**
 * The reject file: the input's header and rejected rows as they were, plus source_line and import_error;
 * the added columns of an earlier reject file kept once; nothing left behind when it cannot be written.
 */
import assert from "node:assert/strict";
import { defaultSidePath, writeRejectFile } from "../../../lib/csv/rejects.ts";
import { LocalFileError } from "../../../lib/files/user_files.ts";

async function withDir(test: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "govcat-rejects-" });
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("defaultSidePath replaces the extension, or appends when there is none", () => {
  assert.equal(defaultSidePath("/data/terms.csv", ".rejected.csv"), "/data/terms.rejected.csv");
  assert.equal(defaultSidePath("/data.d/terms", ".rejected.csv"), "/data.d/terms.rejected.csv");
});

Deno.test("writeRejectFile keeps the rejected rows as they were, with their line and reason", async () => {
  await withDir(async (dir) => {
    const input = `${dir}/in.csv`;
    await Deno.writeTextFile(input, 'name,note\r\na,"x, y"\r\nb,"two\r\nlines"\r\nc,z\r\n');
    const target = `${dir}/in.rejected.csv`;
    const written = await writeRejectFile(input, target, new Map([[3, "400: bad b"], [5, "404: no c"]]));
    assert.equal(written, 2);
    assert.equal(
      await Deno.readTextFile(target),
      'name,note,source_line,import_error\r\nb,"two\r\nlines",3,400: bad b\r\nc,z,5,404: no c\r\n',
    );
    // Written again from that file, the added columns appear once, with the new line numbers.
    const again = `${dir}/again.csv`;
    await writeRejectFile(target, again, new Map([[2, "409: still bad"]]));
    assert.equal(
      await Deno.readTextFile(again),
      'name,note,source_line,import_error\r\nb,"two\r\nlines",2,409: still bad\r\n',
    );
  });
});

Deno.test("writeRejectFile leaves nothing behind when the input cannot be read", async () => {
  await withDir(async (dir) => {
    await assert.rejects(writeRejectFile(`${dir}/missing.csv`, `${dir}/out.csv`, new Map([[2, "x"]])));
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  });
});

/** A directory with an input and an earlier reject file, made before the test that may not write there. */
const readOnlyDir = Deno.makeTempDirSync({ prefix: "govcat-rejects-readonly-" });
Deno.writeTextFileSync(`${readOnlyDir}/in.csv`, "name\r\na\r\n");
Deno.writeTextFileSync(`${readOnlyDir}/in.rejected.csv`, "earlier\r\n");

Deno.test({
  name: "a reject file that cannot be written is a LocalFileError naming it, the earlier one kept",
  // The directory is read-only to this test (Deno's permissions: the same refusal as a read-only mount).
  permissions: { read: true, write: false },
  fn: async () => {
    const target = `${readOnlyDir}/in.rejected.csv`;
    const error = await writeRejectFile(`${readOnlyDir}/in.csv`, target, new Map([[2, "400: bad"]])).then(
      () => assert.fail("written"),
      (e) => e,
    );
    assert.ok(error instanceof LocalFileError, String(error));
    assert.equal(error.path, target);
    assert.equal(error.exitCode, 1);
    assert.ok(
      error.message.startsWith(
        `could not write the reject file ${target} (1 rejected row): permission denied`,
      ),
      error.message,
    );
    assert.match(error.hint ?? "", /--errors-file.*--resume/s);
    assert.equal(await Deno.readTextFile(target), "earlier\r\n");
  },
});

Deno.test("(clean-up of the read-only reject file test)", async () => {
  await Deno.remove(readOnlyDir, { recursive: true });
});
