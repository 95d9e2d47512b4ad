/**
 * The stdio transport: JSON-RPC on stdin/stdout, logs on stderr only. Resolves when the client closes
 * stdin (or on SIGINT/SIGTERM), so the process ends cleanly with its client.
 *
 * @module
 */
import process from "node:process";
import { PassThrough } from "node:stream";
import {
  LATEST_PROTOCOL_VERSION,
  StdioServerTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../deps/mcp_sdk.ts";
import { createStdioGuard } from "./stdio_guard.ts";
import { createToolServer } from "./server.ts";
import { processTasks } from "./tasks/tool_tasks.ts";
import { outsideCalls } from "./session_log.ts";
import { onStopSignals } from "../core/stop_signals.ts";
import type { ToolServices } from "./tool.ts";

/** Serves MCP over this process's stdin and stdout until stdin ends. */
export async function serveStdio(services: ToolServices): Promise<void> {
  const server = createToolServer(services);
  // A failure to send to the client is not reported to it (session_log.ts).
  server.onerror = (error) => outsideCalls(() => services.logger.warn(`mcp: ${error.message}`));
  // Malformed lines, messages without a method and batches are answered here (see stdio_guard.ts).
  const input = new PassThrough();
  const guard = createStdioGuard({
    write: (text) => process.stdout.write(text),
    forward: (line) => input.write(line),
    supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  });
  process.stdin.on("data", (bytes: Uint8Array) => guard.push(bytes));
  const ended = new Promise<void>((resolve) => {
    const finish = () => {
      guard.end();
      resolve();
    };
    process.stdin.once("end", finish);
    process.stdin.once("close", finish);
    onStopSignals(finish);
  });
  await server.connect(new StdioServerTransport(input, process.stdout));
  services.logger.info("govcat MCP server on stdio; waiting for a client");
  await ended;
  // Tasks end with the session's process: running ones stop as cancelled calls do (resumable imports).
  processTasks(services).abortAll();
  await server.close();
}
