import assert from "node:assert/strict";
import { HELP_DATA } from "../../cli/top_help.ts";
import { generateHelpData, helpDataText } from "../../tools/help_data.ts";

Deno.test("help_data.json holds the live registry's groups and command counts", () => {
  assert.equal(
    helpDataText(HELP_DATA),
    helpDataText(generateHelpData()),
    "lib/generated/help_data.json is stale; regenerate it: deno run -A tools/help_data.ts (or deno task docs)",
  );
});
