/**
 * The field separator: `--delimiter` values (names, characters, auto) and the detection from the header
 * line — the most frequent candidate outside quotes, a comma on a tie or none, blank and separator-only
 * lines before the header passed over, the text fed in pieces.
 */
import assert from "node:assert/strict";
import {
  type CsvDelimiter,
  delimiterOption,
  DelimiterSniffer,
  describeDelimiter,
} from "../../../lib/csv/delimiter.ts";
import { UsageError } from "../../../lib/core/errors.ts";

/** The separator of `text`, fed whole or in the given pieces; `best()` settles an unfinished line. */
function sniff(...pieces: string[]): CsvDelimiter {
  const sniffer = new DelimiterSniffer();
  for (const piece of pieces) {
    const found = sniffer.scan(piece);
    if (found !== undefined) return found;
  }
  return sniffer.best();
}

Deno.test("--delimiter takes names, characters and auto, in any case; anything else is refused with the choices", () => {
  assert.equal(delimiterOption(undefined), undefined);
  assert.equal(delimiterOption("auto"), undefined);
  assert.equal(delimiterOption(" AUTO "), undefined);
  assert.equal(delimiterOption("comma"), ",");
  assert.equal(delimiterOption(","), ",");
  assert.equal(delimiterOption("Semicolon"), ";");
  assert.equal(delimiterOption(";"), ";");
  assert.equal(delimiterOption("tab"), "\t");
  assert.equal(delimiterOption("\t"), "\t");
  assert.equal(delimiterOption("\\t"), "\t");
  assert.equal(delimiterOption("pipe"), "|");
  assert.equal(delimiterOption("|"), "|");
  assert.throws(
    () => delimiterOption(":"),
    (error: unknown) =>
      error instanceof UsageError &&
      error.message === '--delimiter: ":" is not a field separator govcat reads.' &&
      /comma, semicolon, tab or pipe .* or auto/.test(error.hint ?? ""),
  );
});

Deno.test("the separator is the candidate the header line holds most often outside quotes", () => {
  assert.equal(sniff("name,description\nSales;Revenue;x\n"), ",");
  assert.equal(sniff("name;description\nSales,Revenue,x\n"), ";");
  assert.equal(sniff("name\tdescription\r\n"), "\t");
  assert.equal(sniff("name|description|status\n"), "|");
  // A column name holding another candidate does not win over the separator.
  assert.equal(sniff("name;description, long;status\n"), ";");
  // Quoted names hold anything.
  assert.equal(sniff('"a,b,c";"d,e";f\n'), ";");
  assert.equal(sniff('"line\nbreak";x\n'), ";");
  assert.equal(sniff('"say ""a,b"", ok";x\n'), ";");
  // A tie, or no candidate at all (one column): a comma.
  assert.equal(sniff("a,b;c\n"), ",");
  assert.equal(sniff("name\nSales;x\n"), ",");
  assert.equal(sniff(""), ",");
});

Deno.test("blank lines and lines of separators only before the header are passed over", () => {
  assert.equal(sniff("\n\r\n  \nname;status\n"), ";");
  assert.equal(sniff(",,,\nname;status\n"), ";");
  assert.equal(sniff(";;\r\nname,status\n"), ",");
});

Deno.test("the header line may come in pieces, cut anywhere; an unfinished line is settled by best()", () => {
  const text = 'na"me";"de;sc"\tx;y\n';
  for (let cut = 0; cut <= text.length; cut++) {
    assert.equal(sniff(text.slice(0, cut), text.slice(cut)), ";", `cut at ${cut}`);
  }
  const sniffer = new DelimiterSniffer();
  assert.equal(sniffer.scan("name|status"), undefined, "the line has not ended");
  assert.equal(sniffer.best(), "|");
});

Deno.test("how a file was read, for messages", () => {
  assert.equal(describeDelimiter(";", true), "semicolons (;) between fields, detected from the header");
  assert.equal(describeDelimiter("\t", false), "tabs between fields, as --delimiter says");
  assert.equal(describeDelimiter(",", true), "commas (,) between fields, detected from the header");
});
