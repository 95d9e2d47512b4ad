/**
 * `--help` texts at every level, generated from the operation registry.
 *
 * @module
 */
import { inputFields } from "../lib/operations/fields.ts";
import type { OperationRegistry } from "../lib/operations/registry.ts";
import type { Operation } from "../lib/operations/types.ts";
import { formatPairs, GLOBAL_OPTIONS, topLevelHelpText } from "./top_help.ts";

export { BUILTIN_COMMANDS } from "./top_help.ts";

/** The top-level help of `registry` (`govcat --help` alone is answered from generated counts: top_help.ts). */
export function topLevelHelp(registry: OperationRegistry): string {
  return topLevelHelpText(
    registry.groups().map((g) => ({ ...g, commands: registry.inGroup(g.name).length })),
  );
}

/** The commands of a group, or only those starting with `prefix` (`term ` for `govcat uc term`). */
export function groupHelp(registry: OperationRegistry, group: string, prefix = ""): string {
  const info = registry.group(group)!;
  const operations = registry.inGroup(info.name).filter((op) => op.command.startsWith(prefix));
  const lines = [
    `govcat ${info.name}: ${info.summary}`,
    "",
    `Usage: govcat ${info.name} <command> [--option=value ...]`,
    "",
  ];
  if (operations.length === 0) {
    lines.push("This version has no commands in this group yet.");
  } else {
    lines.push("Commands:");
    lines.push(...formatPairs(operations.map((op) => [
      [op.command, ...(op.aliases ?? [])].join(", "),
      `${op.summary}${op.annotations.destructive ? " (destructive)" : ""}`,
    ])));
    lines.push("", `Run "govcat ${info.name} <command> --help" for a command's options.`);
  }
  return lines.join("\n");
}

export function operationHelp(operation: Operation): string {
  const fields = inputFields(operation.input);
  const positionals = (operation.positionals ?? []).map((p) => `<${p}>`).join(" ");
  const lines = [
    `govcat ${operation.group} ${operation.command}: ${operation.summary}`,
    "",
    `Usage: govcat ${operation.group} ${operation.command}${positionals ? ` ${positionals}` : ""} [options]`,
  ];
  if (operation.aliases?.length) lines.push(`Also: ${operation.aliases.join(", ")}`);
  if (operation.description) lines.push("", operation.description);
  const kinds = [
    operation.annotations.readOnly
      ? "read-only"
      : operation.annotations.openWorld
      ? "writes to the catalog"
      : "writes local files only",
    operation.annotations.destructive ? "destructive" : undefined,
    operation.annotations.idempotent ? "idempotent" : undefined,
  ].filter(Boolean);
  lines.push("", `Kind: ${kinds.join(", ")}   Operation id: ${operation.id}`);
  if (operation.annotations.destructive) {
    lines.push(
      "It asks before it runs (y/N) on a terminal; --confirm skips the question, and without a terminal",
      "(scripts, CI) it runs only with --confirm.",
    );
  }
  if (fields.length > 0) {
    lines.push("", "Options:");
    lines.push(...formatPairs(fields.map((f) => {
      const value = f.kind === "boolean" ? "" : f.enum ? `=${f.enum.join("|")}` : `=<${f.kind}>`;
      const notes = [
        f.required ? "required" : undefined,
        f.default !== undefined && !statesItsDefault(f.description)
          ? `default ${JSON.stringify(f.default)}`
          : undefined,
        f.kind === "string-list" ? "repeatable" : undefined,
      ].filter(Boolean);
      return [`--${f.flag}${value}`, `${f.description ?? ""}${notes.length ? ` (${notes.join(", ")})` : ""}`];
    })));
  }
  lines.push("", "Global options:", ...formatPairs(GLOBAL_OPTIONS));
  return lines.join("\n");
}

/**
 * Descriptions such as "fail (default; nothing is changed)" or "(default true)" name their default in
 * words already; a second "(default …)" after them only repeats it.
 */
export function statesItsDefault(description = ""): boolean {
  return /\(default\b|\bdefault\)/i.test(description);
}
