/**
 * Protocol-level answers of the tool server: errors with exactly the message given, and the check of a
 * `tools/call`'s params before the SDK's own (which would answer -32603 with a zod dump).
 *
 * @module
 */
import type { JSONRPCMessage, Server } from "../deps/mcp_sdk.ts";

/**
 * JSON-RPC 2.0's code for invalid method parameters (JSON-RPC 2.0 §5.1), as the SDK's `ErrorCode.InvalidParams`;
 * spelled here so the tool-call path loads none of the SDK (the stdio fast start runs it without the SDK).
 */
export const INVALID_PARAMS = -32602;

/** JSON-RPC 2.0's code for an internal error (JSON-RPC 2.0 §5.1): the SDK's answer to a handler that throws. */
export const INTERNAL_ERROR = -32603;

/**
 * An error answered with `code` and exactly `message`. The SDK's McpError puts "MCP error <code>: " in
 * its message, which goes on the wire, and a client that wraps the answer in its own McpError prefixes it
 * again ("MCP error -32602: MCP error -32602: Unknown tool").
 */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/**
 * Answers a `tools/call` whose params are missing or have no tool name with -32602 and a readable
 * message. The SDK would answer -32603 with the whole zod error as the message: its schema check runs
 * before any handler, so the check sits on the transport's way in, for every transport.
 */
export function guardToolCalls(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (!deliver) return;
    transport.onmessage = (message, extra) => {
      const problem = toolCallProblem(message);
      if (problem === undefined || !("id" in message)) return deliver(message, extra);
      // After a timer, as the SDK's answers to the requests before it (which come in promise jobs).
      setTimeout(() =>
        transport.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: INVALID_PARAMS, message: problem },
        })
          .catch((error) => server.onerror?.(error as Error)), 0);
    };
  };
}

function toolCallProblem(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || message.method !== "tools/call") return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return 'Invalid params: tools/call needs params {"name": "<tool name>", "arguments": {...}}; ' +
      "the tool names are in tools/list.";
  }
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== "string") {
    return 'Invalid params: tools/call needs "name", the name of a tool from tools/list, as a string.';
  }
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    return `Invalid params: the "arguments" of ${name} must be an object of argument names and values.`;
  }
  return undefined;
}
