/**
 * What the stdio fast start (fast_start.ts) reads of a client's line: the message, and whether it is of a
 * kind the fast start answers exactly as the real server would.
 *
 * @module
 */

export type Message = Record<string, unknown>;

/** The JSON-RPC message of a line, or undefined for a line that holds none. */
export function parseLine(line: Uint8Array, decoder: TextDecoder): Message | undefined {
  try {
    const value = JSON.parse(decoder.decode(line));
    return isObject(value) && value.jsonrpc === "2.0" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A well-formed JSON-RPC request: a method and an id that is a string or an integer. */
export function isRequest(message: Message): boolean {
  const id = message.id;
  return typeof message.method === "string" && (typeof id === "string" || Number.isInteger(id));
}

/** A well-formed notification: no answer will come for it, so later requests need not wait behind it. */
export function isNotification(message: Message): boolean {
  return typeof message.method === "string" && !("id" in message);
}

export function isObject(value: unknown): value is Message {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

/**
 * An `initialize` the SDK certainly accepts: the usual shape, with each capability an object. Anything
 * else goes to the real server, which answers (or refuses) it as it always does.
 */
export function isPlainInitialize(params: Message | undefined): boolean {
  if (!isObject(params) || typeof params.protocolVersion !== "string") return false;
  const { capabilities, clientInfo } = params;
  if (!isObject(capabilities) || !Object.values(capabilities).every(isObject)) return false;
  if (
    isObject(capabilities.roots) && !["undefined", "boolean"].includes(typeof capabilities.roots.listChanged)
  ) {
    return false;
  }
  return isObject(clientInfo) && typeof clientInfo.name === "string" &&
    typeof clientInfo.version === "string" &&
    optionalString(clientInfo.title);
}

/**
 * A `tools/call` the fast calls run exactly as the real server would: a listed tool, arguments an object,
 * `_meta` at most a progress token. Anything else (other params, a task request) goes to the real server.
 */
export function isPlainToolCall(params: Message | undefined, listed: Set<string>): boolean {
  if (!isObject(params) || typeof params.name !== "string" || !listed.has(params.name)) return false;
  if (params.arguments !== undefined && !isObject(params.arguments)) return false;
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isObject(meta) || Object.keys(meta).some((key) => key !== "progressToken")) return false;
    if (!["undefined", "string", "number"].includes(typeof meta.progressToken)) return false;
  }
  return Object.keys(params).every((key) => key === "name" || key === "arguments" || key === "_meta");
}
