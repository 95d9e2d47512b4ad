/**
 * Property tests of the CSV writer and reader (`csvLine`, the tokenizer, `readCsvText`, `readCsvFile`):
 * any rows of cells written with `csvLine` and joined by any line ends read back as the same cells, each
 * on the physical line it starts on, however the text is cut into chunks and wherever a 64 KiB chunk of
 * the file ends, with each field separator (comma, semicolon, tab, pipe) given or detected from a header
 * of column names. Cells hold quotes, every separator, CR, LF, CRLF, byte-order-mark and zero-width
 * characters, lone surrogates (in memory) and any other Unicode. Seeds are fixed (see
 * tests/support/property.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../../../lib/core/errors.ts";
import { unguardCells } from "../../../lib/csv/cell_guard.ts";
import { CSV_DELIMITERS, type CsvDelimiter } from "../../../lib/csv/delimiter.ts";
import { CHUNK_BYTES, csvLine, PIECE_BYTES, readCsvFile, readCsvTextSync } from "../../../lib/csv/reader.ts";
import { CsvTokenizer } from "../../../lib/csv/tokenizer.ts";
import type { CsvRow } from "../../../lib/csv/types.ts";
import { fc, propertyRuns } from "../../support/property.ts";

/** Characters that make CSV hard, mixed into ordinary text. */
const AWKWARD = [
  '"',
  ",",
  ";",
  "|",
  "\r",
  "\n",
  "\r\n",
  "\uFEFF",
  "\u200B",
  "\u200D",
  "\u202E",
  " ",
  "\t",
  "=",
  "'",
  "é",
];

/** A cell: awkward pieces and arbitrary text, never NUL (which the reader refuses by design). */
function cell(unit: "grapheme" | "binary"): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(...AWKWARD),
    fc.string({ unit, maxLength: 6 }),
    // Astral characters: one code point, two UTF-16 units, four UTF-8 bytes.
    fc.constantFrom("😀", "👩‍👩‍👧", "𝔘", "\u{10FFFF}"),
  );
  return fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join("").replaceAll("\0", ""));
}

function rows(unit: "grapheme" | "binary"): fc.Arbitrary<string[][]> {
  return fc.array(fc.array(cell(unit), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 });
}

const delimiter: fc.Arbitrary<CsvDelimiter> = fc.constantFrom(...CSV_DELIMITERS);

/** A header of column names (as templates have: letters, digits, `_`, `.`, spaces), two or more. */
const header: fc.Arbitrary<string[]> = fc.array(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_. ]{0,11}$/),
  { minLength: 2, maxLength: 6 },
);

/** How rows are joined: a line end per row, blank lines now and then, a final line end or not. */
const layout = fc.record({
  ends: fc.array(fc.constantFrom("\n", "\r\n", "\r"), { minLength: 9, maxLength: 9 }),
  blankLines: fc.array(fc.nat({ max: 2 }), { minLength: 9, maxLength: 9 }),
  finalEnd: fc.boolean(),
});

type Layout = { ends: string[]; blankLines: number[]; finalEnd: boolean };

/** Line breaks a reader counts: CRLF, a lone CR and a lone LF each end one line. */
function breaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/**
 * The text of `table` and the rows a reader must give back: blank rows skipped, each row on the line
 * after the line breaks before it (a CR ending one row and an LF ending a blank line after it make one
 * CRLF, as in any reader).
 */
function writeTable(
  table: string[][],
  how: Layout,
  separator: CsvDelimiter = ",",
): { text: string; expected: CsvRow[] } {
  let text = "";
  const expected: CsvRow[] = [];
  table.forEach((cells, i) => {
    const end = how.ends[i % how.ends.length];
    // Blank lines before the row: they are skipped without shifting later line numbers.
    text += end.repeat(how.blankLines[i % how.blankLines.length]);
    // A row whose cells are all white space is skipped by design (spreadsheets write them as `,,,`).
    if (cells.some((c) => c.trim() !== "")) expected.push({ line: 1 + breaks(text), cells });
    text += csvLine(cells, separator);
    if (i < table.length - 1 || how.finalEnd) text += end;
  });
  return { text, expected };
}

function tokenizeInPieces(text: string, cuts: number[], separator?: CsvDelimiter): CsvRow[] {
  const tokenizer = new CsvTokenizer("pieces.csv", { delimiter: separator });
  const out: CsvRow[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    out.push(...tokenizer.feed(text.slice(start, cut)));
    start = cut;
  }
  out.push(...tokenizer.feed(text.slice(start)), ...tokenizer.end());
  // The tokenizer gives cells as written; the reader takes off the guard csvLine puts on formula cells.
  for (const row of out) unguardCells(row.cells);
  return out;
}

Deno.test("property: csvLine rows read back as the same cells on the lines they start on", () => {
  fc.assert(
    fc.property(rows("binary"), layout, delimiter, (table, how, separator) => {
      const { text, expected } = writeTable(table, how, separator);
      assert.deepEqual([...readCsvTextSync(text, "round.csv", { delimiter: separator })], expected);
    }),
    propertyRuns(500),
  );
});

Deno.test("property: the separator is detected from a header of column names, whatever the rows hold", () => {
  fc.assert(
    fc.property(
      header,
      rows("binary"),
      layout,
      delimiter,
      fc.array(fc.nat(), { maxLength: 12 }),
      (names, table, how, separator, cuts) => {
        const { text, expected } = writeTable([names, ...table], how, separator);
        const found: CsvDelimiter[] = [];
        const read = [...readCsvTextSync(text, "detect.csv", { onDelimiter: (d) => found.push(d) })];
        assert.deepEqual(read, expected);
        assert.deepEqual(found, [separator]);
        // Fed in pieces, the header line may end in any of them.
        assert.deepEqual(tokenizeInPieces(text, cuts), expected);
      },
    ),
    propertyRuns(500),
  );
});

Deno.test("property: a byte-order mark in front of the text changes nothing", () => {
  fc.assert(
    fc.property(rows("grapheme"), layout, delimiter, (table, how, separator) => {
      const { text, expected } = writeTable(table, how, separator);
      assert.deepEqual([...readCsvTextSync(`\uFEFF${text}`, "bom.csv", { delimiter: separator })], expected);
    }),
    propertyRuns(200),
  );
});

Deno.test("property: cutting the text into chunks anywhere gives the same rows", () => {
  fc.assert(
    fc.property(
      rows("binary"),
      layout,
      delimiter,
      fc.array(fc.nat(), { maxLength: 12 }),
      (table, how, separator, cuts) => {
        const { text, expected } = writeTable(table, how, separator);
        assert.deepEqual(tokenizeInPieces(text, cuts, separator), expected);
      },
    ),
    propertyRuns(500),
  );
});

Deno.test("property: a NUL anywhere is refused with the line it is on", () => {
  fc.assert(
    fc.property(rows("grapheme"), layout, fc.nat(), (table, how, at) => {
      const { text } = writeTable(table, how);
      const position = at % (text.length + 1);
      const poisoned = text.slice(0, position) + "\0" + text.slice(position);
      const line = 1 + breaks(text.slice(0, position));
      assert.throws(
        () => [...readCsvTextSync(poisoned, "nul.csv")],
        (error: unknown) =>
          error instanceof UsageError && error.message.startsWith(`nul.csv:${line}: a NUL character`),
      );
    }),
    propertyRuns(300),
  );
});

/**
 * Reads generated tables from files whose first row of `x` padding puts the generated rows across the
 * boundary `boundary` bytes in, at a different byte each run, so multi-byte characters and CRLF pairs get
 * split between reads there. That first row is the header, of two columns, so its separator (any of
 * them) is detected there too, the header line ending on either side of the boundary.
 */
async function assertReadsAcross(boundary: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-csv-property-" });
  try {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        rows("grapheme"),
        layout,
        fc.nat({ max: 96 }),
        delimiter,
        async (table, how, shift, d) => {
          const pad = ["x".repeat(boundary - 48 + shift), "y"];
          const { text, expected } = writeTable([pad, ...table], how, d);
          const path = join(dir, `rows-${run++}.csv`);
          await Deno.writeTextFile(path, text);
          const read: CsvRow[] = [];
          for await (const row of readCsvFile(path, { displayName: "file.csv" })) read.push(row);
          assert.deepEqual(read, expected);
          await Deno.remove(path);
        },
      ),
      propertyRuns(60),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("property: a file reads like the text, wherever its 64 KiB chunks end", async () => {
  await assertReadsAcross(CHUNK_BYTES);
});

Deno.test("property: a file reads like the text, wherever the pieces decoded within a chunk end", async () => {
  // The end of the first piece, which is inside the first chunk.
  await assertReadsAcross(PIECE_BYTES);
});

Deno.test("regression: a first cell starting with U+FEFF is quoted, so it is not read as a byte-order mark", () => {
  const text = [csvLine(["\uFEFFname", "x"]), csvLine(["a", "b"])].join("\n");
  assert.equal(text.slice(0, 2), '"\uFEFF');
  assert.deepEqual([...readCsvTextSync(text, "bom-cell.csv")].map((row) => row.cells), [
    ["\uFEFFname", "x"],
    ["a", "b"],
  ]);
});
