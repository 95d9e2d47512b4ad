/**
 * The one GUID form: the whole value is a GUID, so nothing rides in before or after one (a path segment, a
 * second id, a line break), whichever layer checks it.
 */
import assert from "node:assert/strict";
import { GUID_PATTERN, isGuid } from "../../../lib/core/guid.ts";
import { runGovcat } from "../../support/govcat_process.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

const GUID = "ca7a1000-0000-4000-8000-000000000001";

Deno.test("isGuid takes a whole GUID in either case and nothing with characters before or after it", () => {
  assert.ok(isGuid(GUID) && isGuid(GUID.toUpperCase()));
  for (
    const bad of [
      `${GUID}x`,
      `${GUID}/..`,
      `${GUID}%2F..`,
      `${GUID}\n`,
      `${GUID} `,
      `${GUID},${GUID}`,
      `x${GUID}`,
      `/${GUID}`,
      `{${GUID}}`,
      GUID.slice(0, -1),
    ]
  ) {
    assert.equal(isGuid(bad), false, JSON.stringify(bad));
  }
  assert.equal(isGuid(1), false);
  assert.equal(GUID_PATTERN.flags, "", "no flags: the JSON Schema of the tools means the same");
});

Deno.test("the command line refuses a GUID option with a trailing path before sending anything", async () => {
  const catalog = startLocalServer(() => json(200, { entity: { guid: GUID } }));
  try {
    for (const guid of [`${GUID}/../../types/typedefs`, `${GUID}x`]) {
      const result = await runGovcat(["entity", "get", `--guid=${guid}`], { CATALOG_ENDPOINT: catalog.url });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /--guid.*must be a GUID/s);
    }
    assert.equal(catalog.requests.length, 0, "nothing reached the catalog");
  } finally {
    await catalog.close();
  }
});
