/**
 * The one module that imports the MCP SDK (`@modelcontextprotocol/sdk`). Server pieces load eagerly;
 * client pieces, used by tests and tools that talk to a govcat server, load on demand so they add
 * nothing to the server's start-up.
 *
 * The package's export map sends `…/x.js` type look-ups to a missing `x.js.d.ts`, which would make every
 * SDK type `any`; the `@ts-types` lines point the type checker at the real declarations.
 *
 * @module
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/stdio"
export { StdioServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export {
  CallToolRequestSchema,
  CallToolResultSchema,
  CancelTaskRequestSchema,
  CompleteRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  TaskStatusNotificationSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
export type {
  CallToolRequest,
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  CreateTaskResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  JSONRPCMessage,
  LoggingLevel,
  MessageExtraInfo,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Task,
  Tool,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types";
export type { Transport, TransportSendOptions } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport";

/** The SDK's client classes, loaded on first use. */
export async function loadMcpClientSdk() {
  const [client, streamable, sse, stdio, inMemory] = await Promise.all([
    // @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/index.js"),
    // @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js"),
    // @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/sse"
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/sse.js"),
    // @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js"),
    // @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
    import("npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js"),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    /** A linked client/server transport pair within one process (tests). */
    InMemoryTransport: inMemory.InMemoryTransport,
  };
}
