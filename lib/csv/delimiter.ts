/**
 * The field separator of a CSV file: a comma, or a semicolon (what spreadsheets write where the decimal mark
 * is a comma), a tab or a pipe. Given with `--delimiter`, or detected from the header line: the candidate
 * found most often outside quotes there wins, a comma on a tie or when there is none (a one-column header).
 * Blank lines before the header, and lines holding nothing but separators, are passed over.
 *
 * @example
 * ```ts
 * import { DelimiterSniffer, delimiterOption, describeDelimiter } from "./delimiter.ts";
 * const sniffer = new DelimiterSniffer();
 * sniffer.scan("name;description\nSales;Revenue\n"); // ";"
 * delimiterOption("tab"); // "\t"
 * describeDelimiter(";", true); // "semicolons (;) between fields, detected from the header"
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";

/** A field separator govcat reads. */
export type CsvDelimiter = "," | ";" | "\t" | "|";

/** Every separator, in the order a tie is settled. */
export const CSV_DELIMITERS: readonly CsvDelimiter[] = [",", ";", "\t", "|"];

const NAMES: Readonly<Record<CsvDelimiter, string>> = {
  ",": "comma",
  ";": "semicolon",
  "\t": "tab",
  "|": "pipe",
};

/** The values `--delimiter` takes, for help texts. */
export const DELIMITER_OPTION_HELP = "comma, semicolon, tab or pipe (or the character itself: , ; |), or " +
  "auto (the default): detected from the header line";

/** The separator's name: `comma`, `semicolon`, `tab`, `pipe`. */
export function delimiterName(delimiter: CsvDelimiter): string {
  return NAMES[delimiter];
}

/** The separator as a message shows it: `semicolons (;)`, `tabs`. */
function plural(delimiter: CsvDelimiter): string {
  return delimiter === "\t" ? "tabs" : `${NAMES[delimiter]}s (${delimiter})`;
}

/**
 * How a file was read, for messages: `semicolons (;) between fields, detected from the header`, or
 * `…, as --delimiter says`.
 */
export function describeDelimiter(delimiter: CsvDelimiter, detected: boolean): string {
  return `${plural(delimiter)} between fields, ${
    detected ? "detected from the header" : "as --delimiter says"
  }`;
}

/** The value of a `--delimiter` option; undefined for `auto` or nothing (detect it). */
export function delimiterOption(value: string | undefined, option = "--delimiter"): CsvDelimiter | undefined {
  if (value === undefined) return undefined;
  // A tab is kept as it is: trimming would take it away.
  const text = value === "\t" ? value : value.trim().toLowerCase();
  if (text === "" || text === "auto") return undefined;
  if (text === "\\t") return "\t";
  for (const delimiter of CSV_DELIMITERS) {
    if (text === delimiter || text === NAMES[delimiter]) return delimiter;
  }
  throw new UsageError(
    `${option}: ${JSON.stringify(value)} is not a field separator govcat reads.`,
    `Use ${DELIMITER_OPTION_HELP}.`,
  );
}

const QUOTE = 34, CR = 13, LF = 10, SPACE = 32;
const CODES = CSV_DELIMITERS.map((delimiter) => delimiter.charCodeAt(0));

/**
 * Finds the separator in the first line of a file, fed in pieces: {@link DelimiterSniffer.scan} returns it
 * once the header line is complete (undefined until then), {@link DelimiterSniffer.best} settles it from
 * what was seen when the text ends before that. Keeps counts only, never the text.
 */
export class DelimiterSniffer {
  readonly #counts = [0, 0, 0, 0];
  #quoted = false;
  /** The last character was the start of a line or a candidate separator: a quote here opens a field. */
  #fieldStart = true;
  /** The line so far holds something other than white space and separators. */
  #content = false;

  /** Scans more of the text; returns the separator once the header line has ended. */
  scan(text: string): CsvDelimiter | undefined {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#quoted) {
        // A doubled quote closes and opens again: the same as staying inside.
        if (c === QUOTE) this.#quoted = false;
        continue;
      }
      if (c === CR || c === LF) {
        if (this.#content) return this.best();
        // A blank line, or one of separators only (`,,,`): the header is further down.
        this.#counts.fill(0);
        this.#fieldStart = true;
        continue;
      }
      const candidate = CODES.indexOf(c);
      if (candidate >= 0) {
        this.#counts[candidate]++;
        this.#fieldStart = true;
        continue;
      }
      if (c === QUOTE && this.#fieldStart) {
        this.#quoted = true;
        this.#content = true;
        continue;
      }
      if (c > SPACE) this.#content = true;
      this.#fieldStart = false;
    }
    return undefined;
  }

  /** The separator seen most often outside quotes on the line so far; a comma on a tie or when none was. */
  best(): CsvDelimiter {
    let best = 0;
    for (let i = 1; i < CODES.length; i++) if (this.#counts[i] > this.#counts[best]) best = i;
    return CSV_DELIMITERS[best];
  }
}
