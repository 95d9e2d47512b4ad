/**
 * Who did what: one JSON line per tool call of a signed-in session on stderr, e.g.
 * `{"audit":"tool_call","time":"…","user":{"oid":"…","name":"Ada","tid":"…"},"tool":"delete_entity",
 * "targets":{"guid":"…"},"outcome":"error","status":403,"error":"Forbidden"}`. Targets are the arguments
 * that name catalog objects (GUIDs, ids, qualified names, type names); every other argument value, and
 * every token, stays out of it.
 *
 * @module
 */
import type { ToolServices } from "../tool.ts";
import type { ToolErrorBody } from "../tool_result.ts";
import { sessionUserOf } from "./user_services.ts";

/** Argument names whose values identify what a call acts on. */
const TARGET_ARGUMENT = /^(guids?|ids?|[a-z_]*_(guids?|ids?)|qualified_?names?|type_?names?|collection)$/i;
const MAX_TARGET_VALUES = 20;
const MAX_TARGET_LENGTH = 200;

export interface AuditRecord {
  audit: "tool_call";
  time: string;
  user: { oid: string; name: string; tid: string };
  tool: string;
  targets: Record<string, string | string[]>;
  outcome: "ok" | "error";
  status?: number;
  error?: string;
}

/** The audit record of a call, or undefined when the session has no signed-in user. */
export function auditRecord(
  services: ToolServices,
  tool: string,
  args: unknown,
  failure?: ToolErrorBody,
): AuditRecord | undefined {
  const user = sessionUserOf(services)?.current;
  if (!user) return undefined;
  const record: AuditRecord = {
    audit: "tool_call",
    time: new Date().toISOString(),
    user: { oid: user.objectId, name: user.name, tid: user.tenantId },
    tool,
    targets: targetsOf(args),
    outcome: failure ? "error" : "ok",
  };
  if (failure?.status !== undefined) record.status = failure.status;
  if (failure) record.error = failure.error;
  return record;
}

const writers = new WeakMap<ToolServices, (line: string) => void>();

/** Sends the audit lines of `services` (as made by createToolServices) to `write` instead of stderr. */
export function useAuditWriter(services: ToolServices, write: (line: string) => void): void {
  writers.set(services, write);
}

/** Writes `record` as one line on stderr (or where {@link useAuditWriter} said). */
export function writeAuditLine(services: ToolServices, record: AuditRecord): void {
  const line = JSON.stringify(record);
  const write = writers.get(services);
  if (write) write(line);
  else Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

function targetsOf(args: unknown): Record<string, string | string[]> {
  const targets: Record<string, string | string[]> = {};
  if (typeof args !== "object" || args === null) return targets;
  for (const [name, value] of Object.entries(args)) {
    if (!TARGET_ARGUMENT.test(name)) continue;
    if (typeof value === "string") targets[name] = value.slice(0, MAX_TARGET_LENGTH);
    else if (Array.isArray(value)) {
      targets[name] = value.filter((v) => typeof v === "string").slice(0, MAX_TARGET_VALUES)
        .map((v) => (v as string).slice(0, MAX_TARGET_LENGTH));
    }
  }
  return targets;
}
