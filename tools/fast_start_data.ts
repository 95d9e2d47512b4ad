/**
 * Generates `fast_start_data.json`, the answers of the stdio fast start (`fast_start.ts`), from the live
 * server: its `initialize` result (captured from a session of its own), the SDK's protocol versions and
 * the `tools/list` entries of every tool in default and read-only mode. `deno task docs` rewrites the file;
 * a test fails when it is stale.
 *
 * @module
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../lib/deps/mcp_sdk.ts";
import type { JSONRPCMessage, Tool, Transport } from "../lib/deps/mcp_sdk.ts";
import { loadConfig } from "../lib/config/config.ts";
import type { FastStartData } from "../lib/mcp/fast_start.ts";
import { createToolServer, createToolServices, toolListing } from "../lib/mcp/server.ts";
import { selectTools } from "../lib/mcp/tool_selection.ts";
import { ALL_TOOLS } from "../lib/mcp/tools/mod.ts";
import { TOOL_MODULES, toolsExportedBy } from "../lib/mcp/tools/modules.ts";
import type { ToolDefinition } from "../lib/mcp/tool.ts";

/** Where the generated data lives. */
export const FAST_START_DATA_FILE = new URL("../lib/generated/fast_start_data.json", import.meta.url);

/** The fast start's data, computed from the live server. */
export async function generateFastStartData(): Promise<FastStartData> {
  const services = createToolServices({ config: loadConfig({ CATALOG_ACCOUNT_NAME: "generator" }) });
  const server = createToolServer(services);
  // A transport of our own: the SDK's client side would need more permissions than `deno task docs` has.
  let respond: (message: JSONRPCMessage) => void = () => {};
  const answered = new Promise<JSONRPCMessage>((resolve) => (respond = resolve));
  const transport: Transport = {
    start: () => Promise.resolve(),
    send: (message) => Promise.resolve(respond(message)),
    close: () => Promise.resolve(),
  };
  await server.connect(transport);
  transport.onmessage!({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "generator", version: "0" },
    },
  });
  const response = await answered;
  await server.close();
  if (!("result" in response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
  const { protocolVersion: _, ...initialize } = response.result as Record<string, unknown>;

  const roundTrip = (tool: Tool): Tool => JSON.parse(JSON.stringify(tool));
  const tools = ALL_TOOLS.map((tool) => roundTrip(toolListing(tool)));
  const readOnlyTools: Record<string, Tool> = {};
  for (const tool of selectTools([...ALL_TOOLS], { readOnly: true }).enabled) {
    const listed = roundTrip(toolListing(tool));
    const plain = tools.find((t) => t.name === tool.name);
    if (JSON.stringify(listed) !== JSON.stringify(plain)) readOnlyTools[tool.name] = listed;
  }
  return {
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    initialize,
    tools,
    readOnlyTools,
    toolModules: await toolModuleFiles(),
  };
}

/**
 * The module of TOOL_MODULES that exports each tool of ALL_TOOLS (the very value); throws when a tool is
 * in none of them or in several, so the fast start never loads a module without the tool or a copy.
 */
export async function toolModuleFiles(): Promise<Record<string, string>> {
  const files = new Map<ToolDefinition, string[]>();
  for (const [file, load] of Object.entries(TOOL_MODULES)) {
    for (const tool of toolsExportedBy(await load())) files.set(tool, [...files.get(tool) ?? [], file]);
  }
  const byName: Record<string, string> = {};
  for (const tool of ALL_TOOLS) {
    const found = files.get(tool) ?? [];
    if (found.length !== 1) {
      throw new Error(
        `the tool ${tool.name} is exported by ${found.length} modules of lib/mcp/tools/modules.ts ` +
          `(${found.join(", ") || "none"}): export it from exactly one, and list that module there`,
      );
    }
    byName[tool.name] = found[0];
  }
  return byName;
}

/** The file's text for `data`. */
export function fastStartDataText(data: FastStartData): string {
  return JSON.stringify(data, null, 2) + "\n";
}

/** Rewrites the file if it changed; returns whether it did. */
export async function writeFastStartData(): Promise<boolean> {
  const text = fastStartDataText(await generateFastStartData());
  let current = "";
  try {
    current = await Deno.readTextFile(FAST_START_DATA_FILE);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (current === text) return false;
  await Deno.writeTextFile(FAST_START_DATA_FILE, text);
  return true;
}

if (import.meta.main) {
  console.log(
    await writeFastStartData()
      ? "lib/generated/fast_start_data.json updated"
      : "lib/generated/fast_start_data.json is current",
  );
}
