/**
 * An incremental RFC 4180 tokenizer: text goes in chunk by chunk, records come out with the physical line
 * they start on. It is strict: a quote inside an unquoted field, text after a closing quote, a quoted
 * field that never closes and a NUL character are errors naming the line (and field), never repaired.
 *
 * It exists instead of csv-parse's stream because line numbers are the point of the bulk CSV engine's
 * messages, and csv-parse 7.0.3 counts a CRLF inside a quoted field as two lines, reports an unclosed
 * quote at the end of the file rather than where the quote opened, and lets such a field grow without
 * bound. Here CRLF, LF and a lone CR each end one line, wherever they are.
 *
 * Fields are separated by commas, or by the separator given; without one, the separator is detected from
 * the header line (`delimiter.ts`): the text is held until that line is complete, then read as usual.
 *
 * @example
 * ```ts
 * import { CsvTokenizer } from "./tokenizer.ts";
 * const tokenizer = new CsvTokenizer("terms.csv");
 * const rows = tokenizer.feed('name,notes\r\nA,"two\r\nlines"\r\nB,x');
 * rows.push(...tokenizer.end());
 * console.log(rows.map((row) => row.line)); // [1, 2, 4]
 * ```
 *
 * @module
 */
import { UsageError } from "../core/errors.ts";
import { type CsvDelimiter, delimiterName, DelimiterSniffer, describeDelimiter } from "./delimiter.ts";
import { emptyArray, rowOf } from "./fresh.ts";
import { visible } from "./problems.ts";
import type { CsvRow } from "./types.ts";

const QUOTE = 34, CR = 13, LF = 10;
/** The separator is not known yet: it is detected from the header line. */
const UNKNOWN = -1;
/** Between fields: nothing of the next field read yet. */
const START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: it closes the field unless another quote follows. */
const AFTER_QUOTE = 3;

/** Records longer than this are refused: in practice an unclosed quote swallowing the rest of the file. */
export const MAX_RECORD_CHARS = 8 * 1024 * 1024;

/** How quoting works in CSV, for every syntax error. */
export const QUOTING_HINT = quotingHint(",");

/** {@link QUOTING_HINT} for a file whose fields `delimiter` separates. */
export function quotingHint(delimiter: CsvDelimiter): string {
  return `In CSV a field that holds a ${delimiterName(delimiter)}, a double quote or a line break must be ` +
    `enclosed in double quotes, and each double quote inside it written twice: "say ""hi""${
      delimiter === "\t" ? "" : delimiter
    } then go".`;
}

/** A piece of text for a message: quoted, cut when long, invisible characters escaped. */
function excerpt(text: string, max = 40): string {
  return visible(JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text));
}

/**
 * True when none of the first `count` cells holds anything but white space (spreadsheets write such rows
 * as `,,,`).
 */
function blank(cells: string[], count: number): boolean {
  for (let i = 0; i < count; i++) {
    const cell = cells[i];
    if (cell.length > 0 && cell.trim() !== "") return false;
  }
  return true;
}

/** Splits CSV text into records; feed chunks in order, then call {@link CsvTokenizer.end}. */
export class CsvTokenizer {
  readonly #file: string;
  readonly #maxRecordChars: number;
  /** Character code of the separator, or {@link UNKNOWN} until the header line has been seen. */
  #delimiter: number;
  readonly #detected: boolean;
  #sniffer: DelimiterSniffer | undefined;
  /** Text held while the separator is detected (the header line, and blank lines before it). */
  #pending = "";
  /** Line of the next character. */
  #line = 1;
  /** The last character fed was a CR, so an LF starting the next chunk ends no further line. */
  #prevCR = false;
  #state = START;
  #field = "";
  /**
   * The cells of the record being read, the first `#count` of this array: reused from record to record,
   * each record's cells copied out at their exact number (no array grown a cell at a time).
   */
  #cells: string[] = [];
  #count = 0;
  #inRecord = false;
  #recordLine = 0;
  #quoteLine = 0;
  #quoteField = 0;

  /** `delimiter` separates fields; without it, the separator is detected from the header line. */
  constructor(file: string, options: { maxRecordChars?: number; delimiter?: CsvDelimiter } = {}) {
    this.#file = file;
    this.#maxRecordChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
    this.#detected = options.delimiter === undefined;
    this.#delimiter = options.delimiter === undefined ? UNKNOWN : options.delimiter.charCodeAt(0);
    if (this.#detected) this.#sniffer = new DelimiterSniffer();
  }

  /** The separator: the one given, or the one detected once the header line was read (undefined before). */
  get delimiter(): CsvDelimiter | undefined {
    return this.#delimiter === UNKNOWN ? undefined : String.fromCharCode(this.#delimiter) as CsvDelimiter;
  }

  /** True when the separator is detected rather than given. */
  get detected(): boolean {
    return this.#detected;
  }

  /** The line reached after `text` were fed, without feeding it (to place decoding errors). */
  lineAfter(text: string): number {
    // Held text has not moved the line on yet.
    if (this.#pending !== "") text = this.#pending + text;
    let line = this.#line;
    let prevCR = this.#prevCR;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === CR || (c === LF && !prevCR)) line++;
      prevCR = c === CR;
    }
    return line;
  }

  /** Tokenizes a chunk; returns the records it completed (blank ones left out). */
  feed(text: string): CsvRow[] {
    if (this.#delimiter === UNKNOWN) {
      this.#pending += text;
      const found = this.#sniffer!.scan(text);
      // A header line longer than a record may be is refused by the size check, a NUL at once.
      if (found === undefined && this.#pending.length <= this.#maxRecordChars && !text.includes("\0")) {
        return [];
      }
      return this.#release(found ?? this.#sniffer!.best());
    }
    return this.#tokenize(text);
  }

  /** Settles the separator and tokenizes the text held until then. */
  #release(delimiter: CsvDelimiter): CsvRow[] {
    this.#delimiter = delimiter.charCodeAt(0);
    this.#sniffer = undefined;
    const text = this.#pending;
    this.#pending = "";
    return this.#tokenize(text);
  }

  #tokenize(text: string): CsvRow[] {
    const nul = text.indexOf("\0");
    if (nul >= 0) {
      throw new UsageError(
        `${this.#file}:${this.lineAfter(text.slice(0, nul))}: a NUL character: this is not a text CSV file ` +
          "(UTF-16 files and spreadsheets in binary formats have them).",
        'Save the file as CSV with UTF-8 encoding (in Excel: "CSV UTF-8 (Comma delimited)").',
      );
    }
    const rows = emptyArray<CsvRow>();
    const n = text.length;
    const delimiter = this.#delimiter;
    // No character above both the separator and the quote means anything to an unquoted field.
    const above = delimiter > QUOTE ? delimiter : QUOTE;
    let state = this.#state;
    let line = this.#line;
    let field = this.#field;
    const cells = this.#cells;
    let count = this.#count;
    let segment = 0;
    let prevCR = this.#prevCR;
    const endRecord = () => {
      if (!blank(cells, count)) rows.push(rowOf(this.#recordLine, cells.slice(0, count)));
      count = 0;
      this.#inRecord = false;
    };
    const beginRecord = () => {
      if (!this.#inRecord) {
        this.#inRecord = true;
        this.#recordLine = line;
      }
    };
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (state === QUOTED) {
        if (c === QUOTE) {
          field += text.slice(segment, i);
          state = AFTER_QUOTE;
        } else if (c === CR) line++;
        else if (c === LF && !(i > 0 ? text.charCodeAt(i - 1) === CR : prevCR)) line++;
        continue;
      }
      if (state === UNQUOTED) {
        // Most characters are text: one comparison passes over them (letters, for a comma file).
        if (c > above) continue;
        if (c === delimiter) {
          cells[count++] = field + text.slice(segment, i);
          field = "";
          state = START;
        } else if (c === CR || c === LF) {
          cells[count++] = field + text.slice(segment, i);
          field = "";
          state = START;
          endRecord();
          line++;
        } else if (c === QUOTE) {
          this.#line = line;
          throw this.#strayQuote(field + text.slice(segment, i), count + 1);
        }
        continue;
      }
      if (state === AFTER_QUOTE) {
        if (c === QUOTE) {
          // A doubled quote: the second one is text, so the next segment starts with it.
          segment = i;
          state = QUOTED;
        } else if (c === delimiter) {
          cells[count++] = field;
          field = "";
          state = START;
        } else if (c === CR || c === LF) {
          cells[count++] = field;
          field = "";
          state = START;
          endRecord();
          line++;
        } else {
          throw new UsageError(
            `${this.#file}:${line}:${count + 1}: unbalanced quote: the quoted field ${
              excerpt(field)
            } is closed by a double quote but ${excerpt(text[i])} follows it instead of a ${
              delimiterName(this.delimiter!)
            } or the end of the line.${this.#readWith()}`,
            `${
              quotingHint(this.delimiter!)
            } Double each quote inside the field, or remove what follows the closing quote.`,
          );
        }
        continue;
      }
      // START: the first character of a field.
      if (c === delimiter) {
        beginRecord();
        cells[count++] = "";
      } else if (c === QUOTE) {
        beginRecord();
        this.#quoteLine = line;
        this.#quoteField = count + 1;
        segment = i + 1;
        state = QUOTED;
      } else if (c === CR || c === LF) {
        if (this.#inRecord) {
          cells[count++] = "";
          endRecord();
        }
        if (c === CR || !(i > 0 ? text.charCodeAt(i - 1) === CR : prevCR)) line++;
      } else {
        beginRecord();
        segment = i;
        state = UNQUOTED;
      }
    }
    if (state === QUOTED || state === UNQUOTED) field += text.slice(segment, n);
    if (n > 0) prevCR = text.charCodeAt(n - 1) === CR;
    this.#state = state;
    this.#line = line;
    this.#field = field;
    this.#count = count;
    this.#prevCR = prevCR;
    if (this.#inRecord) this.#checkSize();
    return rows;
  }

  /** Finishes the input: returns the last record, or throws when a quoted field is still open. */
  end(): CsvRow[] {
    // A file of one line without a line end: its separator is settled by what it holds.
    const held = this.#delimiter === UNKNOWN ? this.#release(this.#sniffer!.best()) : [];
    if (held.length > 0) return [...held, ...this.end()];
    if (this.#state === QUOTED) throw this.#unclosed("the file ends inside it");
    const cells = this.#cells;
    let count = this.#count;
    if (this.#state !== START || this.#inRecord) cells[count++] = this.#field;
    const rows = this.#inRecord && !blank(cells, count)
      ? [rowOf(this.#recordLine, cells.slice(0, count))]
      : [];
    this.#count = 0;
    this.#field = "";
    this.#state = START;
    this.#inRecord = false;
    return rows;
  }

  #checkSize(): void {
    let size = this.#field.length;
    for (let i = 0; i < this.#count; i++) size += this.#cells[i].length;
    if (size <= this.#maxRecordChars) return;
    if (this.#state === QUOTED) {
      throw this.#unclosed(`it is still open after ${size} characters, up to line ${this.#line}`);
    }
    throw new UsageError(
      `${this.#file}:${this.#recordLine}: the row starting here is longer than ${this.#maxRecordChars} ` +
        "characters: this does not look like a CSV file.",
      `Give a CSV file: one row per line, fields separated by ${
        this.delimiter === "\t" ? "tabs" : `${delimiterName(this.delimiter!)}s`
      }.`,
    );
  }

  /**
   * How the file is read, for syntax errors of a file not separated by commas (a wrong separator makes
   * quotes appear inside fields); nothing for a comma file.
   */
  #readWith(): string {
    const delimiter = this.delimiter!;
    return delimiter === "," ? "" : ` The file is read with ${describeDelimiter(delimiter, this.#detected)}.`;
  }

  /** An example written with this file's separator (`a,"b"` becomes `a;"b"`). */
  #example(text: string): string {
    return text.replace(",", this.delimiter === "\t" ? "<tab>" : this.delimiter!);
  }

  #unclosed(why: string): UsageError {
    return new UsageError(
      `${this.#file}:${this.#quoteLine}:${this.#quoteField}: unbalanced quote: the quoted field that ` +
        `starts here is never closed (${why}).${this.#readWith()}`,
      `${quotingHint(this.delimiter!)} Close the field with a double quote, or double the quotes inside it.`,
    );
  }

  #strayQuote(before: string, field: number): UsageError {
    const spaceOnly = before.trim() === "";
    return new UsageError(
      `${this.#file}:${this.#line}:${field}: unbalanced quote: a double quote inside a field that is ` +
        `not enclosed in quotes (after ${excerpt(before)}).${this.#readWith()}`,
      spaceOnly
        ? `Remove the spaces between the ${delimiterName(this.delimiter!)} and the opening quote (write ${
          this.#example('a,"b"')
        } rather than ${this.#example('a, "b"')}).`
        : `${
          quotingHint(this.delimiter!)
        } Enclose this field in double quotes and double the quote inside it.`,
    );
  }
}
