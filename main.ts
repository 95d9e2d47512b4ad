#!/usr/bin/env -S deno run --allow-net --allow-env --allow-read --allow-write --allow-run
/**
 * govcat's program entry: `govcat <group> <command> --opt=value`, `govcat serve`, `govcat emulator`.
 *
 * @module
 */

if (import.meta.main) {
  const first = Deno.args[0];
  // Answered without loading the CLI's modules (zod, the option parser); cli/run.ts answers the same way
  // when the version is asked after a global option.
  const { asksForVersion, VERSION_LINE } = await import("./lib/version.ts");
  if (asksForVersion(first)) {
    Deno.stdout.writeSync(new TextEncoder().encode(`${VERSION_LINE}\n`));
    Deno.exit(0);
  }
  // `govcat serve` over stdio answers the MCP handshake before the CLI's modules load (cli/serve_fast.ts);
  // undefined means the ordinary path runs.
  const fast = first === "serve"
    ? await (await import("./cli/serve_fast.ts")).runServeFastStart(Deno.args.slice(1), Deno.env.toObject())
    : undefined;
  Deno.exit(fast ?? await (await import("./cli/run.ts")).runCli(Deno.args));
}
