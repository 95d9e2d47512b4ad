/**
 * Finding rows whose `unique` column groups repeat within a file, in bounded memory: each row's key is
 * reduced to a 53-bit hash, computed without building the key text, and kept in a compact open-addressing
 * set (`hash_set.ts`, about 11 bytes a row); only rows whose hash was seen before keep their key text. A
 * repeated hash is not yet a duplicate: the first row's key was not kept, so the caller re-reads the file
 * from the top until the first row of each repeated hash is found ({@link DuplicateTracker.resolve}), and
 * only keys that really match are reported. No false duplicate is ever reported, whatever the hash does;
 * the re-read happens only when some hash repeats, which for distinct keys is about one file in ten
 * thousand at a million rows. *
 * @example
 * ```ts
 * import { DuplicateTracker } from "./duplicates.ts";
 * declare const binding: import("./header_binding.ts").HeaderBinding;
 * declare const rows: import("./types.ts").CheckedRow[];
 * const tracker = new DuplicateTracker(binding);
 * for (const row of rows) tracker.add(row);
 * if (tracker.unresolved > 0) for (const row of rows) if (!tracker.resolve(row)) break;
 * console.log(tracker.problems());
 * ```
 *
 * @module
 */
import { counted } from "../core/plural.ts";
import type { HeaderBinding } from "./header_binding.ts";
import { finish53, HashSet53 } from "./hash_set.ts";
import { shown } from "./problems.ts";
import type { CellValue, CheckedRow, CsvProblem } from "./types.ts";

/** True when `text` has a character outside ASCII, whose lower case only `toLowerCase` knows. */
function beyondAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return true;
  return false;
}

/**
 * {@link hash53} of a row's key in a group (the {@link valueKey}s of its columns joined with U+0000)
 * without building the key: every row of the file is hashed, and only rows whose hash repeats need the
 * key itself. Undefined when a column of the group is empty.
 */
export function groupKeyHash53(columns: readonly string[], row: CheckedRow): number | undefined {
  let h1 = 0xdeadbeef | 0, h2 = 0x41c6ce57;
  for (let part = 0; part < columns.length; part++) {
    const value = row.values[columns[part]];
    if (value === undefined) return undefined;
    if (part > 0) {
      h1 = Math.imul(h1, 2654435761);
      h2 = Math.imul(h2, 1597334677);
    }
    // ASCII text is lowered here as toLowerCase would; other values take the general way.
    const ascii = typeof value === "string" && !beyondAscii(value);
    const text = ascii ? value : valueKey(value);
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (ascii && c >= 65 && c <= 90) c += 32;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  return finish53(h1, h2);
}

/**
 * Rows whose key hash repeats that are kept for comparison: past this, rows are not compared and one
 * problem says so, so a file of nothing but duplicates cannot exhaust memory.
 */
export const MAX_REPEATS = 50_000;

/** Repeating rows whose own values are kept for their message. */
const MAX_SHOWN = 1000;

/** Rows sharing one hash: the later rows by key, and the first row once it has been re-read. */
interface Bucket {
  firstLine?: number;
  firstKey?: string;
  /** Rows after the first by key: their lines and how the first of them showed the values. */
  keys: Map<string, { lines: number[]; display: string }>;
}

interface Group {
  columns: readonly string[];
  seen: HashSet53;
  buckets: Map<number, Bucket>;
}

/** The comparable text of a value: lower case, lists joined with `;`. */
function valueKey(value: CellValue): string {
  if (typeof value === "string") return value.toLowerCase();
  if (Array.isArray(value)) return value.map(valueKey).join(";");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value).toLowerCase();
}

/**
 * Tracks the template's `unique` groups over the rows of one file. Feed every checked row to
 * {@link DuplicateTracker.add}; then, when {@link DuplicateTracker.unresolved} is not 0, feed the rows again
 * from the top to {@link DuplicateTracker.resolve} until it returns false; then read
 * {@link DuplicateTracker.problems}.
 */
export class DuplicateTracker {
  readonly #binding: HeaderBinding;
  /** The hash of keys given for tests; undefined for {@link hash53}, computed without building keys. */
  readonly #hash: ((key: string) => number) | undefined;
  readonly #groups: Group[];
  #unresolved = 0;
  readonly #maxRepeats: number;
  /** Rows kept for comparison because their hash repeats, and those refused past the limit. */
  #repeats = 0;
  #notCompared = 0;
  #firstNotCompared = 0;
  /** How the first repeating rows showed their values (bounded: later ones borrow their key's first). */
  readonly #shown = new Map<string, string>();

  /**
   * `hash` (for tests) must return integers from 0 to 2^53 - 1; equal keys must hash alike.
   * `maxRepeats` bounds the rows kept for comparison ({@link MAX_REPEATS} by default).
   */
  constructor(binding: HeaderBinding, options: { hash?: (key: string) => number; maxRepeats?: number } = {}) {
    this.#binding = binding;
    this.#maxRepeats = options.maxRepeats ?? MAX_REPEATS;
    this.#hash = options.hash;
    this.#groups = (binding.template.unique ?? [])
      .filter((columns) => columns.every((name) => binding.positions.has(name)))
      .map((columns) => ({ columns, seen: new HashSet53(), buckets: new Map() }));
  }

  /**
   * The number of rows the file is expected to hold in all (an estimate, e.g. from the share of the file
   * read so far): the hash sets grow straight to that size instead of step by step.
   */
  expectRows(rows: number): void {
    for (const group of this.#groups) group.seen.expect(rows);
  }

  /**
   * No more rows will be added: frees the hash sets (about 10 MB a million rows) now rather than at the
   * next full garbage collection. {@link DuplicateTracker.resolve} and the problems still work.
   */
  endRows(): void {
    for (const group of this.#groups) group.seen.release();
  }

  /** Records a checked row (rows with an empty value in a group are not compared for that group). */
  add(row: CheckedRow): void {
    for (const group of this.#groups) {
      const hash = this.#hashOf(group, row);
      if (hash === undefined || !group.seen.has(hash)) continue;
      if (this.#repeats >= this.#maxRepeats) {
        this.#notCompared++;
        this.#firstNotCompared ||= row.line;
        continue;
      }
      this.#repeats++;
      let bucket = group.buckets.get(hash);
      if (!bucket) {
        bucket = { keys: new Map() };
        group.buckets.set(hash, bucket);
        this.#unresolved++;
      }
      // JSON text is a fresh string: a slice of the row would keep the whole read chunk alive.
      const stored = JSON.stringify(this.#key(group, row));
      const display = group.columns.map((name) => shown(String(row.values[name]), 40)).join(", ");
      const entry = bucket.keys.get(stored);
      if (entry) entry.lines.push(row.line);
      else bucket.keys.set(stored, { lines: [row.line], display });
      if (this.#shown.size < MAX_SHOWN) this.#shown.set(`${group.columns}\u0000${row.line}`, display);
    }
  }

  /** Repeated hashes whose first row has not been re-read yet. */
  get unresolved(): number {
    return this.#unresolved;
  }

  /**
   * Takes the rows again, from the top and in order (checked again), to learn the first row of each
   * repeated hash; returns false once nothing waits, so the caller can stop reading.
   */
  resolve(row: CheckedRow): boolean {
    for (const group of this.#groups) {
      if (this.#unresolved === 0) break;
      const hash = this.#hashOf(group, row);
      if (hash === undefined) continue;
      const bucket = group.buckets.get(hash);
      if (bucket && bucket.firstLine === undefined) {
        bucket.firstLine = row.line;
        bucket.firstKey = JSON.stringify(this.#key(group, row));
        this.#unresolved--;
      }
    }
    return this.#unresolved > 0;
  }

  /** The confirmed duplicates, by line; throws if first rows are still unresolved. */
  problems(): CsvProblem[] {
    if (this.#unresolved > 0) throw new Error(`duplicate check: ${this.#unresolved} first rows not re-read`);
    const { file, positions, names } = this.#binding;
    const problems: CsvProblem[] = [];
    for (const group of this.#groups) {
      const column = positions.get(group.columns[0])!;
      const what = `${group.columns.join(" with ")} must not repeat`;
      for (const bucket of group.buckets.values()) {
        for (const [key, { lines, display }] of bucket.keys) {
          // Rows whose key differs from the first row's merely share its hash: the first of them is an
          // original, the rest repeat it.
          const original = key === bucket.firstKey ? bucket.firstLine! : lines[0];
          for (const line of lines) {
            if (line === original) continue;
            problems.push({
              file,
              line,
              column: column + 1,
              columnName: names[column],
              message:
                `${
                  this.#shown.get(`${group.columns}\u0000${line}`) ?? display
                } is also on line ${original} (${what} within the file, letter case ` +
                "aside); remove one of the rows or merge them.",
            });
          }
        }
      }
    }
    if (this.#notCompared > 0) {
      problems.push({
        file,
        line: this.#firstNotCompared,
        message:
          `${counted(this.#notCompared, "more row")}, from this line on, may repeat earlier rows but ${
            this.#notCompared === 1 ? "was" : "were"
          } not ` +
          `compared: one check compares at most ${
            counted(this.#maxRepeats, "repeating row")
          }. Remove the duplicates ` +
          "listed and check the file again.",
      });
    }
    return problems.sort((a, b) => a.line - b.line);
  }

  #hashOf(group: Group, row: CheckedRow): number | undefined {
    if (this.#hash === undefined) return groupKeyHash53(group.columns, row);
    const key = this.#key(group, row);
    return key === undefined ? undefined : this.#hash(key);
  }

  #key(group: Group, row: CheckedRow): string | undefined {
    const parts: string[] = [];
    for (const name of group.columns) {
      const value = row.values[name];
      if (value === undefined) return undefined;
      parts.push(valueKey(value));
    }
    return parts.join("\u0000");
  }
}
