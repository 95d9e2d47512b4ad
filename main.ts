#!/usr/bin/env -S deno run --allow-net --allow-env --allow-read --allow-write --allow-run
/**
 * govcat's program entry: `govcat <group> <command> --opt=value`, `govcat serve`, `govcat emulator`.
 *
 * @module
 */
import { runCli } from "./cli/run.ts";

if (import.meta.main) {
  Deno.exit(await runCli(Deno.args));
}
