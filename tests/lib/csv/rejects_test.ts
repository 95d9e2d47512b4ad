/**
 * The reject file: the input's header and rejected rows as they were, plus source_line and import_error;
 * the added columns of an earlier reject file kept once; nothing left behind when it cannot be written.
 */
import assert from "node:assert/strict";
import { defaultSidePath, writeRejectFile } from "../../../lib/csv/rejects.ts";

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
