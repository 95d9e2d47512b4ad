/**
 * Tool results: `structuredContent` matching the declared output schema plus the same JSON as text, or
 * an `isError` result carrying the service's status, code, message and a hint — never a secret.
 *
 * @module
 */
import type { CallToolResult } from "../deps/mcp_sdk.ts";
import { CatalogError, GovcatError } from "../errors.ts";
import { redactSecrets } from "../log.ts";

/** A successful result. */
export function successResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** The JSON an error result carries. */
export interface ToolErrorBody {
  error: string;
  message: string;
  status?: number;
  code?: string;
  requestId?: string;
  hint?: string;
}

/** A failed call, described so a model can act on it (fix the input, search first, ask for a role). */
export function errorResult(body: ToolErrorBody, secrets: Iterable<string> = []): CallToolResult {
  const list = [...secrets];
  const clean: ToolErrorBody = {
    ...body,
    message: redactSecrets(body.message, list),
    hint: body.hint === undefined ? undefined : redactSecrets(body.hint, list),
  };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(clean) }] };
}

/** Turns anything a handler threw into an error body. */
export function describeError(error: unknown): ToolErrorBody {
  if (error instanceof CatalogError) {
    return {
      error: error.name,
      message: error.message,
      status: error.status || undefined,
      code: error.code,
      requestId: error.requestId,
      hint: error.hint,
    };
  }
  if (error instanceof GovcatError) return { error: error.name, message: error.message, hint: error.hint };
  return {
    error: "InternalError",
    message: `govcat failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
    hint: "This is a bug in govcat; the server log has the details.",
  };
}
