/**
 * Reading CSV files as a stream of rows: the file is read in 64 KiB chunks, decoded as strict UTF-8 and
 * tokenized as it goes, so memory stays flat whatever the file's size. Each row carries the physical line
 * it starts on. A byte-order mark, CRLF and quoted line breaks are fine; anything that is not CSV (bad
 * UTF-8, UTF-16, a NUL byte, an unbalanced quote) is a usage error naming the line, because nothing after
 * it could be trusted. Fields are separated by the `delimiter` given, else by the one the header line uses
 * (comma, semicolon, tab or pipe; see `delimiter.ts`). A cell's guard against spreadsheet formulas (the
 * `'` before `=`, `+`, `-`, `@`, a tab or a carriage return; see `cell_guard.ts`) is taken off as it is read,
 * unless `unguard: false`. Also the file fingerprint (SHA-256 and size) and the writer of one CSV line,
 * which adds that guard.
 *
 * @example
 * ```ts
 * import { readCsvFile } from "./reader.ts";
 * for await (const row of readCsvFile("terms.csv")) {
 *   console.log(row.line, row.cells); // the header first, then each data row
 * }
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import { openChecked } from "../files/checked_open.ts";
import { UsageError } from "../core/errors.ts";
import { guardCell, unguardCells } from "./cell_guard.ts";
import type { CsvDelimiter } from "./delimiter.ts";
import { CsvTokenizer } from "./tokenizer.ts";
import type { CsvRow } from "./types.ts";

/** Bytes read at a time. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Bytes decoded and tokenized at a time, within a chunk read. Cells are slices of the text they were cut
 * from and keep all of it alive, so rows held by batches in flight pin pieces this size rather than whole
 * chunks; and fewer rows wait in memory between two yields.
 */
export const PIECE_BYTES = 8 * 1024;

const ENCODING_HINT = 'Save the file as CSV with UTF-8 encoding (in Excel: "CSV UTF-8 (Comma delimited)").';

/** Options of {@link readCsvFile}. */
export interface ReadCsvOptions {
  /** Name used in messages instead of the path. */
  displayName?: string;
  signal?: AbortSignal;
  /** Called after each chunk with the bytes read so far. */
  onBytes?: (bytesRead: number) => void;
  /** Called with each chunk's bytes before they are decoded (to hash the file in the same pass). */
  onChunk?: (bytes: Uint8Array) => void;
  /** The field separator; detected from the header line when absent. */
  delimiter?: CsvDelimiter;
  /** Called once, before the first row, with the separator used and whether it was detected. */
  onDelimiter?: (delimiter: CsvDelimiter, detected: boolean) => void;
  /**
   * Take the `'` that guards a formula start off each cell (`'=x` reads `=x`, `''=x` reads `'=x`); true when
   * absent. False reads the cells as they are written.
   */
  unguard?: boolean;
}

/** The rows as the caller asked for them: unguarded in place unless `unguard` is false. */
function finished(rows: CsvRow[], unguard: boolean | undefined): CsvRow[] {
  if (unguard !== false) { for (const row of rows) unguardCells(row.cells); }
  return rows;
}

/** Calls `onDelimiter` once the tokenizer knows its separator (before the first row comes out). */
function delimiterReporter(
  tokenizer: CsvTokenizer,
  onDelimiter: ReadCsvOptions["onDelimiter"],
): () => void {
  let pending = onDelimiter !== undefined;
  return () => {
    if (!pending || tokenizer.delimiter === undefined) return;
    pending = false;
    onDelimiter!(tokenizer.delimiter, tokenizer.detected);
  };
}

/** Bytes of the UTF-8 character a lead byte starts. */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** The bytes of a complete UTF-8 prefix: an incomplete character at the end waits for the next chunk. */
function completeLength(bytes: Uint8Array): number {
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  return bytes.length - i < sequenceLength(bytes[i]) ? i : bytes.length;
}

/** Strict UTF-8 decoding of consecutive chunks, placing a bad byte on its line. */
class Utf8Chunks {
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  readonly #file: string;
  #carry = new Uint8Array(0);
  /** File offset of the first byte of `#carry`. */
  #offset = 0;
  #started = false;

  constructor(file: string) {
    this.#file = file;
  }

  decode(bytes: Uint8Array, tokenizer: CsvTokenizer): string {
    if (!this.#started && this.#carry.length + bytes.length > 0) this.#checkUtf16(bytes);
    let data = bytes;
    if (this.#carry.length > 0) {
      data = new Uint8Array(this.#carry.length + bytes.length);
      data.set(this.#carry);
      data.set(bytes, this.#carry.length);
    }
    const complete = completeLength(data);
    const text = this.#decodeOrThrow(data.subarray(0, complete), tokenizer);
    this.#offset += complete;
    // Copied: the caller reuses its buffer.
    this.#carry = data.slice(complete);
    return this.#stripBom(text);
  }

  /** The end of the file: an incomplete character left over is an error. */
  end(tokenizer: CsvTokenizer): string {
    if (this.#carry.length === 0) return "";
    const text = this.#decodeOrThrow(this.#carry, tokenizer);
    this.#carry = new Uint8Array(0);
    return this.#stripBom(text);
  }

  #stripBom(text: string): string {
    if (this.#started || text === "") return text;
    this.#started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  #checkUtf16(bytes: Uint8Array): void {
    if (this.#carry.length === 0 && bytes.length >= 2) {
      const [a, b] = bytes;
      if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) {
        throw new UsageError(
          `${this.#file}:1: the file is UTF-16 encoded; CSV files must be UTF-8.`,
          ENCODING_HINT,
        );
      }
    }
  }

  #decodeOrThrow(data: Uint8Array, tokenizer: CsvTokenizer): string {
    try {
      return this.#decoder.decode(data);
    } catch {
      throw this.#badByte(data, tokenizer);
    }
  }

  /** Finds the first byte at which decoding fails (by bisection, with the decoder's own rules). */
  #badByte(data: Uint8Array, tokenizer: CsvTokenizer): UsageError {
    const fails = (length: number) => {
      try {
        new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data.subarray(0, length), {
          stream: true,
        });
        return false;
      } catch {
        return true;
      }
    };
    // The smallest failing prefix ends with the byte that revealed the error.
    let low = 1, high = data.length;
    if (!fails(high)) {
      // Only the end is incomplete: the file stops inside a character.
      const line = tokenizer.lineAfter(new TextDecoder().decode(data));
      return new UsageError(
        `${this.#file}:${line}: not valid UTF-8: the file ends in the middle of a character.`,
        ENCODING_HINT,
      );
    }
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (fails(middle)) high = middle;
      else low = middle + 1;
    }
    const detected = low - 1;
    // When the byte that revealed the error cut a multi-byte character short, the culprit is that
    // character's lead byte.
    let start = detected;
    let lead = detected - 1;
    while (lead >= 0 && detected - lead < 4 && (data[lead] & 0xc0) === 0x80) lead--;
    if (lead >= 0 && data[lead] >= 0xc0 && detected - lead < sequenceLength(data[lead])) start = lead;
    const line = tokenizer.lineAfter(new TextDecoder().decode(data.subarray(0, detected)));
    const hex = data[start].toString(16).toUpperCase().padStart(2, "0");
    return new UsageError(
      `${this.#file}:${line}: not valid UTF-8: byte 0x${hex} at byte offset ${this.#offset + start}` +
        " (the file is probably in another encoding, such as Windows-1252).",
      ENCODING_HINT,
    );
  }
}

/** The UsageError for a file that cannot be opened. */
function openError(error: unknown, file: string): Error {
  if (error instanceof Deno.errors.NotFound) {
    return new UsageError(`${file}: no such file.`, "Check the path of the CSV file.");
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new UsageError(`${file}: permission denied: ${(error as Error).message}`);
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new UsageError(`${file} is a directory, not a CSV file.`);
  }
  return error as Error;
}

async function openFile(path: string, file: string): Promise<Deno.FsFile> {
  let handle: Deno.FsFile;
  try {
    handle = await openChecked(path, { read: true }, file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw openError(error, file);
  }
  const info = await handle.stat().catch(() => undefined);
  if (info?.isDirectory) {
    handle.close();
    throw new UsageError(`${file} is a directory, not a CSV file.`);
  }
  return handle;
}

/**
 * {@link readCsvFile} in arrays: the rows completed by each piece of a chunk read, as one array (empty
 * arrays are not yielded). Cheaper than one promise per row for passes over every row.
 */
export async function* readCsvFileBatches(
  path: string,
  options: ReadCsvOptions = {},
): AsyncGenerator<CsvRow[]> {
  const file = options.displayName ?? path;
  options.signal?.throwIfAborted();
  const handle = await openFile(path, file);
  try {
    const tokenizer = new CsvTokenizer(file, { delimiter: options.delimiter });
    const report = delimiterReporter(tokenizer, options.onDelimiter);
    const decoder = new Utf8Chunks(file);
    const buffer = new Uint8Array(CHUNK_BYTES);
    let total = 0;
    while (true) {
      options.signal?.throwIfAborted();
      const read = await handle.read(buffer);
      if (read === null) break;
      if (read === 0) continue;
      const bytes = buffer.subarray(0, read);
      options.onChunk?.(bytes);
      total += read;
      options.onBytes?.(total);
      for (let start = 0; start < read; start += PIECE_BYTES) {
        const piece = bytes.subarray(start, Math.min(start + PIECE_BYTES, read));
        const rows = finished(tokenizer.feed(decoder.decode(piece, tokenizer)), options.unguard);
        report();
        if (rows.length > 0) yield rows;
      }
    }
    const rows = finished([...tokenizer.feed(decoder.end(tokenizer)), ...tokenizer.end()], options.unguard);
    report();
    if (rows.length > 0) yield rows;
  } finally {
    handle.close();
  }
}

/**
 * Streams a CSV file: yields the header row first, then each data row, with its first physical line
 * (1-based). Empty lines and rows of empty cells are skipped. Throws UsageError `file:line: …` for an
 * unbalanced quote, bad UTF-8 (the line of the bad byte), UTF-16, a NUL byte, or a file that cannot be
 * opened. Reads {@link CHUNK_BYTES} at a time; honours `signal` between chunks.
 */
export async function* readCsvFile(path: string, options: ReadCsvOptions = {}): AsyncGenerator<CsvRow> {
  for await (const rows of readCsvFileBatches(path, options)) yield* rows;
}

/** Characters tokenized at a time from text in memory, so rows come out as they are found. */
const TEXT_SLICE = 64 * 1024;

/** What reading text in memory takes of {@link ReadCsvOptions}. */
export type ReadCsvTextOptions = Pick<ReadCsvOptions, "delimiter" | "onDelimiter" | "unguard">;

/** Rows of text in memory, one array per slice tokenized. */
export function* readCsvTextBatches(
  text: string,
  file: string,
  options: ReadCsvTextOptions = {},
): Generator<CsvRow[]> {
  const tokenizer = new CsvTokenizer(file, { delimiter: options.delimiter });
  const report = delimiterReporter(tokenizer, options.onDelimiter);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let start = 0; start < body.length; start += TEXT_SLICE) {
    const rows = finished(tokenizer.feed(body.slice(start, start + TEXT_SLICE)), options.unguard);
    report();
    if (rows.length > 0) yield rows;
  }
  const rows = finished(tokenizer.end(), options.unguard);
  report();
  if (rows.length > 0) yield rows;
}

/** {@link readCsvFile} over text already in memory, as a synchronous generator. */
export function* readCsvTextSync(
  text: string,
  file: string,
  options: ReadCsvTextOptions = {},
): Generator<CsvRow> {
  for (const rows of readCsvTextBatches(text, file, options)) yield* rows;
}

/** {@link readCsvFile} over text already in memory (MCP arguments, small files). */
export async function* readCsvText(
  text: string,
  file: string,
  options: ReadCsvTextOptions = {},
): AsyncGenerator<CsvRow> {
  yield* readCsvTextSync(text, file, options);
}

/** SHA-256 (hex) and size of a file, read in chunks. */
export async function fileFingerprint(
  path: string,
  signal?: AbortSignal,
): Promise<{ sha256: string; size: number }> {
  signal?.throwIfAborted();
  const handle = await openFile(path, path);
  try {
    const hash = createHash("sha256");
    const buffer = new Uint8Array(CHUNK_BYTES);
    let size = 0;
    while (true) {
      signal?.throwIfAborted();
      const read = await handle.read(buffer);
      if (read === null) break;
      hash.update(buffer.subarray(0, read));
      size += read;
    }
    return { sha256: hash.digest("hex"), size };
  } finally {
    handle.close();
  }
}

/** Cells that must be quoted, by separator. */
const NEEDS_QUOTES: Readonly<Record<CsvDelimiter, RegExp>> = {
  ",": /[",\r\n]|^\uFEFF/,
  ";": /[";\r\n]|^\uFEFF/,
  "\t": /["\t\r\n]|^\uFEFF/,
  "|": /["|\r\n]|^\uFEFF/,
};

/**
 * One CSV line (no line ending) with RFC 4180 quoting: cells holding the separator (a comma unless
 * `delimiter` says otherwise), a double quote or a line break are enclosed in quotes, their quotes doubled;
 * so is a cell starting with U+FEFF, which readers would take for a byte-order mark at the start of a file
 * and drop. A cell a spreadsheet would run as a formula gets a leading `'` ({@link guardCell}) unless
 * `guard: false` (a file for the service, which keeps cells as they are).
 */
export function csvLine(
  cells: readonly string[],
  delimiter: CsvDelimiter = ",",
  options: { guard?: boolean } = {},
): string {
  // A lone empty cell would make an empty line, which readers skip.
  if (cells.length === 1 && cells[0] === "") return '""';
  const quote = NEEDS_QUOTES[delimiter];
  const guard = options.guard !== false;
  return cells.map((value) => {
    const cell = guard ? guardCell(value) : value;
    return quote.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }).join(delimiter);
}
