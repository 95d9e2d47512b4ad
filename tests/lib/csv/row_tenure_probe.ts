/**
 * The heap cost of rows once V8 has seen many of them outlive young collections: `row_tenure_probe.ts`
 * tokenizes and checks rows while keeping every one alive (as a batch held through a collection would),
 * lets them go, then tokenizes and checks many more as an import's check pass does, dropping each at once.
 * It prints `{ "warmUpPeakMB": …, "passPeakMB": … }`: the largest heap V8 held during the warm-up, and
 * during the pass. Rows whose allocation site V8 had decided to place straight in the old generation make
 * the pass's peak climb far above the warm-up's (see `lib/csv/fresh.ts`); made without one, it stays.
 *
 * @module
 */
import v8 from "node:v8";
import { checkRow } from "../../../lib/csv/binding.ts";
import { bindHeader } from "../../../lib/csv/header_binding.ts";
import { templateNamed } from "../../../lib/templates/template_choice.ts";
import { CsvTokenizer } from "../../../lib/csv/tokenizer.ts";

const WARM_UP_PIECES = 800;
const PASS_PIECES = 6000;
const ROWS_A_PIECE = 120;

const template = templateNamed("entity-bulk-import", ["entity-bulk-import"]);
const piece = (first: number) => {
  let text = "";
  for (let i = first; i < first + ROWS_A_PIECE; i++) {
    text += `DataSet,ds://bulk/${i},Set ${i},"Row ${i}, described",team-${i % 7},\n`;
  }
  return text;
};
let peak = 0;
/** The largest old generation (bytes V8 holds for objects that outlived young collections) so far, in MB. */
const peakMB = () => {
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space")!;
  peak = Math.max(peak, old.space_size);
  return Math.round(peak / 1024 / 1024);
};

const tokenizer = new CsvTokenizer("probe.csv");
const [header] = tokenizer.feed("typeName,qualifiedName,displayName,description,attr.owner,attr.colour\n");
const { binding } = bindHeader(template, header, "probe.csv", ",");
let kept: unknown[] = [];
for (let k = 0; k < WARM_UP_PIECES; k++) {
  for (const row of tokenizer.feed(piece(k * ROWS_A_PIECE))) kept.push(row, checkRow(binding, row).row);
  peakMB();
}
kept = [];
const warmUpPeakMB = peakMB();
for (let k = 0; k < PASS_PIECES; k++) {
  for (const row of tokenizer.feed(piece(k * ROWS_A_PIECE))) checkRow(binding, row);
  peakMB();
}
console.log(JSON.stringify({ warmUpPeakMB, passPeakMB: peakMB() }));
