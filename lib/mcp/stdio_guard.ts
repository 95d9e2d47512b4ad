/**
 * What the SDK's stdio transport drops in silence, answered: a line that is not JSON (-32700), a value that
 * is not a JSON-RPC message, such as a request without `method` (-32600), and a batch. Batching was removed
 * from MCP in revision 2025-06-18 ("Remove support for JSON-RPC batching",
 * https://modelcontextprotocol.io/specification/2025-06-18/changelog): a session that negotiated 2025-06-18
 * or later, or has not negotiated yet, gets one -32600 error (id null) for the batch. An older session
 * (2025-03-26 allowed batches) has each message of the batch handled as if sent alone, and answered alone.
 *
 * @module
 */

/** The first protocol revision without JSON-RPC batches. */
export const NO_BATCH_SINCE = "2025-06-18";

export interface StdioGuardOptions {
  /** Writes one serialized answer, line end included (stdout). */
  write(text: string): void;
  /** Passes a well-formed message line (line end included) to the server. */
  forward(line: Uint8Array): void;
  /** The protocol versions the server accepts; a requested version outside them negotiates `latest`. */
  supportedProtocolVersions: readonly string[];
  latestProtocolVersion: string;
}

export interface StdioGuard {
  /** Client bytes, in order, in chunks of any size. */
  push(bytes: Uint8Array): void;
  /** The input ended: handles a last line without a line end. */
  end(): void;
}

const NEWLINE = 0x0a;
type Message = Record<string, unknown>;

/** A filter between the client's input and the server; see the module documentation. */
export function createStdioGuard(options: StdioGuardOptions): StdioGuard {
  return new LineGuard(options);
}

class LineGuard implements StdioGuard {
  readonly #options: StdioGuardOptions;
  readonly #decoder = new TextDecoder();
  readonly #encoder = new TextEncoder();
  #partial: Uint8Array = new Uint8Array(0);
  #protocolVersion: string | undefined;
  // Errors go out after the answers the server writes for the messages before them (`initialize`, whose
  // answer a client reads first): the server answers in promise jobs, which all run before a timer.
  readonly #errors: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StdioGuardOptions) {
    this.#options = options;
  }

  push(bytes: Uint8Array): void {
    let chunk = this.#partial.length > 0 ? concat(this.#partial, bytes) : bytes;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE)) {
      this.#handle(chunk.slice(0, end + 1));
      chunk = chunk.subarray(end + 1);
    }
    this.#partial = chunk.slice();
  }

  end(): void {
    if (this.#partial.length > 0) this.#handle(this.#partial);
    this.#partial = new Uint8Array(0);
    this.#flush();
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const text of this.#errors.splice(0)) this.#options.write(text);
  }

  #fail(id: unknown, code: number, message: string): void {
    this.#errors.push(
      JSON.stringify({ jsonrpc: "2.0", id: validId(id) ? id : null, error: { code, message } }) + "\n",
    );
    this.#timer ??= setTimeout(() => this.#flush(), 0);
  }

  #handle(line: Uint8Array): void {
    const text = this.#decoder.decode(line).trim();
    if (text === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#fail(null, -32700, "Parse error: the line is not valid JSON (one JSON-RPC message per line).");
      return;
    }
    if (!Array.isArray(value)) {
      if (this.#acceptable(value)) this.#options.forward(this.#encoder.encode(text + "\n"));
      return;
    }
    const version = this.#protocolVersion;
    if (version === undefined || version >= NO_BATCH_SINCE) {
      this.#fail(
        null,
        -32600,
        `Invalid Request: MCP has no JSON-RPC batches since revision ${NO_BATCH_SINCE} and this session ` +
          `${version ? `uses ${version}` : "has not negotiated a revision (initialize first)"}; ` +
          "send one message per line.",
      );
      return;
    }
    if (value.length === 0) {
      this.#fail(null, -32600, "Invalid Request: an empty batch.");
      return;
    }
    for (const item of value) {
      if (this.#acceptable(item)) this.#options.forward(this.#encoder.encode(JSON.stringify(item) + "\n"));
    }
  }

  /** Checks one message; true when it may go on to the server. */
  #acceptable(value: unknown): boolean {
    if (!isObject(value)) {
      this.#fail(null, -32600, "Invalid Request: a JSON-RPC message is a JSON object.");
      return false;
    }
    if (value.jsonrpc !== "2.0") {
      this.#fail(value.id, -32600, 'Invalid Request: "jsonrpc" must be "2.0".');
      return false;
    }
    if ("method" in value) return this.#acceptableRequest(value);
    // An answer to one of the server's requests (roots/list).
    if (("result" in value || "error" in value) && "id" in value) return true;
    this.#fail(value.id, -32600, 'Invalid Request: the message has no "method".');
    return false;
  }

  /** A request or notification: a string method, a valid id; `initialize` fixes the session's revision. */
  #acceptableRequest(value: Message): boolean {
    if (typeof value.method !== "string") {
      this.#fail(value.id, -32600, 'Invalid Request: "method" must be a string.');
      return false;
    }
    if ("id" in value && !validId(value.id)) {
      this.#fail(null, -32600, 'Invalid Request: "id" must be a string or an integer.');
      return false;
    }
    if (value.method === "initialize" && this.#protocolVersion === undefined && isObject(value.params)) {
      const requested = value.params.protocolVersion;
      this.#protocolVersion =
        typeof requested === "string" && this.#options.supportedProtocolVersions.includes(requested)
          ? requested
          : this.#options.latestProtocolVersion;
    }
    return true;
  }
}

function validId(id: unknown): boolean {
  return typeof id === "string" || Number.isInteger(id);
}

function isObject(value: unknown): value is Message {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
