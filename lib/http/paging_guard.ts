/**
 * The one guard every paged walk of the catalog goes through, so a catalog whose paging never ends cannot
 * hold govcat: a continuation token, `nextLink` or offset asked for a second time, or a page that repeats
 * the one before, stops the walk at once; and pages, items and time each have a bound (CATALOG_MAX_PAGES,
 * CATALOG_MAX_ITEMS, CATALOG_PAGING_TIMEOUT). The error says how far the walk got and what to raise.
 *
 * @example
 * ```ts
 * import { DEFAULT_PAGING_LIMITS, PagingGuard } from "./paging_guard.ts";
 * const guard = new PagingGuard("the collection list", DEFAULT_PAGING_LIMITS);
 * guard.beforePage(undefined); // the first page
 * guard.afterPage(50);
 * guard.beforePage("token-2"); // the next; "token-2" again would throw PagingError
 * ```
 *
 * @module
 */
import { PagingError } from "../core/errors.ts";
import { counted } from "../core/plural.ts";

/** How far one paged walk may go. */
export interface PagingLimits {
  /** Pages fetched at most (CATALOG_MAX_PAGES). */
  maxPages: number;
  /** Items read at most (CATALOG_MAX_ITEMS). */
  maxItems: number;
  /** Time the whole walk may take, in milliseconds (CATALOG_PAGING_TIMEOUT × 1000). */
  maxMs: number;
}

/**
 * The defaults: more pages and items than any account lists (10,000 pages of 1,000 is ten million items
 * at the service's largest page size; a million items is past any real glossary, collection tree or
 * search), and ten minutes, past the slowest real walk while a peer that answers forever is stopped.
 */
export const DEFAULT_PAGING_LIMITS: Readonly<PagingLimits> = {
  maxPages: 10_000,
  maxItems: 1_000_000,
  maxMs: 600_000,
};

/** Counts one paged walk and stops it when the catalog repeats itself or a bound is passed. */
export class PagingGuard {
  readonly #what: string;
  readonly #limits: PagingLimits;
  readonly #now: () => number;
  readonly #started: number;
  readonly #asked = new Set<string>();
  #pages = 0;
  #items = 0;
  #previousSignature: string | undefined;
  #repeatedPage = false;

  /**
   * A guard of the walk named `what` ("the collection list"), used in its errors. `now` is the clock
   * (milliseconds), given by tests.
   */
  constructor(what: string, limits: PagingLimits, now: () => number = () => performance.now()) {
    this.#what = what;
    this.#limits = limits;
    this.#now = now;
    this.#started = now();
  }

  /** Pages fetched so far. */
  get pages(): number {
    return this.#pages;
  }

  /** Items counted so far. */
  get items(): number {
    return this.#items;
  }

  /**
   * Call before fetching each page, with what asks for it: the continuation token, the `nextLink`, the
   * offset (`undefined` for a first page asked without one). A key asked for before fails at once.
   */
  beforePage(key: string | undefined): void {
    if (key !== undefined) {
      if (this.#asked.has(key)) {
        throw this.#error(
          `the catalog sent ${describeKey(key)} a second time, so its paging would never end`,
          "The catalog's paging is broken (it leads back to a page already read); retry later, or report it " +
            "to whoever runs the catalog or the gateway in front of it.",
        );
      }
      this.#asked.add(key);
    }
    // Told only when a further page is asked for: a token sent again is the plainer diagnosis, and a list
    // whose repeated page is its last one ends anyway.
    if (this.#repeatedPage) {
      throw this.#error(
        "the catalog answered the same page again when asked for the next one, so its paging would " +
          "never end",
        "The catalog's paging is broken (it ignores where to continue); retry later, or report it to " +
          "whoever runs the catalog or the gateway in front of it.",
      );
    }
    if (this.#pages >= this.#limits.maxPages) {
      throw this.#error(
        `a next page was offered past ${this.#limits.maxPages} pages (CATALOG_MAX_PAGES)`,
        "If the list really is this long, raise CATALOG_MAX_PAGES; otherwise narrow it (a filter, a " +
          "smaller scope) or report the catalog's paging problem.",
      );
    }
    const elapsedMs = this.#now() - this.#started;
    if (elapsedMs > this.#limits.maxMs) {
      throw this.#error(
        `the walk took more than ${this.#limits.maxMs / 1000} s (CATALOG_PAGING_TIMEOUT)`,
        "If the list really takes this long to read, raise CATALOG_PAGING_TIMEOUT; otherwise narrow it " +
          "or retry when the catalog is less busy.",
      );
    }
  }

  /**
   * Call after each page with its item count and, when its items have ids, their {@link pageSignature}:
   * a page of the same items as the one before means the catalog answers one page whatever it is asked
   * (a token or offset it ignores, a new token for the same page), and the next page asked for fails.
   */
  afterPage(itemCount: number, signature?: string): void {
    this.#pages++;
    this.#items += itemCount;
    if (signature !== undefined && itemCount > 0) {
      if (signature === this.#previousSignature) this.#repeatedPage = true;
      this.#previousSignature = signature;
    }
    if (this.#items > this.#limits.maxItems) {
      throw this.#error(
        `it holds more than ${this.#limits.maxItems} items (CATALOG_MAX_ITEMS)`,
        "If the list really is this long, raise CATALOG_MAX_ITEMS; otherwise narrow it (a filter, a " +
          "smaller scope).",
      );
    }
  }

  #error(reason: string, hint: string): PagingError {
    const seconds = ((this.#now() - this.#started) / 1000).toFixed(1);
    return new PagingError({
      message: `Stopped reading ${this.#what} after ${counted(this.#pages, "page")} and ` +
        `${counted(this.#items, "item")} in ${seconds} s: ${reason}.`,
      hint,
    });
  }
}

/** A token or link as an error shows it: quoted, and cut when long (a hostile peer may send megabytes). */
function describeKey(key: string): string {
  const shown = key.length > 200 ? `${key.slice(0, 200)}…` : key;
  return `the continuation ${JSON.stringify(shown)}`;
}

/**
 * What tells a page from the next: its items' ids, in order; undefined when an item has none (then pages
 * cannot be compared, and only the other checks apply).
 */
export function pageSignature<T>(items: readonly T[], idOf: (item: T) => unknown): string | undefined {
  const ids: string[] = [];
  for (const item of items) {
    const id = item === null || item === undefined ? undefined : idOf(item);
    if (typeof id !== "string" || id === "") return undefined;
    ids.push(id);
  }
  return ids.join("\n");
}

/**
 * The pages of a list read by offset (`limit` and `offset`), through `guard`: each page as it arrives, until
 * one is shorter than `pageSize`. `idOf` names an item; a page of the same items as the one before means
 * the catalog ignores the offset, and stops the walk at once.
 */
export async function* offsetPages<T>(
  guard: PagingGuard,
  pageSize: number,
  fetchPage: (offset: number) => Promise<T[] | undefined>,
  idOf: (item: T) => string | undefined,
): AsyncGenerator<T[]> {
  for (let offset = 0;; offset += pageSize) {
    guard.beforePage(`offset=${offset}`);
    const answer = await fetchPage(offset);
    const page = Array.isArray(answer) ? answer : [];
    guard.afterPage(page.length, pageSignature(page, idOf));
    yield page;
    if (page.length < pageSize) return;
  }
}
