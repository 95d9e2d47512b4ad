/**
 * Secrets never surface. With a service principal secret, an MCP access token and a catalog bearer token
 * in play, everything govcat prints, logs or answers is captured — CLI subprocesses run with --verbose and
 * CATALOG_LOG=debug against the emulator and against a local server that answers 401/403/500 echoing the
 * request's headers (the Authorization header, raw token too) in its error bodies, `govcat serve` over
 * HTTP asked with wrong tokens, MCP tool calls that fail, and a successful one whose catalog data holds
 * the secrets — and searched for each credential.
 *
 * Loopback only: the catalog endpoint is always on 127.0.0.1, where govcat asks no credential for a token,
 * so the service principal is configured but never used; subprocesses may only connect to 127.0.0.1. The
 * bearer token is handed to an in-process catalog client by a test credential (design.md, "Testing
 * authentication without leaving the machine").
 */
import assert from "node:assert/strict";
import { type CliIo, reportError } from "../../cli/run.ts";
import { cachedTokenProvider } from "../../lib/auth/cached_tokens.ts";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { initializeRequest } from "../../tools/distribution/smoke.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { createLogger } from "../../lib/core/log.ts";
import { createToolServer, createToolServices } from "../../lib/mcp/server.ts";
import { runGovcat } from "../support/govcat_process.ts";
import { type RecordedRequest, startLocalServer } from "../support/local_server.ts";
import { startServe } from "../support/serve_process.ts";

const TENANT = "8f4e2c1a-3b5d-4e6f-9a7b-1c2d3e4f5a6b";
const CLIENT = "0b1c2d3e-1111-2222-3333-444455556666";
const CLIENT_SECRET = "hcSP~secret.Zq8Wv3_Kx7-Lm2Pn5Rt9";
const MCP_TOKEN = "hc-mcp-token-Yb6Rt9Qs2Vw4Xe8Ud1Fg3";
/** A well-formed GUID no catalog holds: the request is sent and answered 404 (or echoed). */
const ABSENT_GUID = "00000000-0000-4000-8000-00000000beef";
/** A JWT-shaped catalog token, as managed identity or a service principal would get. */
const BEARER = "eyJ0eXAiOiJKV1QifQ.hc-bearer-Fj3Gk8Hl2Mn4Pq6.c2lnbmF0dXJlLWhj";

/** Each credential and a distinctive piece of it, so a cut-off copy is found too. */
const NEEDLES: Array<[string, string]> = [
  ["client secret", CLIENT_SECRET],
  ["client secret (part)", "Zq8Wv3_Kx7"],
  ["MCP token", MCP_TOKEN],
  ["MCP token (part)", "Yb6Rt9Qs2Vw4"],
  ["bearer token", BEARER],
  ["bearer token (part)", "Fj3Gk8Hl2Mn4"],
];

function assertClean(where: string, text: string) {
  for (const [what, needle] of NEEDLES) {
    assert.ok(!text.includes(needle), `${what} appears in ${where}:\n${text}`);
  }
}

const CREDENTIALS = {
  CLOUD_TENANT_ID: TENANT,
  CLOUD_CLIENT_ID: CLIENT,
  CLOUD_CLIENT_SECRET: CLIENT_SECRET,
  CATALOG_MCP_AUTH_TOKEN: MCP_TOKEN,
  CATALOG_LOG: "debug",
};

/**
 * A catalog that refuses everything, echoing what it was sent: the Authorization header as is and the
 * token without its `Bearer ` prefix, every header, the URL and the body. 401 for entities, 403 for
 * search, 500 (plain text) for the rest.
 */
function echoingCatalog() {
  return startLocalServer((request: RecordedRequest) => {
    const authorization = request.headers.get("authorization") ?? "(none)";
    const raw = authorization.replace(/^Bearer\s+/i, "");
    const headers = JSON.stringify([...request.headers.entries()]);
    const echo = `${request.method} ${request.path}${request.search} auth=${authorization} raw=${raw} ` +
      `headers=${headers} body=${request.body.slice(0, 200)}`;
    if (request.path.includes("/entity")) {
      return Response.json({
        error: { code: "InvalidAuthenticationToken", message: `token ${raw}: ${echo}` },
      }, {
        status: 401,
      });
    }
    if (request.path.includes("/search")) {
      return Response.json({
        requestId: "r-1",
        errorCode: "Forbidden",
        errorMessage: `denied ${raw}; ${echo}`,
      }, {
        status: 403,
      });
    }
    return new Response(`Internal error for ${raw}; ${echo}`, { status: 500 });
  });
}

async function withConfigDir<T>(test: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-secrets-" });
  try {
    return await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("CLI: no output, log line or error of any command holds the client secret or the MCP token", async () => {
  const emulator = await startEmulator({ seed: true });
  const echo = echoingCatalog();
  try {
    await withConfigDir(async (configDir) => {
      const base = { ...CREDENTIALS, CATALOG_ACCOUNT_NAME: "emulator", GOVCAT_CONFIG_DIR: configDir };
      const atEmulator = { ...base, CATALOG_ENDPOINT: emulator.url, CATALOG_UNIFIED_ENDPOINT: emulator.url };
      const atEcho = {
        ...base,
        CATALOG_ENDPOINT: echo.url,
        CATALOG_UNIFIED_ENDPOINT: echo.url,
        CATALOG_MAX_RETRIES: "0",
      };
      const runs: Array<{ env: Record<string, string>; args: string[]; code: number }> = [
        { env: atEmulator, args: ["profile", "status"], code: 0 },
        { env: atEmulator, args: ["config", "list"], code: 0 },
        { env: atEmulator, args: ["config", "get", "client-id"], code: 0 },
        { env: atEmulator, args: ["config", "set", "client-secret", CLIENT_SECRET], code: 2 },
        {
          env: atEmulator,
          args: ["profile", "add", "--name=p1", "--account-name=emulator", `--tenant-id=${TENANT}`],
          code: 0,
        },
        { env: atEmulator, args: ["profile", "list_profiles"], code: 0 },
        { env: atEmulator, args: ["search", "query", "--keywords=customers", "--limit=2"], code: 0 },
        { env: atEmulator, args: ["collections", "list"], code: 0 },
        { env: atEmulator, args: ["entity", "get", `--guid=${ABSENT_GUID}`], code: 1 },
        { env: atEmulator, args: ["entity", "get", "--guid=not-a-guid"], code: 2 },
        { env: atEmulator, args: ["entity", "get", "--guid=.."], code: 2 },
        // Secrets typed where they do not belong are masked in the error that repeats the value.
        {
          env: atEmulator,
          args: ["entity", "get", `--guid=${ABSENT_GUID}`, `--output=${CLIENT_SECRET}`],
          code: 2,
        },
        { env: atEmulator, args: ["search", "query", `--limit=${MCP_TOKEN}`], code: 2 },
        { env: { ...atEmulator, CATALOG_TIMEOUT: CLIENT_SECRET }, args: ["collections", "list"], code: 2 },
        { env: { ...atEmulator, CATALOG_TIMEOUT: CLIENT_SECRET }, args: ["config", "list"], code: 0 },
        { env: atEcho, args: ["entity", "get", `--guid=${ABSENT_GUID}`], code: 1 },
        { env: atEcho, args: ["search", "query", "--keywords=x"], code: 1 },
        { env: atEcho, args: ["collections", "list"], code: 1 },
        { env: atEcho, args: ["uc", "domain", "list"], code: 1 },
        {
          env: atEcho,
          args: ["entity", "create", "--type-name=DataSet", "--qualified-name=q://x", "--name=x"],
          code: 1,
        },
      ];
      for (const run of runs) {
        const result = await runGovcat([...run.args, "--verbose"], run.env);
        const label = `govcat ${run.args.join(" ")}`;
        assert.equal(result.code, run.code, `${label}: ${result.stderr}`);
        assertClean(`${label} stdout`, result.stdout);
        assertClean(`${label} stderr`, result.stderr);
        if (run.env === atEcho) assert.match(result.stderr, /status: (401|403|500)/, label);
      }
    });
    // The catalog endpoint is loopback: no credential was asked for a token, so none was sent.
    assert.ok(echo.requests.length >= 5);
    for (const request of echo.requests) {
      assert.equal(request.headers.get("authorization"), null);
      assertClean(
        "a request to the catalog",
        JSON.stringify([...request.headers]) + request.search + request.body,
      );
    }
  } finally {
    await echo.close();
    await emulator.close();
  }
});

Deno.test("serve over HTTP: wrong tokens are refused; no response or log line holds a credential", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    await withConfigDir(async (configDir) => {
      const server = await startServe(["--transport=http", "--port=0", "--verbose"], {
        ...CREDENTIALS,
        CATALOG_ACCOUNT_NAME: "emulator",
        CATALOG_ENDPOINT: emulator.url,
        CATALOG_UNIFIED_ENDPOINT: emulator.url,
        GOVCAT_CONFIG_DIR: configDir,
      });
      const seen: string[] = [server.banner];
      let stopped = false;
      try {
        const init = JSON.stringify(initializeRequest("x"));
        const wrong: Array<Record<string, string>> = [
          {},
          { authorization: "Bearer wrong" },
          { authorization: `Bearer ${MCP_TOKEN.slice(0, -1)}` },
          { authorization: `Bearer ${MCP_TOKEN}x` },
          { authorization: `Basic ${btoa(`user:${MCP_TOKEN}`)}` },
          { authorization: MCP_TOKEN },
          { "x-api-key": MCP_TOKEN },
        ];
        for (const headers of wrong) {
          const response = await fetch(server.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...headers,
            },
            body: init,
          });
          assert.equal(response.status, 401, JSON.stringify(headers));
          seen.push(JSON.stringify([...response.headers]), await response.text());
        }

        const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
        const client = new Client({ name: "secrets-test", version: "1.0.0" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.url), {
            requestInit: { headers: { authorization: `Bearer ${MCP_TOKEN}` } },
          }),
        );
        try {
          const calls = [
            { name: "get_entity", arguments: { guid: "not-a-guid" } },
            { name: "get_entity", arguments: { guid: MCP_TOKEN } },
            { name: "search_entities", arguments: { query: "x", limit: CLIENT_SECRET } },
            { name: "invoke_operation", arguments: { operation: "profile.status", arguments: {} } },
            { name: "invoke_operation", arguments: { operation: "config.list", arguments: {} } },
            {
              name: "invoke_operation",
              arguments: {
                operation: "config.set",
                arguments: { key: "client-secret", value: CLIENT_SECRET },
              },
            },
            { name: "invoke_operation", arguments: { operation: "entity.get", arguments: { guid: ".." } } },
          ];
          for (const call of calls) {
            const result = await client.callTool(call);
            seen.push(JSON.stringify(result));
          }
          // The malformed GUIDs are refused with the value quoted (masked where it is a secret).
          assert.ok(
            seen.some((text) => text.includes("must be a GUID") && text.includes("not-a-guid")),
            "the calls ran",
          );
        } finally {
          await client.close();
        }
      } finally {
        if (!stopped) {
          stopped = true;
          const { code, stderr } = await server.stop();
          assert.equal(code, 0, stderr);
          assert.match(stderr, /debug: /, "debug logging was on");
          seen.push(stderr);
        }
      }
      seen.forEach((text, i) => assertClean(`serve output #${i}`, text));
    });
  } finally {
    await emulator.close();
  }
});

/** A line-collecting CLI io, for errors reported the way the command line reports them. */
function collectingIo(lines: string[]): CliIo {
  return {
    env: { ...CREDENTIALS },
    stdout: (text) => lines.push(text),
    stderr: (text) => lines.push(text),
  };
}

Deno.test("a bearer token in play: echoed back by the catalog, it reaches no error, log line or tool result", async () => {
  const echo = echoingCatalog();
  const lines: string[] = [];
  try {
    const config = loadConfig({
      ...CREDENTIALS,
      CATALOG_ACCOUNT_NAME: "contoso",
      CATALOG_ENDPOINT: echo.url,
      CATALOG_UNIFIED_ENDPOINT: echo.url,
      CATALOG_MAX_RETRIES: "1",
    });
    const logger = createLogger("debug", { write: (line) => lines.push(line) });
    const tokens = cachedTokenProvider(
      { getToken: () => Promise.resolve({ token: BEARER, expiresOnTimestamp: Date.now() + 3_600_000 }) },
      config.tokenScope,
      { logger, kind: "custom", description: "test credential" },
    );
    const catalog = CatalogClient.fromConfig(config, { logger, tokens, retryBaseMs: 1 });

    // The command line's way: the operation's error, reported with reportError.
    const io = collectingIo(lines);
    for (
      const call of [
        () => catalog.entity.get("0e1f"),
        () => catalog.search.query({ keywords: "x" }),
        () => catalog.collections.listAll(),
        () => catalog.glossary.list(),
      ]
    ) {
      const error = await call().then(() => undefined, (e) => e);
      assert.ok(error, "the echoing catalog refuses every call");
      assert.equal(reportError(error, io), 1);
    }

    // The tool server's way: error results, and its own log lines.
    const services = createToolServices({ config, logger, catalog });
    const { Client, InMemoryTransport } = await loadMcpClientSdk();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createToolServer(services);
    await server.connect(serverSide);
    const client = new Client({ name: "bearer-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      for (
        const call of [
          { name: "get_entity", arguments: { guid: "00000000-0000-4000-8000-000000000e1f" } },
          { name: "search_entities", arguments: { query: "customers" } },
          { name: "list_collections", arguments: {} },
          { name: "create_entity", arguments: { type_name: "DataSet", qualified_name: "q://x", name: "x" } },
          { name: "invoke_operation", arguments: { operation: "glossary.list", arguments: {} } },
        ]
      ) {
        const result = await client.callTool(call);
        assert.equal(result.isError, true, call.name);
        lines.push(JSON.stringify(result));
      }
    } finally {
      await client.close();
      await server.close();
    }

    // The token was in play: every request carried it, and the catalog echoed it back.
    assert.ok(echo.requests.length >= 9);
    for (const request of echo.requests) {
      assert.equal(request.headers.get("authorization"), `Bearer ${BEARER}`);
    }
    assert.ok(
      lines.some((line) => /status: 401/.test(line)) && lines.some((line) => /AuthorizationError/.test(line)),
    );
    lines.forEach((line, i) => assertClean(`captured line #${i}`, line));
  } finally {
    await echo.close();
  }
});

Deno.test("a successful tool result holding the server's secrets is masked in both its forms", async () => {
  const emulator = await startEmulator({ seed: false });
  try {
    const config = loadConfig({
      ...CREDENTIALS,
      CATALOG_ACCOUNT_NAME: "contoso",
      CATALOG_ENDPOINT: emulator.url,
    });
    const logger = createLogger("error", { write: () => {} });
    const catalog = CatalogClient.fromConfig(config, { logger });
    // Somebody pasted the secrets into catalog text; text that only looks like a credential is data.
    const description = `client secret ${CLIENT_SECRET}, mcp token ${MCP_TOKEN}, header "Bearer abc.def"`;
    const created = await catalog.entity.createOrUpdate({
      typeName: "DataSet",
      attributes: { qualifiedName: "q://pasted", name: "pasted", description },
    });
    const guid = created.mutatedEntities!.CREATE![0].guid!;

    const { Client, InMemoryTransport } = await loadMcpClientSdk();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createToolServer(createToolServices({ config, logger, catalog }));
    await server.connect(serverSide);
    const client = new Client({ name: "masking-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: "get_entity", arguments: { guid } });
      assert.equal(result.isError, undefined);
      const text = JSON.stringify(result);
      assertClean("get_entity result", text);
      const structured = result.structuredContent as { entity: { description: string } };
      assert.equal(
        structured.entity.description,
        'client secret ***, mcp token ***, header "Bearer abc.def"',
      );
      const content = result.content as Array<{ text: string }>;
      assert.deepEqual(JSON.parse(content[0].text), structured);
    } finally {
      await client.close();
      await server.close();
    }
  } finally {
    await emulator.close();
  }
});
