/**
 * Generates `lib/generated/help_data.json`, what `govcat --help` on its own is answered from (`cli/top_help.ts`):
 * the live registry's groups in order, each with its number of commands. `deno task docs` rewrites the
 * file; a test fails when it is stale.
 *
 * @module
 */
import type { HelpData } from "../cli/top_help.ts";
import { createOperationRegistry } from "../lib/operations/mod.ts";

/** Where the generated data lives. */
export const HELP_DATA_FILE = new URL("../lib/generated/help_data.json", import.meta.url);

/** The top-level help's data, from the live registry. */
export function generateHelpData(): HelpData {
  const registry = createOperationRegistry();
  return {
    groups: registry.groups().map((group) => ({
      name: group.name,
      summary: group.summary,
      commands: registry.inGroup(group.name).length,
    })),
  };
}

/** The file's text for `data`. */
export function helpDataText(data: HelpData): string {
  return JSON.stringify(data, null, 2) + "\n";
}

/** Rewrites the file if it changed; returns whether it did. */
export async function writeHelpData(): Promise<boolean> {
  const text = helpDataText(generateHelpData());
  let current = "";
  try {
    current = await Deno.readTextFile(HELP_DATA_FILE);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (current === text) return false;
  await Deno.writeTextFile(HELP_DATA_FILE, text);
  return true;
}

if (import.meta.main) {
  console.log(
    await writeHelpData()
      ? "lib/generated/help_data.json updated"
      : "lib/generated/help_data.json is current",
  );
}
