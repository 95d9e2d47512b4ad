/**
 * The README's command reference, rendered from the operation registry (see `tools/readme_sections.ts`).
 *
 * @module
 */
import { markdownTable } from "./readme_sections.ts";
import { inputFields } from "../lib/operations/fields.ts";
import { createOperationRegistry } from "../lib/operations/mod.ts";
import type { OperationRegistry } from "../lib/operations/registry.ts";

/** One row per command: the command with its aliases, its options (required ones first), what it does. */
export function renderCommandTable(registry: OperationRegistry = createOperationRegistry()): string {
  const rows = registry.all().map((op) => {
    const fields = inputFields(op.input);
    const options = [
      ...(op.positionals ?? []).map((p) => `<${p}>`),
      ...fields.filter((f) => f.required && !op.positionals?.includes(f.name)).map((f) => `--${f.flag}`),
      ...fields.filter((f) => !f.required && !op.positionals?.includes(f.name)).map((f) => `[--${f.flag}]`),
    ].join(" ");
    const aliases = op.aliases?.length ? ` (also ${op.aliases.map((a) => `\`${a}\``).join(", ")})` : "";
    return [`\`${op.group} ${op.command}\`${aliases}`, options, op.summary];
  });
  return markdownTable(["Command", "Options", "What it does"], rows);
}
