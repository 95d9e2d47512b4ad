/**
 * One `tools/call` of a session: the arguments checked against the tool's schema (unknown names refused,
 * enum values in any letter case), the tool run with the session's services and its client's roots, its
 * result checked against its output schema, secrets masked, and the call audited.
 *
 * @module
 */
import type { CallToolRequest, CallToolResult } from "../deps/mcp_sdk.ts";
import { canonicalEnums } from "../operations/fields.ts";
import { assertRenderableDepth } from "../core/json_depth.ts";
import type { FileAccess } from "../files/file_access.ts";
import { didYouMean } from "../core/suggest.ts";
import { readUserFile } from "../files/user_files.ts";
import { auditRecord, writeAuditLine } from "./auth/audit.ts";
import { userPermissionHint } from "./auth/user_services.ts";
import { mcpProgressSink } from "./progress.ts";
import { INVALID_PARAMS, protocolError } from "./protocol_errors.ts";
import { type CallExtra, callLog, callLogSender, outsideCalls, type SessionLog } from "./session_log.ts";
import type { AskUser } from "./elicitation.ts";
import type { ToolDefinition, ToolServices } from "./tool.ts";
import { unknownArgumentsProblem } from "./tool_arguments.ts";
import { describeError, errorResult, successResult, type ToolErrorBody } from "./tool_result.ts";
import { takesResourceLinks } from "./resource_links.ts";
import type { ToolSelection } from "./tool_selection.ts";

/** What a session's tools/call handler works with, built once per server. */
export interface ToolSession {
  services: ToolServices;
  /** The services before the session's user was applied: where audit lines are written. */
  baseServices: ToolServices;
  selection: ToolSelection;
  byName: Map<string, ToolDefinition>;
  /** Masked in every error result. */
  secrets: string[];
  /** The file access of each call under the roots its client declares (no configured file root). */
  roots?: { access(requestId?: string | number): FileAccess };
  log: SessionLog;
  /** How a call asks its user to confirm a change; absent, or answering undefined, where nobody can be. */
  askUser?: (extra: CallExtra, toolName: string) => AskUser | undefined;
  /**
   * The revision the session negotiated, when the server saw its `initialize`; otherwise a request's
   * `MCP-Protocol-Version` header says it (hosted mode).
   */
  protocolVersion?: () => string | undefined;
}

/** One tools/call: the arguments checked, the tool run, its result checked against its schema, audited. */
export async function callTool(
  session: ToolSession,
  request: CallToolRequest,
  extra: CallExtra,
): Promise<CallToolResult> {
  const { services, selection, byName, secrets, roots } = session;
  const { name, arguments: args } = request.params;
  const sendLog = callLogSender(session.log, services, name, extra);
  // Who did what (signed-in sessions): on stderr, and to a client that asked for log messages.
  const audit = (failure?: ToolErrorBody) => {
    const record = auditRecord(services, name, args, failure);
    if (!record) return;
    writeAuditLine(session.baseServices, record);
    if (session.log.set) sendLog.send("notice", JSON.stringify(record));
  };
  // A call refused before it runs is audited too: someone tried it.
  const refused = (body: ToolErrorBody) => {
    audit(body);
    return errorResult(body, secrets);
  };
  const tool = byName.get(name);
  if (!tool) {
    const reason = selection.disabled.get(name);
    if (reason) return refused({ error: "ToolDisabled", message: reason });
    throw protocolError(INVALID_PARAMS, `Unknown tool: ${name}.${didYouMean(name, byName.keys())}`);
  }
  const parsed = checkedArguments(tool, name, args ?? {});
  if ("error" in parsed) return refused(parsed);
  const started = performance.now();
  const progress = mcpProgressSink(extra, {
    onError: (error) =>
      outsideCalls(() => services.logger.debug(`${name}: progress notification not sent: ${error}`)),
  });
  try {
    const callServices = roots ? withFiles(services, roots.access(extra.requestId)) : services;
    const value = await callLog.run(
      sendLog.send,
      () =>
        tool.handler({
          services: callServices,
          signal: extra.signal,
          progress,
          askUser: session.askUser?.(extra, name),
        }, parsed.data),
    );
    // The schema check and the JSON text of the result recurse: a result too deep for them is an error.
    assertRenderableDepth(value);
    const checked = tool.output.safeParse(value);
    if (!checked.success) {
      services.logger.error(`${name} returned output outside its schema: ${checked.error.message}`);
      const body = describeError(new Error(`${name} produced an invalid result`));
      audit(body);
      return errorResult(body, secrets);
    }
    services.logger.debug(`tool ${name} ok in ${Math.round(performance.now() - started)} ms`);
    audit();
    return successResult(checked.data, secrets, linksFor(session, extra) ? tool.links : undefined);
  } catch (error) {
    const body = userPermissionHint(services, describeError(error));
    audit(body);
    if (body.error === "InternalError") {
      services.logger.error(`${name} failed: ${(error as Error)?.stack ?? error}`);
    } else services.logger.debug(`tool ${name} failed: ${body.error} ${body.message}`);
    return errorResult(body, secrets);
  } finally {
    // The last progress notification goes out before the result, which ends the client's interest.
    progress?.finish();
    await progress?.settled();
    sendLog.end();
  }
}

/** The call's arguments parsed by the tool's schema, or why they are refused (unknown names, bad values). */
function checkedArguments(
  tool: ToolDefinition,
  name: string,
  args: Record<string, unknown>,
): { data: Record<string, unknown> } | ToolErrorBody {
  const unknown = unknownArgumentsProblem(Object.keys(tool.input.shape), args, name);
  if (unknown) {
    return {
      error: "InvalidArguments",
      message: unknown,
      hint: "Check the tool's input schema in tools/list and call it again with those names.",
    };
  }
  // Enum values in any letter case, passed on as the schema spells them (as on the command line).
  const parsed = tool.input.safeParse(canonicalEnums(tool.input, args));
  if (parsed.success) return { data: parsed.data };
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message
  );
  return {
    error: "InvalidArguments",
    message: `Invalid arguments for ${name}: ${problems.join("; ")}.`,
    hint: "Check the tool's input schema in tools/list and call it again.",
  };
}

/** Whether the client of this call takes `resource_link` items (MCP 2025-06-18 and later). */
function linksFor(session: ToolSession, extra: CallExtra): boolean {
  const headers = (extra as { requestInfo?: { headers?: Record<string, unknown> } }).requestInfo?.headers;
  const named = headers?.["mcp-protocol-version"];
  return takesResourceLinks(session.protocolVersion?.() ?? (typeof named === "string" ? named : undefined));
}

/** `services` with `files` as the file access of the operations its tools run. */
function withFiles(services: ToolServices, files: FileAccess): ToolServices {
  return {
    ...services,
    operationContext: (signal, progress) => ({
      ...services.operationContext(signal, progress),
      files,
      readTextFile: (path, option) => readUserFile(path, option, files),
    }),
  };
}
