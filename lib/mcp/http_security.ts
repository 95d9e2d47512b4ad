/**
 * Guards of the HTTP transports, applied before any MCP processing: DNS-rebinding protection (`Host` and
 * `Origin`), the bearer token required for non-loopback binding, and the request body size limit.
 *
 * @example
 * ```ts
 * import { HttpGuard } from "./http_security.ts";
 * const guard = new HttpGuard({ host: "127.0.0.1", port: 8000 });
 * const refusal = guard.check(new Request("http://127.0.0.1:8000/mcp", { headers: { origin: "https://evil.test" } }));
 * console.log(refusal?.status); // 403
 * ```
 *
 * @module
 */
import { isLoopbackHost } from "../config/readers.ts";
import { ConfigError } from "../core/errors.ts";

/** Largest JSON-RPC request body accepted by default (4 MiB): far above any real tool call. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Time a request body may take to arrive once its head has (30 s): a peer trickling a body would otherwise
 * hold a request slot (CATALOG_MCP_MAX_INFLIGHT) for as long as it likes.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

export interface HttpGuardOptions {
  /** The address the server binds. */
  host: string;
  port: number;
  /** Bearer token clients must present (CATALOG_MCP_AUTH_TOKEN). */
  authToken?: string;
  /** Extra allowed browser origins, e.g. `https://my-app.example.com`. Loopback origins are always allowed. */
  allowedOrigins?: string[];
  maxBodyBytes?: number;
  /** Time a request body may take to arrive, in ms (default {@link DEFAULT_BODY_TIMEOUT_MS}); 408 after. */
  bodyTimeoutMs?: number;
}

/** Refuses to expose the server beyond this machine without a token or Entra ID sign-in. */
export function assertSafeBinding(host: string, authToken: string | undefined, signIn = false): void {
  if (!isLoopbackHost(host) && !authToken && !signIn) {
    throw new ConfigError(
      `Refusing to listen on ${host} without an access token: anyone who can reach it could use the ` +
        "catalog with this server's identity. Set CATALOG_MCP_AUTH_TOKEN to a long random value (clients " +
        "send it as 'Authorization: Bearer <token>') or configure Entra ID sign-in (CATALOG_MCP_ENTRA_TENANT_ID " +
        "and CATALOG_MCP_ENTRA_CLIENT_ID), or bind to 127.0.0.1.",
      "CATALOG_MCP_HOST",
    );
  }
}

/** Compares secrets in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  }
  return difference === 0;
}

export class HttpGuard {
  readonly #options: HttpGuardOptions;
  readonly #loopbackBinding: boolean;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;

  constructor(options: HttpGuardOptions) {
    this.#options = options;
    this.#loopbackBinding = isLoopbackHost(options.host);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  }

  /** A refusal response, or undefined when the request may proceed. */
  check(request: Request, options: { requireToken?: boolean } = {}): Response | undefined {
    const host = request.headers.get("host");
    if (this.#loopbackBinding && host !== null && !isLoopbackHost(hostnameOf(host))) {
      // A page on another domain reaching a loopback server through DNS rebinding.
      return jsonError(
        403,
        `Host "${host}" is not allowed: this server only answers to its loopback address.`,
      );
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !this.#originAllowed(origin)) {
      return jsonError(
        403,
        `Origin "${origin}" is not allowed. Add it to CATALOG_MCP_ALLOWED_ORIGINS if it should be.`,
      );
    }
    if (this.#options.authToken && options.requireToken !== false) {
      const header = request.headers.get("authorization") ?? "";
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match || !constantTimeEqual(match[1].trim(), this.#options.authToken)) {
        return jsonError(
          401,
          "Missing or wrong access token: send 'Authorization: Bearer <CATALOG_MCP_AUTH_TOKEN>'.",
          {
            "www-authenticate": `Bearer realm="govcat", error="invalid_token"`,
          },
        );
      }
    }
    const length = request.headers.get("content-length");
    if (length !== null && Number(length) > this.maxBodyBytes) return tooLarge(this.maxBodyBytes);
    return undefined;
  }

  /**
   * Reads the body as text, stopping with a 413 response as soon as it passes the limit, and with a 408
   * one when it has not all arrived within the body timeout.
   */
  async readBody(request: Request): Promise<{ text: string } | { refusal: Response }> {
    if (!request.body) return { text: "" };
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) =>
      timer = setTimeout(() => resolve("late"), this.bodyTimeoutMs)
    );
    try {
      for (;;) {
        const read = await Promise.race([reader.read(), late]);
        if (read === "late") {
          reader.cancel().catch(() => {});
          return {
            refusal: jsonError(408, `Request body not received within ${this.bodyTimeoutMs} ms.`, {
              connection: "close",
            }),
          };
        }
        if (read.done) break;
        size += read.value.byteLength;
        if (size > this.maxBodyBytes) {
          await reader.cancel();
          return { refusal: tooLarge(this.maxBodyBytes) };
        }
        chunks.push(read.value);
      }
    } finally {
      clearTimeout(timer);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { text: new TextDecoder().decode(bytes) };
  }

  #originAllowed(origin: string): boolean {
    if (this.#options.allowedOrigins?.includes(origin)) return true;
    try {
      return isLoopbackHost(new URL(origin).hostname);
    } catch {
      return false;
    }
  }
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  return hostHeader.replace(/:\d+$/, "");
}

function tooLarge(limit: number): Response {
  return jsonError(413, `Request body larger than ${limit} bytes.`);
}

/**
 * A JSON-RPC error body with an HTTP status, as MCP clients expect from the transport. `id`: the id of the
 * request it answers, when known (a single request whose body was read); null otherwise (JSON-RPC 2.0 §5).
 */
export function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
