import assert from "node:assert/strict";
import { UsageError } from "../../../lib/core/errors.ts";
import { HttpClient } from "../../../lib/http/client.ts";
import type { QueryValue } from "../../../lib/http/request_url.ts";
import { fc, propertyRuns } from "../../support/property.ts";

const BASE = "http://127.0.0.1:8085";

function urlOf(
  path: string,
  query?: Record<string, QueryValue>,
  apiVersion?: string | false,
  configured: string | undefined = "2023-09-01",
): string {
  const http = new HttpClient({ baseUrls: { datamap: BASE }, apiVersions: { datamap: configured } });
  return http.url({ path, query, apiVersion }).toString();
}

/** How the query was built before it was built once: each parameter set on `url.searchParams` in turn. */
function oneAtATime(
  path: string,
  query: Record<string, QueryValue> | undefined,
  apiVersion: string | undefined,
): string {
  const url = new URL(BASE + path);
  if (apiVersion) url.searchParams.set("api-version", apiVersion);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) { for (const item of value) url.searchParams.append(key, String(item)); }
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

Deno.test("a lookup's 50 names follow the api-version in order, form-encoded", () => {
  const names: Record<string, QueryValue> = {};
  for (let i = 1; i <= 50; i++) names[`attr_${i}:qualifiedName`] = `ds://bulk/${i} a&b=c+ü`;
  const url = urlOf("/datamap/api/atlas/v2/entity/bulk/uniqueAttribute/type/DataSet", {
    ...names,
    minExtInfo: true,
    ignoreRelationships: true,
  });
  const search = new URL(url).search;
  assert.ok(
    search.startsWith(
      "?api-version=2023-09-01&attr_1%3AqualifiedName=ds%3A%2F%2Fbulk%2F1+a%26b%3Dc%2B%C3%BC&",
    ),
  );
  assert.ok(
    search.endsWith(
      "&attr_50%3AqualifiedName=ds%3A%2F%2Fbulk%2F50+a%26b%3Dc%2B%C3%BC&minExtInfo=true" +
        "&ignoreRelationships=true",
    ),
  );
  assert.equal(new URL(url).searchParams.getAll("attr_7:qualifiedName")[0], "ds://bulk/7 a&b=c+ü");
});

Deno.test("arrays repeat, undefined and empty arrays are left out, numbers and booleans are text", () => {
  assert.equal(
    urlOf("/x", { guid: ["a", "b", 3], skip: undefined, none: [], limit: 10, deep: false }),
    `${BASE}/x?api-version=2023-09-01&guid=a&guid=b&guid=3&limit=10&deep=false`,
  );
});

Deno.test("the api-version: the request's own, none with false, and a query's api-version replaces it in place", () => {
  assert.equal(urlOf("/x", { a: "1" }, "2025-09-15-preview"), `${BASE}/x?api-version=2025-09-15-preview&a=1`);
  assert.equal(urlOf("/x", { a: "1" }, false), `${BASE}/x?a=1`);
  assert.equal(urlOf("/x", { a: "1", "api-version": "v2" }), `${BASE}/x?api-version=v2&a=1`);
  assert.equal(urlOf("/x", undefined, false), `${BASE}/x`);
});

Deno.test("a path's own query is kept as written unless a parameter is set, then set parameters replace its keys", () => {
  // Nothing set: the path's query is not re-encoded.
  assert.equal(urlOf("/x?b=1%202&c", { skip: undefined }, false), `${BASE}/x?b=1%202&c`);
  // A key of the path's query given again replaces the first in place and drops the rest; arrays append.
  assert.equal(
    urlOf("/x?b=1&k=old&b=2&k=older", { k: "new", b: ["3"] }, false),
    `${BASE}/x?b=1&k=new&b=2&b=3`,
  );
  assert.equal(urlOf("/x?api-version=old&z=1", {}, "v9"), `${BASE}/x?api-version=v9&z=1`);
});

Deno.test("the query is the same as setting each parameter on url.searchParams in turn (property)", () => {
  const text = fc.string({ unit: "binary", maxLength: 8 });
  const key = fc.oneof(fc.constantFrom("a", "b", "api-version", "attr_1:qualifiedName", "1", "0"), text);
  const value = fc.oneof(
    fc.constant(undefined),
    text,
    fc.integer(),
    fc.boolean(),
    fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }),
  );
  const pathQuery = fc.oneof(
    fc.constant(""),
    fc.constant("?"),
    fc.constantFrom("#f", "?a=1#f", " ", "\t", "/%7E~ü", "?a b=c d"),
    text.filter((t) => !t.split("/").some((part) => /^(?:\.|%2e){1,2}$/i.test(part))).map((t) => `/${t}`),
    fc.array(fc.tuple(key, text), { maxLength: 3 }).map((pairs) =>
      "?" + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
    ),
  );
  fc.assert(
    fc.property(
      pathQuery,
      fc.option(fc.constantFrom("2023-09-01", "", "v 2"), { nil: undefined }),
      fc.option(fc.dictionary(key, value, { maxKeys: 6 }), { nil: undefined }),
      (search, apiVersion, query) => {
        assert.equal(
          urlOf(`/p${search}`, query, apiVersion ?? false, undefined),
          oneAtATime(`/p${search}`, query, apiVersion),
        );
      },
    ),
    propertyRuns(),
  );
});

Deno.test("a path segment of . or .. (any spelling) is refused before anything is sent; dots within a name are not", () => {
  for (
    const [path, shown] of [
      ["/collections/..", ".."],
      ["/collections/%2E%2e/x", ".."],
      ["/entity/guid/.", "."],
      ["/a/%2e/b", "."],
    ]
  ) {
    assert.throws(() => urlOf(path), (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(
        error.message,
        `"${shown}" is not a valid name or id: in the request path ${path} it would address another resource.`,
      );
      assert.match(error.hint ?? "", /GUID or name of the resource itself/);
      return true;
    });
  }
  assert.equal(urlOf("/glossary/.../a..b/.x", undefined, false), `${BASE}/glossary/.../a..b/.x`);
});
