#!/usr/bin/env -S deno run --allow-net --allow-env --allow-read --allow-write --allow-run
/**
 * govcat's program entry: `govcat <group> <command> --opt=value`, `govcat serve`, `govcat emulator`.
 *
 * @module
 */

/**
 * The permissions every command needs, not granted: reading its own modules (when they are local files)
 * and the environment (the configuration). Asked first, so a bare `deno run main.ts` gets a plain answer
 * instead of a stack trace from deep inside.
 */
function missingPermissions(): string[] {
  const missing: string[] = [];
  const here = new URL(".", import.meta.url);
  const read = here.protocol === "file:"
    ? Deno.permissions.querySync({ name: "read", path: here })
    : undefined;
  if (read && read.state !== "granted") missing.push("--allow-read");
  if (Deno.permissions.querySync({ name: "env" }).state !== "granted") missing.push("--allow-env");
  return missing;
}

/** `serve`'s own arguments when global options come first (`govcat --profile prod serve`), else undefined. */
async function serveAfterGlobals(args: string[]): Promise<string[] | undefined> {
  if (!args[0]?.startsWith("-")) return undefined;
  const { builtinArgs, takeLeadingGlobals } = await import("./cli/global_options.ts");
  try {
    const leading = takeLeadingGlobals(args);
    if (leading.rest[0] !== "serve") return undefined;
    return [...builtinArgs(leading.global, "serve"), ...leading.rest.slice(1)];
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const missing = missingPermissions();
  if (missing.length > 0) {
    console.error(
      `error: govcat needs ${missing.join(" and ")}. Run it as\n` +
        "  deno run --allow-net --allow-env --allow-read --allow-write main.ts …\n" +
        "(add --allow-run=az,azd to sign in through the Azure CLI), or with -A.",
    );
    Deno.exit(2);
  }
  const first = Deno.args[0];
  // Answered without loading the CLI's modules (zod, the option parser); cli/run.ts answers the same way
  // when the version is asked after a global option. Not loaded at all for serve, whose start is timed.
  if (first !== "serve") {
    const { asksForVersion, VERSION_LINE } = await import("./lib/core/version.ts");
    if (asksForVersion(first)) {
      Deno.stdout.writeSync(new TextEncoder().encode(`${VERSION_LINE}\n`));
      Deno.exit(0);
    }
  }
  // `govcat --help` alone (or a bare `govcat`) is answered from generated group counts, without loading
  // the operation registry (cli/top_help.ts); the text is the one cli/run.ts prints.
  if (Deno.args.length === 0 || (Deno.args.length === 1 && ["--help", "-h", "help"].includes(first))) {
    const { HELP_DATA, topLevelHelpText } = await import("./cli/top_help.ts");
    const bytes = new TextEncoder().encode(`${topLevelHelpText(HELP_DATA.groups)}\n`);
    for (let written = 0; written < bytes.length;) written += Deno.stdout.writeSync(bytes.subarray(written));
    Deno.exit(0);
  }
  // `govcat serve` over stdio answers the MCP handshake before the CLI's modules load (cli/serve_fast.ts);
  // undefined means the ordinary path runs, which also reports any bad option.
  const serveArgs = first === "serve" ? Deno.args.slice(1) : await serveAfterGlobals(Deno.args);
  const fast = serveArgs
    ? await (await import("./cli/serve_fast.ts")).runServeFastStart(serveArgs, Deno.env.toObject())
    : undefined;
  Deno.exit(fast ?? await (await import("./cli/run.ts")).runCli(Deno.args));
}
