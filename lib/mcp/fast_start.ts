/**
 * The stdio fast start: answers the MCP handshake (`initialize`, `tools/list`, `ping`) from data generated
 * from the live server (`fast_start_data.json`) while the real server (zod, the SDK, the operation
 * registry: about 200 ms) loads, then hands the session to it. The real server gets the client's
 * `initialize` replayed under a private id, its answer is dropped, and every other message follows in the
 * order it came, so the client sees the same session it would have without the fast start.
 *
 * Only messages whose answer is certain are answered here, and only while no request waits for the real
 * server (so responses keep the order of the requests); anything unusual (a malformed line, an
 * `initialize` with parameters the SDK might refuse, a second `initialize`) waits for the real server.
 *
 * JavaScript runs on one thread: while the real server's modules evaluate, nothing else runs. So the load
 * starts once the handshake is answered (the `tools/list` answer), when a request needs the real server,
 * or shortly after `initialize` at the latest, rather than at process start, where it would delay the
 * handshake it is meant to speed up. This module imports nothing heavy; keep it that way.
 *
 * @module
 */
import type { Tool } from "../deps/mcp_sdk.ts";
import type { ToolDefinition } from "./tool.ts";
import { selectTools } from "./tool_selection.ts";
import generated from "./fast_start_data.json" with { type: "json" };

/** What the fast start answers with; generated from the live server (see `tools/fast_start_data.ts`). */
export interface FastStartData {
  /** The SDK's SUPPORTED_PROTOCOL_VERSIONS and LATEST_PROTOCOL_VERSION. */
  supportedProtocolVersions: string[];
  latestProtocolVersion: string;
  /** The live `initialize` result without its negotiated `protocolVersion`. */
  initialize: Record<string, unknown>;
  /** The `tools/list` entries of all tools, default mode. */
  tools: Tool[];
  /** Entries that read-only mode lists differently, by tool name. */
  readOnlyTools: Record<string, Tool>;
}

/** The shipped data. */
export const FAST_START_DATA: FastStartData = generated as unknown as FastStartData;

/** The id under which the client's `initialize` is replayed into the real server; its answer is dropped. */
export const REPLAY_ID = "govcat-fast-start-initialize";

/** How long after `initialize` the real server starts loading if the client has not asked for more. */
const LOAD_AFTER_INITIALIZE_MS = 100;

/**
 * The `tools/list` entries a server with these settings lists, selected exactly as the live server
 * selects (same function). Throws the live server's ConfigError for an unknown name in `toolsSpec`.
 */
export function fastToolListing(
  options: { readOnly: boolean; toolsSpec?: string },
  data: FastStartData = FAST_START_DATA,
): Tool[] {
  // selectTools reads only names and annotations; a listing entry carries both.
  const stubs = data.tools.map((tool) => ({ name: tool.name, annotations: tool.annotations }));
  const { enabled } = selectTools(stubs as unknown as ToolDefinition[], options);
  const byName = new Map(data.tools.map((tool) => [tool.name, tool]));
  return enabled.map((tool) =>
    (options.readOnly ? data.readOnlyTools[tool.name] : undefined) ?? byName.get(tool.name)!
  );
}

/** The real server, once loaded: it takes the client's bytes and writes its own answers to stdout. */
export interface RealServer {
  /** Client input, in order, as it came. */
  push(bytes: Uint8Array): void;
  /** The client closed its input; resolves once the server has shut down. */
  end(): Promise<void>;
  /** Shuts the server down (a signal). */
  close(): Promise<void>;
}

export interface FastStartOptions {
  /** The client's input: `Deno.stdin` (its `readable` stream costs about 3 ms more to set up). */
  input: { read(buffer: Uint8Array): Promise<number | null> };
  /** Writes one serialized message, line end included, completely and synchronously (stdout). */
  write: (text: string) => void;
  /** The tools/list entries of this configuration (see {@link fastToolListing}). */
  tools: Tool[];
  /** Loads the real server; it must drop its answer to the request with id {@link REPLAY_ID}. */
  loadServer: () => Promise<RealServer>;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopped?: Promise<void>;
  data?: FastStartData;
}

type Message = Record<string, unknown>;

const NEWLINE = 0x0a;

/** Serves one stdio session with the fast start; resolves when the client's input ends or on a stop. */
export async function serveFastStart(options: FastStartOptions): Promise<void> {
  const data = options.data ?? FAST_START_DATA;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let initialize: Message | undefined;
  /** Lines (line end included) for the real server, in order. */
  const buffer: Uint8Array[] = [];
  let waitingRequests = 0;
  let server: RealServer | undefined;
  let loading: Promise<RealServer> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const load = (): Promise<RealServer> => {
    if (timer !== undefined) clearTimeout(timer);
    return loading ??= options.loadServer().then((real) => {
      if (initialize) real.push(encoder.encode(JSON.stringify({ ...initialize, id: REPLAY_ID }) + "\n"));
      for (const line of buffer.splice(0)) real.push(line);
      server = real;
      return real;
    });
  };
  // A load that fails is reported by whoever awaits it; this keeps it from being an unhandled rejection.
  const started = () => load().catch(() => undefined);

  const answer = (id: unknown, result: unknown) =>
    options.write(JSON.stringify({ result, jsonrpc: "2.0", id }) + "\n");

  /** Answers a line when its answer is certain; false leaves it to the real server. */
  const answerFast = (line: Uint8Array): boolean => {
    const message = parseRequest(line, decoder);
    if (!message) return false;
    const params = message.params as Message | undefined;
    switch (message.method) {
      case "initialize": {
        if (initialize || !isPlainInitialize(params)) return false;
        initialize = message;
        const requested = params!.protocolVersion as string;
        const protocolVersion = data.supportedProtocolVersions.includes(requested)
          ? requested
          : data.latestProtocolVersion;
        answer(message.id, { protocolVersion, ...data.initialize });
        return true;
      }
      case "tools/list":
        // A cursor was never issued (one page lists every tool): the real server refuses it.
        if (params !== undefined && (!isObject(params) || params.cursor !== undefined)) return false;
        answer(message.id, { tools: options.tools });
        return true;
      case "ping":
        if (params !== undefined && !isObject(params)) return false;
        answer(message.id, {});
        return true;
      default:
        return false;
    }
  };

  const stopped = options.stopped?.then(() => "stopped" as const);
  const readBuffer = new Uint8Array(64 * 1024);
  let partial: Uint8Array = new Uint8Array(0);
  try {
    while (true) {
      const reading = options.input.read(readBuffer);
      const count = stopped ? await Promise.race([reading, stopped]) : await reading;
      if (count === "stopped") {
        if (server) await server.close();
        return;
      }
      if (count === null) break;
      const read = readBuffer.subarray(0, count);
      let chunk = partial.length > 0 ? concat(partial, read) : read;
      let handshakeDone = false;
      for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE)) {
        const line = chunk.subarray(0, end + 1);
        chunk = chunk.subarray(end + 1);
        if (server) server.push(line.slice());
        else if (waitingRequests === 0 && answerFast(line)) {
          handshakeDone ||= isMethod(line, decoder, "tools/list");
        } else {
          buffer.push(line.slice());
          if (!isNotification(line, decoder)) waitingRequests++;
        }
      }
      // Copied: the read buffer is reused.
      partial = chunk.slice();
      // Loaded after the whole chunk is handled: its evaluation blocks this thread for a while.
      if (!server && (handshakeDone || waitingRequests > 0)) started();
      // Set here rather than on `initialize`: Deno loads its timers on their first use (about 6 ms), which
      // would delay the answers still to come in this chunk.
      else if (initialize && !loading) timer ??= setTimeout(started, LOAD_AFTER_INITIALIZE_MS);
    }
    if (partial.length > 0) {
      if (server) server.push(partial);
      else buffer.push(partial);
    }
    // Nothing waits for an answer: the session is over without the real server.
    if (!server && waitingRequests === 0) return;
    const real = server ?? await load();
    if (stopped) await Promise.race([real.end(), stopped.then(() => real.close())]);
    else await real.end();
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function parseLine(line: Uint8Array, decoder: TextDecoder): Message | undefined {
  try {
    const value = JSON.parse(decoder.decode(line));
    return isObject(value) && value.jsonrpc === "2.0" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A well-formed JSON-RPC request, or undefined. */
function parseRequest(line: Uint8Array, decoder: TextDecoder): Message | undefined {
  const message = parseLine(line, decoder);
  if (!message || typeof message.method !== "string") return undefined;
  const id = message.id;
  return typeof id === "string" || Number.isInteger(id) ? message : undefined;
}

/** A well-formed notification: no answer will come for it, so later requests need not wait behind it. */
function isNotification(line: Uint8Array, decoder: TextDecoder): boolean {
  const message = parseLine(line, decoder);
  return !!message && typeof message.method === "string" && !("id" in message);
}

function isMethod(line: Uint8Array, decoder: TextDecoder, method: string): boolean {
  return parseLine(line, decoder)?.method === method;
}

function isObject(value: unknown): value is Message {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

/**
 * An `initialize` the SDK certainly accepts: the usual shape, with each capability an object. Anything
 * else goes to the real server, which answers (or refuses) it as it always does.
 */
function isPlainInitialize(params: Message | undefined): boolean {
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
