/**
 * How the search index cuts text into tokens, and keywords into the terms a query must match.
 *
 * Text is split into words on anything that is not a letter or digit (`/ . : _ - # @` and spaces), and
 * each word also into its camelCase and letter/digit parts: `SalesDb` gives `salesdb`, `sales` and `db`;
 * `invoices2024.parquet` gives `invoices2024`, `invoices`, `2024` and `parquet`. Everything is lowercase.
 * Indexing whole words and their parts lets `SalesDb`, `sales` and `db` all find the same entity.
 *
 * Keywords are split on whitespace into terms; a term such as `orders.parquet` is split into its parts
 * (`orders`, `parquet`), every one of which must match, and is kept whole so the engine can also require
 * the phrase itself.
 *
 * @example
 * ```ts
 * import { keywordTerms, textTokens } from "./tokens.ts";
 * console.log(textTokens("mssql://contoso/SalesDb")); // ["mssql", "contoso", "salesdb", "sales", "db"]
 * console.log(keywordTerms("orders.parquet")[0].parts); // ["orders", "parquet"]
 * ```
 *
 * @module
 */

const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;
// Upper-case runs before a capitalised word (XMLParser → XML, Parser), capitalised or lower-case words,
// remaining upper-case runs, and digit runs.
const WORD_PARTS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu;

/** The words of a text, lowercase, without their camelCase parts (what autocomplete completes to). */
export function textWords(text: string): string[] {
  return text.split(WORD_SEPARATORS).filter((word) => word !== "").map((word) => word.toLowerCase());
}

/** Every token of a text: its words and their camelCase and letter/digit parts, lowercase, in order. */
export function textTokens(text: string): string[] {
  // Indexing 100,000 entities tokenises millions of strings: plain ASCII (nearly all names and paths)
  // takes a character loop, anything else the Unicode-aware expressions.
  return NON_ASCII.test(text) ? unicodeTokens(text) : asciiTokens(text);
}

const NON_ASCII = /[\u0080-\uffff]/;

function unicodeTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.split(WORD_SEPARATORS)) {
    if (word === "") continue;
    tokens.push(word.toLowerCase());
    const parts = word.match(WORD_PARTS);
    if (parts && parts.length > 1) {
      for (const part of parts) tokens.push(part.toLowerCase());
    }
  }
  return tokens;
}

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function charKind(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
}

// The same cuts as WORD_PARTS, for ASCII: before a digit run or a letter run after digits, between a
// lower-case and an upper-case letter, and before the last capital of a run followed by lower case.
function asciiTokens(text: string): string[] {
  const lower = text.toLowerCase();
  const tokens: string[] = [];
  const partStarts: number[] = [];
  let wordStart = -1;
  let previous = OTHER;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? charKind(text.charCodeAt(i)) : OTHER;
    if (kind === OTHER) {
      if (wordStart >= 0) {
        tokens.push(lower.slice(wordStart, i));
        if (partStarts.length > 1) {
          for (let p = 0; p < partStarts.length; p++) {
            tokens.push(lower.slice(partStarts[p], p + 1 < partStarts.length ? partStarts[p + 1] : i));
          }
        }
        wordStart = -1;
        partStarts.length = 0;
      }
    } else if (wordStart < 0) {
      wordStart = i;
      partStarts.push(i);
    } else if (
      (kind === DIGIT) !== (previous === DIGIT) ||
      (kind === UPPER && previous === LOWER) ||
      (kind === UPPER && previous === UPPER && charKind(text.charCodeAt(i + 1)) === LOWER)
    ) {
      partStarts.push(i);
    }
    previous = kind;
  }
  return tokens;
}

/** One whitespace-separated keyword of a query. */
export interface KeywordTerm {
  /** The term as typed, lowercase, without quotes or a trailing `*`. */
  text: string;
  /** Its words; each must match a token of the document, exactly or as a prefix. */
  parts: string[];
  /** True when the term had separators inside (`orders.parquet`): the document must contain it verbatim. */
  phrase: boolean;
}

/** The terms of a keywords string; `*` and empty keywords give none (everything matches). */
export function keywordTerms(keywords: string | null | undefined): KeywordTerm[] {
  const terms: KeywordTerm[] = [];
  for (const raw of (keywords ?? "").split(/\s+/)) {
    // A trailing * asks for a prefix match, which every part gets anyway.
    const text = raw.replace(/^["']+|["']+$/g, "").replace(/\*+$/, "").toLowerCase();
    const parts = textWords(text);
    if (parts.length === 0) continue;
    terms.push({ text, parts, phrase: parts.length > 1 });
  }
  return terms;
}

const WORD_RUNS = /[\p{L}\p{N}]+/gu;
const NON_SPACE_RUNS = /\S+/gu;

/**
 * `text` with the pieces that `words` match wrapped in `<em>`: each word or camelCase part that starts
 * with one of `words` (lowercase) — or, with `unit: "chunk"`, the whole whitespace-delimited chunk
 * holding such a piece, as suggestions show `<em>exampledata.csv</em>`. Undefined when nothing matches.
 */
export function highlight(
  text: string,
  words: readonly string[],
  unit: "token" | "chunk" = "token",
): string | undefined {
  if (words.length === 0) return undefined;
  const starts = (piece: string) => {
    const lower = piece.toLowerCase();
    return words.some((word) => lower.startsWith(word));
  };
  const spans: Array<[start: number, end: number]> = [];
  const pattern = unit === "chunk" ? NON_SPACE_RUNS : WORD_RUNS;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (unit === "chunk") {
      if (textTokens(match[0]).some(starts)) spans.push([start, start + match[0].length]);
    } else if (starts(match[0])) {
      spans.push([start, start + match[0].length]);
    } else {
      for (const part of match[0].matchAll(WORD_PARTS)) {
        if (starts(part[0])) spans.push([start + part.index, start + part.index + part[0].length]);
      }
    }
  }
  if (spans.length === 0) return undefined;
  let marked = "";
  let at = 0;
  for (const [start, end] of spans) {
    marked += `${text.slice(at, start)}<em>${text.slice(start, end)}</em>`;
    at = end;
  }
  return marked + text.slice(at);
}
