/**
 * The stdio fast start: answers the MCP handshake (`initialize`, `tools/list`, `ping`) from generated data
 * (`fast_start_data.json`), and runs plain calls of listed tools, while the real server loads; then hands
 * the session to it with the client's `initialize` replayed, so the client sees the session it would have
 * had without it. Only answers that are certain are given here. This module imports nothing heavy; keep it
 * that way.
 *
 * Design: docs/design/fast-start.md
 *
 * @module
 */
import type { Tool } from "../deps/mcp_sdk.ts";
import type { ToolDefinition } from "./tool.ts";
import { selectTools } from "./tool_selection.ts";
import type { ToolsetName } from "./toolsets.ts";
import generated from "../generated/fast_start_data.json" with { type: "json" };
import {
  isNotification,
  isObject,
  isPlainInitialize,
  isPlainToolCall,
  isRequest,
  type Message,
  parseLine,
} from "./fast_start_messages.ts";

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
  /** The module of `lib/mcp/tools/modules.ts` that defines each tool, by tool name. */
  toolModules: Record<string, string>;
}

/** The shipped data. */
export const FAST_START_DATA: FastStartData = generated as unknown as FastStartData;

/** The id under which the client's `initialize` is replayed into the real server; its answer is dropped. */
export const REPLAY_ID = "govcat-fast-start-initialize";

/** How long the client must be quiet (after `initialize`) before the real server starts loading. */
const LOAD_AFTER_QUIET_MS = 100;

/** The longest a step of the real server's load waits for the fast calls to end. */
const CALM_MAX_MS = 100;

/**
 * Requests that change nothing a later answer depends on: when one of them waits for the real server, the
 * fast start still answers the requests after it.
 */
const ORDER_FREE_METHODS = new Set(["resources/list", "resources/templates/list", "prompts/list"]);

/**
 * The `tools/list` entries a server with these settings lists, selected exactly as the live server
 * selects (same function). Throws the live server's ConfigError for an unknown name in `toolsSpec`.
 */
export function fastToolListing(
  options: { readOnly: boolean; toolsSpec?: string; toolsets?: readonly ToolsetName[] },
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
  /**
   * Loads the real server; it must drop its answer to the request with id {@link REPLAY_ID}. A load that
   * goes in steps (cli/serve_load_steps.ts) lets the session answer between them; before each step it
   * awaits `calm`, which resolves once no fast call runs (or after {@link FastStartOptions.calmMaxMs}), so
   * a call's every turn (its request to the catalog, the answer, its parts) does not wait for a step.
   */
  loadServer: (calm: () => Promise<void>) => Promise<RealServer>;
  /** The longest a step of the load waits for the fast calls to end (default 100 ms). */
  calmMaxMs?: number;
  /**
   * Loads what runs tool calls before the real server (`fast_tool_calls.ts`), for a client that declared
   * `clientCapabilities`; without it every `tools/call` waits for the real server.
   */
  loadCalls?: (clientCapabilities: Record<string, unknown>, protocolVersion: string) => Promise<FastCalls>;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM). */
  stopped?: Promise<void>;
  data?: FastStartData;
}

/** Tool calls run before the real server (`FastToolCalls` in fast_tool_calls.ts). */
export interface FastCalls {
  /** Calls in flight. */
  readonly running: number;
  /** Runs a plain `tools/call` request and writes its answer. */
  call(message: Record<string, unknown>): Promise<void>;
  /** Takes a message meant for the calls (a cancellation, an answer to their request): true if taken. */
  take(message: Record<string, unknown>): boolean;
  /** Aborts every call in flight; resolves once they have ended. */
  stop(): Promise<void>;
}

const NEWLINE = 0x0a;

/** Serves one stdio session with the fast start; resolves when the client's input ends or on a stop. */
export function serveFastStart(options: FastStartOptions): Promise<void> {
  return new FastStartSession(options).serve();
}

/** One stdio session until the real server has it (and its fast tool calls until they end). */
class FastStartSession {
  readonly #options: FastStartOptions;
  readonly #data: FastStartData;
  readonly #listed: Set<string>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #initialize: Message | undefined;
  /** The revision the fast start's `initialize` answer negotiated. */
  #protocolVersion: string | undefined;
  /** Lines (line end included) for the real server, in order. */
  readonly #buffer: Uint8Array[] = [];
  #waitingRequests = 0;
  /** Waiting requests whose effect later answers may depend on: while there are any, all wait. */
  #orderBound = 0;
  #server: RealServer | undefined;
  #loading: Promise<RealServer> | undefined;
  /** The load's steps waiting for the fast calls to end. */
  readonly #calmWaiters: Array<() => void> = [];
  /** Counts the waits for a quiet client: a wait whose number is no longer this one was called off. */
  #quietWait = 0;
  #calls: Promise<FastCalls> | undefined;
  #runner: FastCalls | undefined;
  /** Fast calls whose runner is still loading: a cancellation before it runs drops the call. */
  readonly #callsToStart = new Set<unknown>();

  constructor(options: FastStartOptions) {
    this.#options = options;
    this.#data = options.data ?? FAST_START_DATA;
    this.#listed = new Set(options.tools.map((tool) => tool.name));
  }

  async serve(): Promise<void> {
    const stopped = this.#options.stopped?.then(() => "stopped" as const);
    const readBuffer = new Uint8Array(64 * 1024);
    let partial: Uint8Array = new Uint8Array(0);
    try {
      while (true) {
        const reading = this.#options.input.read(readBuffer);
        const count = stopped ? await Promise.race([reading, stopped]) : await reading;
        if (count === "stopped") {
          await Promise.all([this.#server?.close(), this.#stopCalls()]);
          return;
        }
        if (count === null) break;
        const read = readBuffer.subarray(0, count);
        let chunk = partial.length > 0 ? concat(partial, read) : read;
        for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE)) {
          this.#line(chunk.subarray(0, end + 1));
          chunk = chunk.subarray(end + 1);
        }
        // Copied: the read buffer is reused.
        partial = chunk.slice();
        // Loaded after the whole chunk is handled: its evaluation takes this thread for a while, so only
        // when a request waits for it, or once the client is quiet and no fast call runs.
        if (!this.#server && this.#waitingRequests > 0) this.#started();
        // Set here rather than on `initialize`, after the answers of the whole chunk.
        else if (this.#fastCalls() === 0) this.#loadWhenIdle();
      }
      if (partial.length > 0) {
        if (this.#server) this.#server.push(partial);
        else this.#buffer.push(partial);
      }
      await this.#end(stopped);
    } finally {
      this.#quietWait++;
    }
  }

  /** The client's input ended: the session ends once the real server (if any) and the fast calls have. */
  async #end(stopped: Promise<"stopped"> | undefined): Promise<void> {
    // Nothing waits for an answer: the session is over without the real server.
    if (!this.#server && this.#waitingRequests === 0) return await this.#stopCalls();
    const real = this.#server ?? await this.#load();
    const ended = Promise.all([real.end(), this.#stopCalls()]);
    if (stopped) await Promise.race([ended, stopped.then(() => real.close())]);
    else await ended;
  }

  /** Handles one line, read once. */
  #line(line: Uint8Array): void {
    // Once the real server has the session, lines reach it unread, unless a fast call still runs.
    if (this.#server && !this.#runner?.running) return this.#server.push(line.slice());
    const message = parseLine(line, this.#decoder);
    if (message && this.#forFastCalls(message)) return;
    if (this.#server) return this.#server.push(line.slice());
    if (this.#orderBound === 0 && message && this.#answerFast(message, line)) return;
    this.#buffer.push(line.slice());
    if (!message || !isNotification(message)) this.#waitFor(message);
  }

  /** A request (or a line that is none) now waits for the real server. */
  #waitFor(message: Message | undefined): void {
    this.#waitingRequests++;
    if (!message || !ORDER_FREE_METHODS.has(message.method as string)) this.#orderBound++;
  }

  /** Fast calls not ended: those whose runner is loading, and those it runs. */
  #fastCalls(): number {
    return this.#callsToStart.size + (this.#runner?.running ?? 0);
  }

  /** Takes a message meant for the fast calls: a cancellation of one, or the client's answer to one. */
  #forFastCalls(message: Message): boolean {
    if (this.#callsToStart.size === 0 && !this.#runner) return false;
    const params = message.params;
    if (message.method === "notifications/cancelled" && isObject(params)) {
      if (this.#callsToStart.delete(params.requestId)) return true;
    }
    return this.#runner?.take(message) ?? false;
  }

  #load(): Promise<RealServer> {
    this.#quietWait++;
    return this.#loading ??= this.#options.loadServer(() => this.#calm()).then((real) => {
      if (this.#initialize) {
        real.push(this.#encoder.encode(JSON.stringify({ ...this.#initialize, id: REPLAY_ID }) + "\n"));
      }
      for (const line of this.#buffer.splice(0)) real.push(line);
      this.#server = real;
      return real;
    });
  }

  /** Starts the load; a load that fails is reported by whoever awaits it, not as an unhandled rejection. */
  #started(): void {
    this.#load().catch(() => undefined);
  }

  /**
   * Loads the real server once the client has been quiet for a moment after `initialize`: each input
   * starts the wait anew, so a request that comes soon after an answer (a call after `tools/list`) finds
   * the thread free.
   */
  #loadWhenIdle(): void {
    if (this.#initialize && !this.#loading) {
      const wait = ++this.#quietWait;
      // Not setTimeout: Deno sets its timers up on their first use (6 ms and more), which would hold up
      // the next request of the handshake; AbortSignal.timeout takes a fraction of a millisecond, and
      // does not keep the process alive.
      AbortSignal.timeout(LOAD_AFTER_QUIET_MS).addEventListener("abort", () => {
        if (wait === this.#quietWait) this.#started();
      }, { once: true });
    }
  }

  #answer(id: unknown, result: unknown): void {
    this.#options.write(JSON.stringify({ result, jsonrpc: "2.0", id }) + "\n");
  }

  /**
   * Answers a message when its answer is certain, or runs it (`line`) as a fast call; false leaves it to the
   * real server.
   */
  #answerFast(message: Message, line: Uint8Array): boolean {
    if (!isRequest(message)) return false;
    const params = message.params as Message | undefined;
    switch (message.method) {
      case "initialize": {
        if (this.#initialize || !isPlainInitialize(params)) return false;
        this.#initialize = message;
        const requested = params!.protocolVersion as string;
        const protocolVersion = this.#data.supportedProtocolVersions.includes(requested)
          ? requested
          : this.#data.latestProtocolVersion;
        this.#protocolVersion = protocolVersion;
        this.#answer(message.id, { protocolVersion, ...this.#data.initialize });
        return true;
      }
      case "tools/list":
        // A cursor was never issued (one page lists every tool): the real server refuses it.
        if (params !== undefined && (!isObject(params) || params.cursor !== undefined)) return false;
        this.#answer(message.id, { tools: this.#options.tools });
        return true;
      case "tools/call":
        if (!this.#options.loadCalls || !this.#initialize || !isPlainToolCall(params, this.#listed)) {
          return false;
        }
        this.#runFast(message, line.slice());
        return true;
      case "ping":
        if (params !== undefined && !isObject(params)) return false;
        this.#answer(message.id, {});
        return true;
      default:
        return false;
    }
  }

  /** Runs a tool call without the real server; if what runs it cannot load, the real server gets it. */
  #runFast(message: Message, line: Uint8Array): void {
    const { id } = message;
    this.#callsToStart.add(id);
    // The idle load waits until no fast call runs: its evaluation would hold this one up.
    this.#quietWait++;
    this.#calls ??= this.#options.loadCalls!(
      (this.#initialize!.params as Message).capabilities as Message,
      this.#protocolVersion!,
    ).then((runner) => (this.#runner = runner));
    this.#calls.then(
      (runner) => this.#callsToStart.delete(id) ? runner.call(message) : undefined,
      () => {
        if (!this.#callsToStart.delete(id)) return;
        if (this.#server) return this.#server.push(line);
        this.#buffer.push(line);
        this.#waitFor(message);
        this.#started();
      },
    ).finally(() => {
      if (this.#fastCalls() > 0) return;
      for (const resume of this.#calmWaiters.splice(0)) resume();
      if (!this.#server) this.#loadWhenIdle();
    });
  }

  /** Resolves once no fast call runs, or after `calmMaxMs` at the latest (so a busy client gets the load too). */
  #calm(): Promise<void> {
    if (this.#fastCalls() === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#calmWaiters.push(resolve);
      AbortSignal.timeout(this.#options.calmMaxMs ?? CALM_MAX_MS).addEventListener("abort", () => resolve(), {
        once: true,
      });
    });
  }

  /** Ends the fast calls: those not started are dropped, those running aborted. */
  async #stopCalls(): Promise<void> {
    this.#callsToStart.clear();
    const runner = await this.#calls?.catch(() => undefined);
    await runner?.stop();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
