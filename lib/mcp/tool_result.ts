/**
 * Tool results: `structuredContent` matching the declared output schema plus the same JSON as text, or
 * an `isError` result carrying the service's status, code, message and a hint — never a secret.
 *
 * @module
 */
import type { CallToolResult } from "../deps/mcp_sdk.ts";
import { CatalogError, GovcatError } from "../core/errors.ts";
import { redactSecrets } from "../core/log.ts";
import { MAX_RESOURCE_LINKS, type ResourceLink } from "./resource_links.ts";

/**
 * A successful result: the value as JSON text, then the `resource_link` items `links` makes of it (at most
 * MAX_RESOURCE_LINKS), and the value as `structuredContent`. The server's own secrets (`secrets`: the client secret, the MCP token) are masked
 * wherever they turn up in it, as in errors and on the command line: a catalog description or a setting
 * holding a pasted secret must not reach a model. Only those exact values are masked, so catalog text that
 * merely looks like a credential is returned as it is.
 */
export function successResult(
  value: Record<string, unknown>,
  secrets: Iterable<string> = [],
  links?: (value: Record<string, unknown>) => ResourceLink[],
): CallToolResult {
  const text = JSON.stringify(value);
  // Searched in the text the result is sent as anyway; the result is copied only when one is there.
  const found = [...secrets].filter((secret) =>
    secret.length > 0 && text.includes(JSON.stringify(secret).slice(1, -1))
  );
  const clean = found.length === 0 ? value : maskValues(value, found) as Record<string, unknown>;
  // Made from the masked value, so a link's name or description holds no secret either.
  const linked = links?.(clean).slice(0, MAX_RESOURCE_LINKS) ?? [];
  return {
    content: [{ type: "text", text: found.length === 0 ? text : JSON.stringify(clean) }, ...linked],
    structuredContent: clean,
  };
}

/** `value` with every occurrence of each secret in its strings (keys included) replaced by `***`. */
function maskValues(value: unknown, secrets: string[]): unknown {
  if (typeof value === "string") {
    return secrets.reduce((text, secret) => text.split(secret).join("***"), value);
  }
  if (Array.isArray(value)) return value.map((item) => maskValues(item, secrets));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map((
        [key, item],
      ) => [maskValues(key, secrets) as string, maskValues(item, secrets)]),
    );
  }
  return value;
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
