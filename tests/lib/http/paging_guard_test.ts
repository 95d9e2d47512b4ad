/**
 * The paging guard every paged walk goes through: a continuation asked for twice, or a page that repeats
 * the one before, stops the walk at once; pages, items and time are bounded; the error says how far the walk
 * got and which variable to raise.
 */
import assert from "node:assert/strict";
import { PagingError } from "../../../lib/core/errors.ts";
import {
  DEFAULT_PAGING_LIMITS,
  offsetPages,
  pageSignature,
  PagingGuard,
  type PagingLimits,
} from "../../../lib/http/paging_guard.ts";

const roomy: PagingLimits = { maxPages: 100, maxItems: 10_000, maxMs: 60_000 };

function thrown(action: () => void): PagingError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof PagingError, `not a PagingError: ${error}`);
    return error;
  }
  assert.fail("nothing was thrown");
}

Deno.test("paging guard: a continuation asked for a second time fails at once, saying how far it got", () => {
  const guard = new PagingGuard("the collection list", roomy);
  guard.beforePage(undefined);
  guard.afterPage(3);
  guard.beforePage("t1");
  guard.afterPage(2);
  const error = thrown(() => guard.beforePage("t1"));
  assert.match(
    error.message,
    /^Stopped reading the collection list after 2 pages and 5 items in \d+\.\d s: /,
  );
  assert.match(error.message, /the catalog sent the continuation "t1" a second time/);
  assert.match(error.hint ?? "", /paging is broken/);
});

Deno.test("paging guard: a page of the same items as the one before fails at once", () => {
  const guard = new PagingGuard("the search results", roomy);
  guard.beforePage(undefined);
  guard.afterPage(2, "a\nb");
  guard.beforePage("new-token");
  guard.afterPage(2, "a\nb");
  const error = thrown(() => guard.beforePage("newer-token"));
  assert.match(error.message, /after 2 pages and 4 items .*same page again/);
  // A token sent again is told first: it is the plainer diagnosis.
  const both = new PagingGuard("the search results", roomy);
  both.beforePage(undefined);
  both.afterPage(1, "a");
  both.beforePage("same");
  both.afterPage(1, "a");
  assert.match(thrown(() => both.beforePage("same")).message, /sent the continuation "same" a second time/);
  // A repeated last page ends the list as it is.
  const last = new PagingGuard("x", roomy);
  last.afterPage(1, "a");
  last.afterPage(1, "a");
  // Empty pages and pages without ids are not compared.
  const quiet = new PagingGuard("x", roomy);
  quiet.afterPage(0, "");
  quiet.afterPage(0, "");
  quiet.afterPage(1, undefined);
  quiet.afterPage(1, undefined);
});

Deno.test("paging guard: pages, items and time are bounded, each naming its variable", () => {
  const pages = new PagingGuard("the list", { ...roomy, maxPages: 2 });
  for (const key of [undefined, "p2"]) {
    pages.beforePage(key);
    pages.afterPage(1);
  }
  const tooManyPages = thrown(() => pages.beforePage("p3"));
  assert.match(tooManyPages.message, /after 2 pages and 2 items .*past 2 pages \(CATALOG_MAX_PAGES\)/);
  assert.match(tooManyPages.hint ?? "", /raise CATALOG_MAX_PAGES/);

  const items = new PagingGuard("the list", { ...roomy, maxItems: 5 });
  items.beforePage(undefined);
  const tooManyItems = thrown(() => items.afterPage(6));
  assert.match(tooManyItems.message, /after 1 page and 6 items .*more than 5 items \(CATALOG_MAX_ITEMS\)/);
  assert.match(tooManyItems.hint ?? "", /raise CATALOG_MAX_ITEMS/);

  let now = 0;
  const time = new PagingGuard("the list", { ...roomy, maxMs: 1000 }, () => now);
  time.beforePage(undefined);
  time.afterPage(1);
  now = 1500;
  const tooLong = thrown(() => time.beforePage("p2"));
  assert.match(tooLong.message, /in 1\.5 s: the walk took more than 1 s \(CATALOG_PAGING_TIMEOUT\)/);
  assert.match(tooLong.hint ?? "", /raise CATALOG_PAGING_TIMEOUT/);
});

Deno.test("paging guard: a long continuation is cut in the message", () => {
  const guard = new PagingGuard("the list", roomy);
  const long = "x".repeat(100_000);
  guard.beforePage(long);
  guard.afterPage(1);
  const error = thrown(() => guard.beforePage(long));
  assert.ok(error.message.length < 500, `message of ${error.message.length} characters`);
});

Deno.test("paging guard: the defaults are documented ones", () => {
  assert.deepEqual(DEFAULT_PAGING_LIMITS, { maxPages: 10_000, maxItems: 1_000_000, maxMs: 600_000 });
});

Deno.test("pageSignature: ids in order, or undefined when an item has none", () => {
  assert.equal(pageSignature([{ id: "a" }, { id: "b" }], (item) => item.id), "a\nb");
  assert.equal(pageSignature([{ id: "a" }, {}], (item: { id?: string }) => item.id), undefined);
  assert.equal(pageSignature([null, { id: "a" }], (item) => (item as { id: string }).id), undefined);
  assert.equal(pageSignature([], () => "x"), "");
});

Deno.test("offsetPages: yields each page until a short one, and stops a catalog that ignores the offset", async () => {
  const asked: number[] = [];
  const pages: string[][] = [];
  const walk = offsetPages(
    new PagingGuard("the terms", roomy),
    2,
    (offset) => {
      asked.push(offset);
      return Promise.resolve(["a", "b", "c", "d", "e"].slice(offset, offset + 2));
    },
    (item) => item,
  );
  for await (const page of walk) pages.push(page);
  assert.deepEqual(asked, [0, 2, 4]);
  assert.deepEqual(pages, [["a", "b"], ["c", "d"], ["e"]]);

  const ignoring = offsetPages(
    new PagingGuard("the terms", roomy),
    2,
    () => Promise.resolve(["a", "b"]),
    (item) => item,
  );
  await assert.rejects(
    async () => {
      for await (const _ of ignoring) { /* drain */ }
    },
    (error) =>
      error instanceof PagingError && /after 2 pages and 4 items .*same page again/.test(error.message),
  );
});
