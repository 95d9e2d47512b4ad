#!/usr/bin/env -S deno run --allow-net --allow-env --allow-read --allow-write --allow-run
/**
 * govcat's program entry: `govcat <group> <command> --opt=value`, `govcat serve`, `govcat emulator`.
 *
 * @module
 */

if (import.meta.main) {
  // `govcat serve` over stdio answers the MCP handshake before the CLI's modules load (cli/serve_fast.ts);
  // undefined means the ordinary path runs.
  const fast = Deno.args[0] === "serve"
    ? await (await import("./cli/serve_fast.ts")).runServeFastStart(Deno.args.slice(1), Deno.env.toObject())
    : undefined;
  Deno.exit(fast ?? await (await import("./cli/run.ts")).runCli(Deno.args));
}
