/**
 * Hostile input, table-driven: malformed JSON-RPC, oversized and deeply nested bodies, wrong argument
 * types, path traversal in file arguments and invalid GUIDs, each sent the way an attacker or a confused
 * client would (raw HTTP to the MCP endpoint, a real SDK client, the command line in process or as a
 * subprocess). Every case expects a clear refusal — status, JSON-RPC code, isError or exit code, and a
 * message — and then proves it changed nothing: the emulator's entities and collections, no write in its
 * request log, no file added or changed inside or outside the file root.
 *
 * Arguments: a wrong type is refused naming the field, and so is an argument the tool or operation does not
 * take (a misspelt name would otherwise be dropped and the call run as if it had not been given), as the
 * command line refuses an unknown option.
 */
import { join } from "node:path";
import {
  type HostileCase,
  type HostileSetup,
  runCases,
  type Sent,
  withHostileSetup,
} from "../support/hostile.ts";

const SEEDED_GUID_QUERY = { query: "customers", limit: 1 };

const http = (body: string | (() => BodyInit), headers?: Record<string, string>): Sent => ({
  via: "http",
  body,
  headers,
});
const tool = (name: string, args: Record<string, unknown>): Sent => ({ via: "tool", tool: name, args });
const call = (name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name, arguments: args } });
const INVALID_MESSAGE = /Invalid JSON-RPC message/;
/** The session negotiated 2025-06-18, which has no JSON-RPC batches: any array is refused as one. */
const NO_BATCHES = /no JSON-RPC batches since revision 2025-06-18/;

/** 5 MiB of spaces in 64 KiB chunks, without a Content-Length: only the reader's count can stop it. */
function streamedBody(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= 5 * 1024 * 1024) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

const DEEP = 100_000;
const JSON_RPC_CASES: HostileCase[] = [
  // The control: a well-formed request in the same session is answered, so the refusals below are about
  // their bodies, not a missing session.
  {
    name: "control: tools/list",
    send: http('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
    expect: { status: 200, message: /get_entity/ },
  },
  {
    name: "not JSON",
    send: http("{not json"),
    expect: { status: 400, code: -32700, message: /not valid JSON/ },
  },
  { name: "empty body", send: http(""), expect: { status: 400, code: -32700, message: /not valid JSON/ } },
  {
    name: "JSON, not JSON-RPC",
    send: http('{"hello":1}'),
    expect: { status: 400, message: INVALID_MESSAGE },
  },
  {
    name: "a batch of garbage",
    send: http("[1,2,3]"),
    expect: { status: 400, code: -32600, message: NO_BATCHES },
  },
  { name: "an empty batch", send: http("[]"), expect: { status: 400, code: -32600, message: /empty batch/ } },
  { name: "bare null", send: http("null"), expect: { status: 400, message: INVALID_MESSAGE } },
  { name: "a bare number", send: http("42"), expect: { status: 400, message: INVALID_MESSAGE } },
  {
    name: "missing method",
    send: http('{"jsonrpc":"2.0","id":7}'),
    expect: { status: 400, message: INVALID_MESSAGE },
  },
  {
    name: "wrong jsonrpc version",
    send: http('{"jsonrpc":"1.0","id":8,"method":"tools/list"}'),
    expect: { status: 400, message: INVALID_MESSAGE },
  },
  {
    name: "params as an array",
    send: http('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1]}'),
    expect: { status: 400, message: INVALID_MESSAGE },
  },
  {
    name: "unknown method",
    send: http('{"jsonrpc":"2.0","id":9,"method":"nope/nope"}'),
    expect: { status: 200, code: -32601, message: /Method not found/ },
  },
  {
    name: "a write tool's call in a batch of garbage",
    send: http(`[${call("delete_entity", { guid: "x" })}, 5]`),
    expect: { status: 400, message: NO_BATCHES, noRequest: true },
  },
  {
    name: "wrong content type",
    send: http(call("get_entity", { guid: "x" }), { "content-type": "text/plain" }),
    expect: { status: 415, message: /Content-Type must be application\/json/, noRequest: true },
  },
  {
    name: "no event-stream in Accept",
    send: http(call("get_entity", { guid: "x" }), { accept: "application/json" }),
    expect: { status: 406, message: /must accept both/, noRequest: true },
  },
  {
    name: "a body over 4 MiB, streamed without Content-Length",
    send: http(streamedBody),
    expect: { status: 413, message: /larger than 4194304 bytes/, noRequest: true },
  },
  {
    name: `${DEEP} unclosed levels of [`,
    send: http("[".repeat(DEEP)),
    expect: { status: 400, code: -32700, message: /not valid JSON/ },
  },
  {
    name: `${DEEP} closed levels of [ as the message`,
    send: http("[".repeat(DEEP) + "]".repeat(DEEP)),
    expect: { status: 400, message: NO_BATCHES },
  },
  {
    name: `${DEEP} levels of [ inside a write tool's argument`,
    send: http(
      call("create_entity", {
        type_name: "DataSet",
        qualified_name: "q://deep",
        name: "deep",
        attributes: { x: 0 },
      })
        .replace('{"x":0}', `{"x":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`),
    ),
    expect: { status: 200, message: /Attribute x not found for type DataSet/ },
  },
  {
    name: `${DEEP / 2} levels of objects where a string belongs`,
    send: http(
      call("search_entities", { query: 0 }).replace(
        ":0}",
        `:${'{"a":'.repeat(DEEP / 2)}1${"}".repeat(DEEP / 2)}}`,
      ),
    ),
    expect: { status: 200, message: /query: Invalid input: expected string, received object/ },
  },
];

Deno.test("hostile JSON-RPC over raw HTTP: clear errors, the server survives, nothing changes", async (t) => {
  await withHostileSetup((setup) => runCases(t, setup, JSON_RPC_CASES));
});

const invalid = (field: string, detail: string) =>
  new RegExp(`InvalidArguments.*${field}: Invalid input: expected ${detail}`);

const ARGUMENT_CASES: HostileCase[] = [
  {
    name: "string for an integer",
    send: tool("search_entities", { query: "x", limit: "10" }),
    expect: { isError: true, message: invalid("limit", "number, received string"), noRequest: true },
  },
  {
    name: "array for an object",
    send: tool("update_entity", { guid: "x", attributes: [] }),
    expect: { isError: true, message: invalid("attributes", "record, received array"), noRequest: true },
  },
  {
    name: "number for a string",
    send: tool("delete_entity", { guid: 5 }),
    expect: { isError: true, message: invalid("guid", "string, received number"), noRequest: true },
  },
  {
    name: "null for a required field",
    send: tool("delete_entity", { guid: null }),
    expect: { isError: true, message: invalid("guid", "string, received null"), noRequest: true },
  },
  {
    name: "string for a boolean",
    send: tool("get_entity", { guid: "x", min_ext_info: "true" }),
    expect: { isError: true, message: invalid("min_ext_info", "boolean, received string"), noRequest: true },
  },
  {
    name: "object for an array of entities",
    send: tool("batch_create_entities", { entities: { type_name: "DataSet" } }),
    expect: { isError: true, message: invalid("entities", "array, received object"), noRequest: true },
  },
  {
    name: "arguments of invoke_operation as an array",
    send: tool("invoke_operation", { operation: "entity.delete", arguments: [] }),
    expect: { isError: true, message: invalid("arguments", "record, received array"), noRequest: true },
  },
  {
    name: "wrong type inside invoke_operation's arguments",
    send: tool("invoke_operation", { operation: "entity.delete", arguments: { guid: ["x"] } }),
    expect: {
      isError: true,
      message: /arguments\.guid: Invalid input: expected string, received array/,
      noRequest: true,
    },
  },
  {
    // A misspelt or invented argument is refused naming it, like an unknown option on the command line.
    name: "an unknown extra field is refused",
    send: tool("search_entities", { ...SEEDED_GUID_QUERY, bogus: { nested: true } }),
    expect: {
      isError: true,
      message: /InvalidArguments.*search_entities takes no argument \\"bogus\\"/,
      noRequest: true,
    },
  },
  {
    name: "an unknown extra argument to an operation is refused",
    send: tool("invoke_operation", { operation: "search.query", arguments: { keywords: "x", bogus: 1 } }),
    expect: { isError: true, message: /search\.query \(in arguments\) takes no argument/, noRequest: true },
  },
  {
    // The command line is as strict.
    name: "an unknown option on the command line is refused",
    send: { via: "runCli", argv: ["search", "query", "--keywords=x", "--bogus=1"] },
    expect: { exit: 2, message: /unknown option --bogus/, noRequest: true },
  },
];

Deno.test("wrong argument types and unknown arguments to tools are refused naming the field", async (t) => {
  await withHostileSetup((setup) => runCases(t, setup, ARGUMENT_CASES));
});

/** File arguments of the tool server: each reads (or writes) a path that must stay under the root. */
const FILE_ARGUMENTS: Array<
  { label: string; sent: (path: string) => Sent; option: string; writes?: boolean }
> = [
  {
    label: "import_entities_from_csv",
    option: "file_path",
    sent: (path) =>
      tool("import_entities_from_csv", {
        file_path: path,
        entity_type: "DataSet",
        column_mapping: { collection_name: "qualifiedName" },
      }),
  },
  {
    label: "collections.import",
    option: "--csv-file",
    sent: (path) =>
      tool("invoke_operation", { operation: "collections.import", arguments: { csvFile: path } }),
  },
  {
    label: "types.create-type-defs",
    option: "--payload-file",
    sent: (path) =>
      tool("invoke_operation", { operation: "types.create-type-defs", arguments: { payloadFile: path } }),
  },
  {
    label: "collections.export",
    option: "--output-file",
    writes: true,
    sent: (path) =>
      tool("invoke_operation", { operation: "collections.export", arguments: { outputFile: path } }),
  },
];

/**
 * Paths and the refusal each gets. `literal` marks names that are legal file names inside the root
 * (`..%2f…` and backslashes are not separators on this system): reading them finds no file, and the
 * export is left out, since writing such a file inside the root is allowed.
 */
function pathCases(setup: HostileSetup): HostileCase[] {
  const outsideName = setup.outside.split("/").pop()!;
  const OUTSIDE = /is outside the directory this server may use/;
  const paths: Array<{ name: string; path: string; message: RegExp; literal?: boolean }> = [
    { name: "../ to the sibling", path: `sub/../../${outsideName}/secret.csv`, message: OUTSIDE },
    { name: "absolute outside", path: join(setup.outside, "secret.csv"), message: OUTSIDE },
    { name: "absolute system file", path: "/etc/passwd", message: OUTSIDE },
    {
      name: "%2e%2e, taken literally",
      path: `%2e%2e/${outsideName}/secret.csv`,
      message: /not found: %2e%2e\//,
    },
    {
      name: "..%2f, taken literally",
      path: `..%2f${outsideName}%2fsecret.csv`,
      message: /not found: \.\.%2f/,
      literal: true,
    },
    {
      name: "a NUL byte before ../",
      path: "ok.csv\0/../../../etc/passwd",
      message: /contains a NUL character/,
    },
    { name: "a NUL byte", path: "ok.csv\0", message: /contains a NUL character/ },
    {
      name: "backslashes",
      path: "..\\..\\etc\\passwd",
      message: /not found: \.\.\\\\\.\.\\\\etc/,
      literal: true,
    },
    { name: "a file: URL", path: "file:///etc/passwd", message: /not found: file:\/\/\/etc/ },
    {
      name: "a very long path",
      path: "x".repeat(5000) + ".csv",
      message: /cannot use x+.*(too long|ENAMETOOLONG)/i,
    },
    { name: "a deep path", path: "a/".repeat(2000) + "x.csv", message: /not found: (a\/)+/ },
  ];
  const cases = paths.flatMap(({ name, path, message, literal }) =>
    FILE_ARGUMENTS.filter(({ writes }) => !(literal && writes)).map(({ label, sent, option }) => ({
      name: `${label}: ${name}`,
      send: sent(path),
      expect: {
        isError: true,
        // The export names its parent directory when that is what is missing.
        message: new RegExp(
          `${option}: .*${message.source.replace("not found", "(file|directory) not found")}`,
        ),
        noRequest: true,
      },
    }))
  );
  // The root itself as the output file: a directory (it once said "outside … it leads to" the parent).
  return [...cases, {
    name: "collections.export: the root itself",
    send: FILE_ARGUMENTS.find((argument) => argument.writes)!.sent("."),
    expect: { isError: true, message: /--output-file: \. is a directory\./, noRequest: true },
  }];
}

Deno.test("path traversal in file arguments: refused with a clear error, nothing read or written", async (t) => {
  await withHostileSetup((setup) => runCases(t, setup, pathCases(setup)));
});

/** The command line's refusal of a GUID option's value. */
const notAGuid = (value: string) =>
  new RegExp(
    `--guid: must be a GUID \\(8-4-4-4-12 hexadecimal digits.*\\), not "${value.replace(/\./g, "\\.")}"`,
  );
/** A tool refuses a malformed GUID before sending anything, as the command line does. */
const TOOL_NOT_A_GUID = {
  isError: true,
  message: /must be a GUID \(8-4-4-4-12 .*nothing was sent/,
  noRequest: true,
};

const GUID_CASES: HostileCase[] = [
  {
    name: "get_entity: not a GUID",
    send: tool("get_entity", { guid: "not-a-guid" }),
    expect: TOOL_NOT_A_GUID,
  },
  {
    name: "get_entity: slashes never reach the path",
    send: tool("get_entity", { guid: "../../types/typedefs" }),
    expect: TOOL_NOT_A_GUID,
  },
  { name: "get_entity: ..", send: tool("get_entity", { guid: ".." }), expect: TOOL_NOT_A_GUID },
  {
    name: "delete_entity: ..",
    send: tool("delete_entity", { guid: "..", confirm: true }),
    expect: TOOL_NOT_A_GUID,
  },
  {
    name: "delete_entity: %2e%2e",
    send: tool("delete_entity", { guid: "%2e%2e", confirm: true }),
    expect: TOOL_NOT_A_GUID,
  },
  {
    name: "get_entity: a NUL and 10,000 characters",
    send: tool("get_entity", { guid: `\0${"g".repeat(10_000)}` }),
    expect: TOOL_NOT_A_GUID,
  },
  {
    name: "delete_collection: ..",
    send: tool("delete_collection", { collection_name: "..", confirm: true }),
    expect: {
      isError: true,
      message: /not a valid collection name|is not a valid name or id/,
      noRequest: true,
    },
  },
  // The command line refuses anything but a GUID in a GUID option before sending, so no path is built.
  {
    name: "CLI entity get --guid=not-a-guid",
    send: { via: "runCli", argv: ["entity", "get", "--guid=not-a-guid"] },
    expect: { exit: 2, message: notAGuid("not-a-guid"), noRequest: true },
  },
  {
    name: "CLI entity get --guid= (empty)",
    send: { via: "runCli", argv: ["entity", "get", "--guid="] },
    expect: { exit: 2, message: notAGuid(""), noRequest: true },
  },
  {
    name: "CLI entity delete --guid=.",
    send: { via: "runCli", argv: ["entity", "delete", "--confirm", "--guid=."] },
    expect: { exit: 2, message: notAGuid("."), noRequest: true },
  },
  {
    name: "CLI collections delete --collection-name=.. (once DELETE /account/)",
    send: { via: "runCli", argv: ["collections", "delete", "--confirm", "--collection-name=.."] },
    expect: {
      exit: 2,
      message: /error: .*(not a valid collection name|is not a valid name or id)/,
      noRequest: true,
    },
  },
  {
    name: "CLI subprocess entity get --guid ..",
    send: { via: "subprocess", argv: ["entity", "get", "--guid", ".."] },
    expect: { exit: 2, message: notAGuid(".."), noRequest: true },
  },
];

Deno.test("invalid GUIDs and names: a clean 404, or refused before any request when they would change the path", async (t) => {
  await withHostileSetup((setup) => runCases(t, setup, GUID_CASES));
});
