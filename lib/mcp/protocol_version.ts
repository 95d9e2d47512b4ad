/**
 * The protocol revision a session negotiated, for what depends on it: JSON-RPC batches over HTTP
 * (`http_batches.ts`) and `resource_link` items in tool results (`resource_links.ts`). The SDK's server
 * answers `initialize` without keeping the revision it chose, so it is worked out here the same way.
 *
 * @module
 */
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../deps/mcp_sdk.ts";

/** The revision `initialize` negotiates, as the SDK's server answers it: the one asked for, or the latest. */
export function negotiatedVersion(initialize: unknown): string {
  const requested = (initialize as { params?: { protocolVersion?: unknown } } | undefined)?.params
    ?.protocolVersion;
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

/**
 * The revision `server`'s session negotiates, once its `initialize` has arrived (undefined before, and for
 * a stateless server that never sees it), read from the messages its transport delivers.
 */
export function trackProtocolVersion(server: Server): () => string | undefined {
  let version: string | undefined;
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (!deliver) return;
    transport.onmessage = (message, extra) => {
      if (version === undefined && isInitializeRequest(message)) version = negotiatedVersion(message);
      return deliver(message, extra);
    };
  };
  return () => version;
}
