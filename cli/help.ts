/**
 * `--help` texts at every level, generated from the operation registry.
 *
 * @module
 */
import { CONFIG_VARIABLES } from "../lib/config.ts";
import { inputFields } from "../lib/operations/fields.ts";
import type { OperationRegistry } from "../lib/operations/registry.ts";
import type { Operation } from "../lib/operations/types.ts";
import { VERSION } from "../lib/version.ts";

/** Commands that are not catalog operations. */
export const BUILTIN_COMMANDS: ReadonlyArray<{ name: string; summary: string }> = [
  { name: "serve", summary: "Run the MCP tool server (stdio, streamable HTTP, SSE, hosted)" },
  { name: "emulator", summary: "Run the local catalog emulator on 127.0.0.1" },
];

const GLOBAL_OPTIONS = [
  ["--output=json|table|csv|tsv, -o", "Output format of data (default json)"],
  ["--query=JMESPATH", "JMESPath applied to the result before formatting, e.g. --query='value[].name'"],
  ["--verbose, -v", "Log requests (method, URL, status, timing) to stderr"],
  ["--profile=NAME", "Connection profile to use [CATALOG_PROFILE, else the default profile]"],
  ["--help, -h", "Show help"],
];

export function topLevelHelp(registry: OperationRegistry): string {
  const width = Math.max(
    ...registry.groups().map((g) => g.name.length),
    ...BUILTIN_COMMANDS.map((c) => c.name.length),
  );
  const lines = [
    `govcat ${VERSION}: data-governance catalog client and MCP tool server (Microsoft Purview)`,
    "",
    "Usage: govcat <group> <command> [--option=value ...]",
    "       govcat serve [--transport=stdio|streamable-http|sse] | govcat emulator [--port=N]",
    "",
    "Commands:",
    ...BUILTIN_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Groups:",
    ...registry.groups().map((g) => {
      const count = registry.inGroup(g.name).length;
      return `  ${g.name.padEnd(width)}  ${g.summary}${count === 0 ? " (no commands in this version)" : ""}`;
    }),
    "",
    "Options (before or after the command):",
    ...formatPairs([...GLOBAL_OPTIONS, ["--version", "Print the version"]]),
    "",
    "Configuration comes from environment variables:",
    ...formatPairs(
      CONFIG_VARIABLES.map((v) => [v.name, `${v.meaning}${v.default ? ` [${v.default}]` : ""}`]),
    ),
    "",
    'Run "govcat <group> --help" for a group\'s commands.',
  ];
  return lines.join("\n");
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

function formatPairs(pairs: ReadonlyArray<ReadonlyArray<string>>): string[] {
  const width = Math.min(40, Math.max(...pairs.map(([left]) => left.length)));
  return pairs.map(([left, right]) =>
    left.length > width ? `  ${left}\n  ${" ".repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`
  );
}
