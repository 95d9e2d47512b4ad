import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { UsageError } from "../../../lib/core/errors.ts";
import { parseCsv } from "../../../lib/deps/csv.ts";
import {
  CHUNK_BYTES,
  csvLine,
  fileFingerprint,
  readCsvFile,
  readCsvText,
  readCsvTextSync,
} from "../../../lib/csv/reader.ts";
import { CsvTokenizer } from "../../../lib/csv/tokenizer.ts";
import type { CsvRow } from "../../../lib/csv/types.ts";

/** Writes `content` to a fresh temporary CSV file, runs `body` with its path, then removes it. */
async function withFile<T>(content: string | Uint8Array, body: (path: string) => Promise<T>): Promise<T> {
  const path = await Deno.makeTempFile({ prefix: "govcat_reader_", suffix: ".csv" });
  try {
    await Deno.writeFile(path, typeof content === "string" ? new TextEncoder().encode(content) : content);
    return await body(path);
  } finally {
    await Deno.remove(path);
  }
}

async function rowsOf(path: string, options: Parameters<typeof readCsvFile>[1] = {}): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of readCsvFile(path, options)) rows.push(row);
  return rows;
}

const bytes = (...parts: Array<string | number[]>) => {
  const chunks = parts.map((part) =>
    typeof part === "string" ? new TextEncoder().encode(part) : new Uint8Array(part)
  );
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
};

/** The UsageError `promise` rejects with. */
async function usageError(promise: Promise<unknown>): Promise<UsageError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    return error;
  }
  assert.fail("expected a UsageError");
}

Deno.test("reads the header first, then each row with the line it starts on", async () => {
  const rows = await withFile("name,status\nSales,Draft\nFinance,Approved\n", rowsOf);
  assert.deepEqual(rows, [
    { line: 1, cells: ["name", "status"] },
    { line: 2, cells: ["Sales", "Draft"] },
    { line: 3, cells: ["Finance", "Approved"] },
  ]);
});

Deno.test("a byte-order mark and CRLF line ends are handled; the last line needs no line end", async () => {
  const rows = await withFile(
    bytes([0xef, 0xbb, 0xbf], "name,status\r\nSales,Draft\r\nFinance,Approved"),
    rowsOf,
  );
  assert.deepEqual(rows[0].cells, ["name", "status"], "the BOM is not part of the first header name");
  assert.deepEqual(rows.map((row) => row.line), [1, 2, 3]);
  assert.deepEqual(rows[2].cells, ["Finance", "Approved"]);
});

Deno.test("quoted line breaks stay in the cell and later rows keep their true line numbers", async () => {
  const text =
    'name,notes\r\nA,"first\r\nsecond\r\nthird"\r\nB,"x\ny"\r\nC,"a, ""quoted"" word"\r\nD,plain\r\n';
  const rows = await withFile(text, rowsOf);
  assert.deepEqual(rows, [
    { line: 1, cells: ["name", "notes"] },
    { line: 2, cells: ["A", "first\r\nsecond\r\nthird"] },
    { line: 5, cells: ["B", "x\ny"] },
    { line: 7, cells: ["C", 'a, "quoted" word'] },
    { line: 8, cells: ["D", "plain"] },
  ]);
});

Deno.test("a lone CR ends a line too, and mixed line ends count one line each", async () => {
  const rows = await withFile('a,b\r1,2\n3,"x\ry"\r\n4,5', rowsOf);
  assert.deepEqual(rows.map((row) => [row.line, row.cells]), [
    [1, ["a", "b"]],
    [2, ["1", "2"]],
    [3, ["3", "x\ry"]],
    [5, ["4", "5"]],
  ]);
});

Deno.test("empty lines and rows of empty cells are skipped without shifting line numbers", async () => {
  const rows = await withFile("name,status\n\n,\nSales,Draft\n \t, \r\n\nFinance,\n,,\n", rowsOf);
  assert.deepEqual(rows, [
    { line: 1, cells: ["name", "status"] },
    { line: 4, cells: ["Sales", "Draft"] },
    { line: 7, cells: ["Finance", ""] },
  ]);
});

Deno.test("ragged rows and trailing commas are read as they are (checking is the checker's job)", async () => {
  const rows = await withFile("a,b,c\n1,2\n1,2,3,4\n1,2,\n", rowsOf);
  assert.deepEqual(rows.slice(1).map((row) => row.cells), [["1", "2"], ["1", "2", "3", "4"], ["1", "2", ""]]);
});

Deno.test("an empty file has no rows; a header-only file has one", async () => {
  assert.deepEqual(await withFile("", rowsOf), []);
  assert.deepEqual(await withFile(bytes([0xef, 0xbb, 0xbf]), rowsOf), []);
  assert.deepEqual(await withFile("\r\n\r\n", rowsOf), []);
  assert.deepEqual(await withFile("name,status\r\n", rowsOf), [{ line: 1, cells: ["name", "status"] }]);
});

Deno.test("a quote that is never closed is reported where it opens, with how to fix it", async () => {
  const error = await usageError(
    withFile(
      'name,notes\nA,ok\nB,"never closed\nC,x\nD,y\n',
      (path) => rowsOf(path, { displayName: "t.csv" }),
    ),
  );
  assert.match(
    error.message,
    /^t\.csv:3:2: unbalanced quote: the quoted field that starts here is never closed/,
  );
  assert.match(error.hint ?? "", /written twice/);
});

Deno.test("a quote inside an unquoted field and text after a closing quote are errors with line and field", async () => {
  let error = await usageError(
    withFile('a,b\n1,2\n3,5" pipe\n', (path) => rowsOf(path, { displayName: "t.csv" })),
  );
  assert.match(
    error.message,
    /^t\.csv:3:2: unbalanced quote: a double quote inside a field that is not enclosed/,
  );
  assert.match(error.message, /after "5"/);

  error = await usageError(withFile('a,b\n1,"x"y\n', (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(
    error.message,
    /^t\.csv:2:2: unbalanced quote: the quoted field "x" is closed by a double quote but "y"/,
  );

  error = await usageError(withFile('a,b\n1, "x"\n', (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(error.message, /^t\.csv:2:2:/);
  assert.match(error.hint ?? "", /Remove the spaces between the comma and the opening quote/);
});

Deno.test("rows before a syntax error are yielded first: nothing is guessed past it", async () => {
  await withFile('a\n1\n2\n"3\n', async (path) => {
    const seen: number[] = [];
    await assert.rejects(async () => {
      for await (const row of readCsvFile(path)) seen.push(row.line);
    }, UsageError);
    assert.deepEqual(seen, [1, 2, 3]);
  });
});

Deno.test("invalid UTF-8 is reported with the line of the bad byte and its offset", async () => {
  // "café" saved as Windows-1252: é is the single byte 0xE9.
  const error = await usageError(
    withFile(
      bytes("name,notes\nA,ok\n", 'B,"multi\nline"\nC,caf', [0xe9], "\nD,x\n"),
      (path) => rowsOf(path, { displayName: "t.csv" }),
    ),
  );
  assert.match(error.message, /^t\.csv:5: not valid UTF-8: byte 0xE9 at byte offset 36\b/);
  assert.match(error.hint ?? "", /UTF-8/);
});

Deno.test("a bad byte after the first chunk is placed right, and characters split across chunks are fine", async () => {
  // Line 2 holds 'é' (2 bytes) straddling the first chunk boundary.
  const filler = "x".repeat(CHUNK_BYTES - "h\n".length - 1);
  const good = bytes("h\n", filler, "é\n", "ok\n");
  const rows = await withFile(good, rowsOf);
  assert.deepEqual(rows.map((row) => row.line), [1, 2, 3]);
  assert.equal(rows[1].cells[0], `${filler}é`);

  const bad = bytes("h\n", filler, "é\n", "ok\n", "x".repeat(1000), [0xff], "\n");
  const error = await usageError(withFile(bad, (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(
    error.message,
    new RegExp(`^t\\.csv:4: not valid UTF-8: byte 0xFF at byte offset ${good.length + 1000}`),
  );

  const truncated = bytes("h\nabc", [0xe2, 0x82]);
  const cut = await usageError(withFile(truncated, (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(cut.message, /^t\.csv:2: not valid UTF-8: the file ends in the middle of a character/);
});

Deno.test("UTF-16 files and NUL bytes are refused as not CSV text", async () => {
  const utf16 = await usageError(withFile(bytes([0xff, 0xfe], [0x61, 0, 0x0a, 0]), (path) => rowsOf(path)));
  assert.match(utf16.message, /:1: the file is UTF-16 encoded/);
  const nul = await usageError(
    withFile(bytes("a,b\n1,2\n3,", [0], "\n"), (path) => rowsOf(path, { displayName: "n.csv" })),
  );
  assert.match(nul.message, /^n\.csv:3: a NUL character/);
});

Deno.test("a missing file, a directory and an aborted read are reported clearly", async () => {
  const missing = await usageError(rowsOf("/nonexistent/govcat/terms.csv", { displayName: "terms.csv" }));
  assert.equal(missing.message, "terms.csv: no such file.");
  const dir = await Deno.makeTempDir({ prefix: "govcat_reader_" });
  try {
    const error = await usageError(rowsOf(dir, { displayName: "folder" }));
    assert.match(error.message, /^folder is a directory/);
  } finally {
    await Deno.remove(dir);
  }
  const controller = new AbortController();
  controller.abort(new DOMException("stop", "AbortError"));
  await withFile("a\n1\n", async (path) => {
    await assert.rejects(
      rowsOf(path, { signal: controller.signal }),
      (error: Error) => error.name === "AbortError",
    );
  });
});

Deno.test("reading reports bytes read and hands each chunk over for hashing", async () => {
  const content = "h\n" + "row\n".repeat(40_000);
  await withFile(content, async (path) => {
    const progress: number[] = [];
    const hash = createHash("sha256");
    const rows = await rowsOf(path, {
      onBytes: (n) => progress.push(n),
      onChunk: (chunk) => hash.update(chunk),
    });
    assert.equal(rows.length, 40_001);
    assert.ok(progress.length >= 2, "a 160 KB file is read in several chunks");
    assert.equal(progress.at(-1), content.length);
    assert.ok(progress.every((n, i) => i === 0 || n > progress[i - 1]));
    assert.equal(hash.digest("hex"), createHash("sha256").update(content).digest("hex"));
    assert.deepEqual(await fileFingerprint(path), {
      sha256: createHash("sha256").update(content).digest("hex"),
      size: content.length,
    });
  });
});

Deno.test("text in memory reads like a file, BOM included", async () => {
  const text = '\uFEFFname,notes\r\nA,"x\r\ny"\r\nB,z\r\n';
  const fromText: CsvRow[] = [];
  for await (const row of readCsvText(text, "mem.csv")) fromText.push(row);
  assert.deepEqual(fromText, await withFile(text, rowsOf));
  assert.deepEqual([...readCsvTextSync(text, "mem.csv")], fromText);
  assert.deepEqual(fromText[0].cells, ["name", "notes"]);
  assert.throws(
    () => [...readCsvTextSync('a\n"b\n', "mem.csv")],
    /^UsageError: mem\.csv:2:1: unbalanced quote/,
  );
});

Deno.test("csvLine quotes what needs quoting and reads back to the same cells", () => {
  const cells = ["plain", "a,b", 'say "hi"', "two\r\nlines", "", " padded ", "=SUM(A1)"];
  const line = csvLine(cells);
  assert.equal(line, 'plain,"a,b","say ""hi""","two\r\nlines",, padded ,\'=SUM(A1)', "a formula gets a '");
  assert.deepEqual([...readCsvTextSync(`${line}\r\n`, "x")][0].cells, cells);
  assert.equal(csvLine([""]), '""', "a lone empty cell is not written as an empty line");
  assert.deepEqual([...readCsvTextSync(`h\n${csvLine([""])}\n`, "x")].length, 1, "…yet reads as a blank row");
});

Deno.test("cells agree with csv-parse on tricky inputs (rows of empty cells skipped by both)", async () => {
  const inputs = [
    'a,b\n"x,y",z\n',
    'a,"b\nc",d\r\ne,f,g\r\n',
    '"",""\n"""",x\n',
    "a,b,\n,,c\n",
    'x\n"multi\n\nline"\n',
    "é,ü\n日本,語\n",
    '"a""b""c",d\n',
  ];
  for (const input of inputs) {
    const expected = await new Promise<string[][]>((resolve, reject) =>
      parseCsv(
        input,
        { relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true },
        (error: Error | undefined, records: unknown) =>
          error ? reject(error) : resolve(records as string[][]),
      )
    );
    assert.deepEqual(
      [...readCsvTextSync(input, "x")].map((row) => row.cells),
      expected,
      JSON.stringify(input),
    );
  }
});

Deno.test("feeding a character at a time gives the same rows as feeding everything at once", () => {
  // A fixed pseudo-random generator, so failures repeat.
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  // The other separators too: the header's separator is detected the same whatever the pieces.
  const alphabet = ["a", "b", ",", ";", "\t", "|", '"', '""', "\n", "\r\n", "\r", " ", "é"];
  for (let round = 0; round < 3000; round++) {
    let text = "";
    const length = 1 + Math.floor(random() * 25);
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    const run = (pieces: string[]) => {
      try {
        const tokenizer = new CsvTokenizer("x");
        const rows = pieces.flatMap((piece) => tokenizer.feed(piece));
        return [...rows, ...tokenizer.end()];
      } catch (error) {
        return (error as Error).message;
      }
    };
    assert.deepEqual(run([...text]), run([text]), JSON.stringify(text));
  }
});

Deno.test("a record that never ends (an unclosed quote in a large file) is stopped at a size limit", () => {
  const tokenizer = new CsvTokenizer("big.csv", { maxRecordChars: 1000 });
  tokenizer.feed('name,notes\nA,"open\n');
  assert.throws(
    () => {
      for (let i = 0; i < 100; i++) tokenizer.feed("more text in the same field\n");
    },
    /^UsageError: big\.csv:2:2: unbalanced quote: the quoted field that starts here is never closed \(it is still open after \d+ characters, up to line \d+\)/,
  );
});

Deno.test("the separator is detected from the header line: semicolons, tabs and pipes read like commas", async () => {
  for (const separator of [",", ";", "\t", "|"]) {
    const text = [
      `name${separator}tags${separator}notes`,
      `Sales${separator}"a;b|c"${separator}"x${separator}y"`,
      "",
      `Finance${separator}${separator}"two\nlines"`,
      `Ops${separator}z${separator}"a ""quote"""`,
    ].join("\r\n");
    const found: Array<[string, boolean]> = [];
    const rows = await withFile(
      text,
      (path) => rowsOf(path, { onDelimiter: (d, detected) => found.push([d, detected]) }),
    );
    assert.deepEqual(found, [[separator, true]], JSON.stringify(separator));
    assert.deepEqual(rows, [
      { line: 1, cells: ["name", "tags", "notes"] },
      { line: 2, cells: ["Sales", "a;b|c", `x${separator}y`] },
      { line: 4, cells: ["Finance", "", "two\nlines"] },
      { line: 6, cells: ["Ops", "z", 'a "quote"'] },
    ]);
  }
});

Deno.test("a separator given is used as it is, whatever the header holds", async () => {
  const found: Array<[string, boolean]> = [];
  const rows = await withFile(
    "a;b,c\n1;2,3\n",
    (path) => rowsOf(path, { delimiter: ";", onDelimiter: (d, detected) => found.push([d, detected]) }),
  );
  assert.deepEqual(found, [[";", false]]);
  assert.deepEqual(rows.map((row) => row.cells), [["a", "b,c"], ["1", "2,3"]]);
  assert.deepEqual([...readCsvTextSync("a;b,c\n1;2,3\n", "t.csv", { delimiter: "," })].map((r) => r.cells), [
    ["a;b", "c"],
    ["1;2", "3"],
  ]);
});

Deno.test("errors while the header is held for detection are placed where they are", async () => {
  // Blank lines before the header count; the bad byte is on the header line.
  const utf8 = await usageError(
    withFile(bytes("\n\nna", [0xe9], "me;x\n"), (path) => rowsOf(path, { displayName: "t.csv" })),
  );
  assert.match(utf8.message, /^t\.csv:3: not valid UTF-8: byte 0xE9 at byte offset 4\b/);
  const nul = await usageError(
    withFile(bytes("\nname;", [0], "x\n"), (path) => rowsOf(path, { displayName: "n.csv" })),
  );
  assert.match(nul.message, /^n\.csv:2: a NUL character/);
  // A header line that never ends is stopped at the record limit, not held without bound.
  const tokenizer = new CsvTokenizer("long.csv", { maxRecordChars: 1000 });
  assert.throws(
    () => {
      for (let i = 0; i < 100; i++) tokenizer.feed("x".repeat(50));
    },
    /^UsageError: long\.csv:1: the row starting here is longer than 1000 characters/,
  );
});

Deno.test("syntax errors of a file with another separator speak of that separator", async () => {
  let error = await usageError(withFile('a;b\n1;"x"y\n', (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(
    error.message,
    /^t\.csv:2:2: .* but "y" follows it instead of a semicolon or the end of the line\./,
  );
  assert.match(error.hint ?? "", /a field that holds a semicolon, a double quote or a line break/);
  error = await usageError(withFile('a;b\n1; "x"\n', (path) => rowsOf(path, { displayName: "t.csv" })));
  assert.match(
    error.hint ?? "",
    /Remove the spaces between the semicolon and the opening quote \(write a;"b" rather than a; "b"\)/,
  );
});

Deno.test("csvLine writes with the separator asked for, quoting the cells that hold it", () => {
  assert.equal(csvLine(["a;b", "c,d", "e"], ";"), '"a;b";c,d;e');
  assert.equal(csvLine(["a\tb", "c;d"], "\t"), '"a\tb"\tc;d');
  assert.equal(csvLine(["a|b", "c"], "|"), '"a|b"|c');
  assert.equal(csvLine(["a;b", "c"]), "a;b,c");
});
