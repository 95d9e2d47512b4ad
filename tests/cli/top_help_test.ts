import assert from "node:assert/strict";
import { topLevelHelp } from "../../cli/help.ts";
import { HELP_DATA, topLevelHelpText } from "../../cli/top_help.ts";
import { createOperationRegistry } from "../../lib/operations/mod.ts";
import { runGovcat } from "../support/govcat_process.ts";
import { staticGraph } from "../support/module_graph.ts";

Deno.test("top help: the text from the generated group counts is the live registry's", () => {
  assert.equal(topLevelHelpText(HELP_DATA.groups), topLevelHelp(createOperationRegistry()));
});

Deno.test("top help: govcat --help, -h, help and a bare govcat print the live registry's help, exit 0", async () => {
  const expected = topLevelHelp(createOperationRegistry()) + "\n";
  for (const args of [["--help"], ["-h"], ["help"], []]) {
    const result = await runGovcat(args);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, expected, `govcat ${args.join(" ")}`);
    assert.equal(result.stderr, "");
  }
});

Deno.test("top help: its module loads no operation and no zod", async () => {
  const graph = await staticGraph("cli/top_help.ts", { typesToo: false });
  const heavy = [...graph].filter((specifier) => /\/lib\/operations\/|npm:|zod/.test(specifier));
  assert.deepEqual(heavy, []);
});
