/**
 * The program entry (main.ts) run without the permissions every command needs: a plain message naming
 * them and the command line to use, exit code 2, instead of a stack trace from inside.
 */
import assert from "node:assert/strict";
import { VERSION } from "../../lib/core/version.ts";
import { runGovcat } from "../support/govcat_process.ts";

Deno.test("main.ts without read or env permission says which and how to run it, exit 2", async () => {
  for (
    const [permissions, missing] of [
      [[], "--allow-read and --allow-env"],
      [["--allow-read"], "--allow-env"],
      [["--allow-env"], "--allow-read"],
    ] as const
  ) {
    for (const args of [["--help"], ["serve"], ["search", "query", "--keywords=x"]]) {
      const result = await runGovcat(args, {}, { permissions: [...permissions] });
      assert.equal(result.code, 2, `${permissions.join(" ")} ${args.join(" ")}: ${result.stderr}`);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, new RegExp(`^error: govcat needs ${missing}\\. Run it as\\n`));
      assert.match(result.stderr, /deno run --allow-net --allow-env --allow-read --allow-write main\.ts/);
      assert.doesNotMatch(result.stderr, /Uncaught|at async/);
    }
  }
});

Deno.test("with read and env granted, commands that need nothing more run", async () => {
  const version = await runGovcat(["--version"], {}, { permissions: ["--allow-read", "--allow-env"] });
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), `govcat ${VERSION}`);
  const help = await runGovcat(["entity", "--help"], {}, { permissions: ["--allow-read", "--allow-env"] });
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /govcat entity/);
});
