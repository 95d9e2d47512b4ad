/**
 * Start-up of `govcat serve` over stdio as the MCP SDK's own client starts it (`Client` with
 * `StdioClientTransport`): it spawns the server, sends `initialize`, waits for the answer, sends
 * `notifications/initialized` and `tools/list`, and waits again; then a client calls a tool. Times are
 * taken in this process from just before the spawn to the moment the SDK's promise resolves, so they hold
 * what the client itself does with an answer (it validates every result, and compiles the tools' output
 * schemas when `tools/list` arrives); the SDK is loaded once, before any timing, so its own import is not
 * counted. The arrival of each answer on the transport is recorded too, to tell the two apart.
 *
 * Then the hand-over probe: when the first call is answered, a `resources/list` (which only the full server
 * answers, and which clients send at start-up: the full server starts loading at once), then the call
 * again every {@link HandoverProbe.intervalMs} without waiting for earlier answers, through the window in
 * which the fast start hands the session to the full server; afterwards, once the full server has
 * answered the `resources/list`, the same call one at a time. Each answer must be the call's own.
 *
 * @module
 */
import { type JSONRPCMessage, loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { median } from "./bench_figures.ts";

type Sdk = Awaited<ReturnType<typeof loadMcpClientSdk>>;

/** One start of a server by the SDK client, in ms from just before the spawn. */
export interface SdkStartTimes {
  /** `tools/list` resolved for the client (its answer arrived and was checked). */
  toolsList: number;
  /** The `tools/list` answer arrived on the transport. */
  toolsListArrived: number;
  /** The first `tools/call` (sent as soon as `tools/list` resolved) resolved for the client. */
  firstCall: number;
}

export interface HandoverProbe {
  /** Ms between two requests sent through the hand-over window. */
  intervalMs: number;
  /** How long requests are sent at that pace after the first call's answer. */
  windowMs: number;
  /** Requests one at a time once the full server surely has the session. */
  afterCount: number;
}

export interface HandoverTimes {
  /** Latency of each request sent through the window, in the order sent. */
  during: number[];
  /** Latency of each request sent one at a time after the hand-over. */
  after: number[];
  /**
   * Ms after the first call's answer at which the full server said it had loaded: negative when that was
   * before (the load held the first call up), NaN when not seen.
   */
  handedOverAt: number;
}

export interface SdkStartOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** The tool call timed as the first one, and sent through the hand-over window. */
  call: { name: string; arguments?: Record<string, unknown> };
  /** Also probe the hand-over after the first call (needs `-v` in args: its log line marks the load). */
  handover?: HandoverProbe;
}

let sdk: Sdk | undefined;

/** Loads the SDK's client once, before any timing. */
export async function prepareSdkClient(): Promise<void> {
  sdk ??= await loadMcpClientSdk();
}

/** Starts the server with the SDK client; times `tools/list` and the first call (and the hand-over). */
export async function timeSdkStart(
  options: SdkStartOptions,
): Promise<SdkStartTimes & { handover?: HandoverTimes }> {
  const { Client, StdioClientTransport } = sdk ??= await loadMcpClientSdk();
  let handedOver = NaN;
  let firstCallAt = 0;
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    stderr: options.handover ? "pipe" : "ignore",
  });
  const stderrDone = options.handover
    ? watchLoad(transport.stderr, () => handedOver = performance.now())
    : null;
  const arrivals = new Map<unknown, number>();
  const client = new Client({ name: "startup-bench", version: "1.0.0" });
  // The transport's onmessage is the client's own handler, set by connect: wrap it after start.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const deliver = transport.onmessage!;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ("id" in message) arrivals.set(message.id, performance.now());
      deliver(message);
    };
  };
  try {
    await client.connect(transport);
    await client.listTools();
    const toolsList = performance.now() - started;
    const toolsListArrived = Math.max(...arrivals.values()) - started;
    const first = await client.callTool(options.call);
    firstCallAt = performance.now();
    if (first.isError) throw new Error(`the first call failed: ${JSON.stringify(first)}`);
    const times = { toolsList, toolsListArrived, firstCall: firstCallAt - started };
    if (!options.handover) return times;
    const handover = await probeHandover(client, options.call, options.handover);
    return {
      ...times,
      handover: { ...handover, handedOverAt: handedOver - firstCallAt },
    };
  } finally {
    await client.close();
    await stderrDone;
  }
}

async function probeHandover(
  client: InstanceType<Sdk["Client"]>,
  call: SdkStartOptions["call"],
  probe: HandoverProbe,
): Promise<Omit<HandoverTimes, "handedOverAt">> {
  const timed = async () => {
    const sent = performance.now();
    const result = await client.callTool(call);
    if (result.isError) throw new Error(`a call failed: ${JSON.stringify(result)}`);
    return performance.now() - sent;
  };
  const pending: Promise<number>[] = [];
  // Only the full server answers this: once it has, the hand-over is behind us.
  const handover = client.listResources();
  const windowStart = performance.now();
  for (let next = windowStart; next - windowStart < probe.windowMs; next += probe.intervalMs) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(timed());
  }
  const during = await Promise.all(pending);
  await handover;
  const after: number[] = [];
  for (let i = 0; i < probe.afterCount; i++) {
    await new Promise((resolve) => setTimeout(resolve, probe.intervalMs));
    after.push(await timed());
  }
  return { during, after };
}

/** Reads the server's stderr to its end, calling `loaded` when the full server's start line appears. */
async function watchLoad(stderr: unknown, loaded: () => void): Promise<void> {
  const stream = stderr as AsyncIterable<Uint8Array> | null;
  if (!stream) return;
  const decoder = new TextDecoder();
  let text = "";
  let seen = false;
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (!seen && text.includes("waiting for a client")) {
      seen = true;
      loaded();
    }
  }
}

/** The hand-over stall of rounds of probes: the worst request during each, ÷ the median request after it. */
export function handoverStall(rounds: HandoverTimes[]): { worst: number; after: number; ratio: number } {
  const worst = median(rounds.map((round) => Math.max(...round.during)));
  const after = median(rounds.flatMap((round) => round.after));
  return { worst, after, ratio: worst / after };
}
