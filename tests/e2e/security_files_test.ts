/**
 * Local files under attack, as a prompt-injected assistant or a
 * careless launch would try: read-only mode that still writes, silent overwrites, half-written files, a
 * file root that is the whole disk (a client launching the server in `/`), roots from the MCP client,
 * symbolic links out of the root, FIFOs that would hang a reader, and an import into a directory that
 * cannot be written. Each test proves the file on disk unchanged (byte for byte) where a write is refused.
 * Loopback only; every wait is bounded.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../../lib/config/config.ts";
import { ListRootsRequestSchema, loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { createLogger } from "../../lib/core/log.ts";
import { createToolServer, createToolServices } from "../../lib/mcp/server.ts";
import { writeOutputFile } from "../../lib/files/output_files.ts";
import { baseEnv, MAIN, runGovcat } from "../support/govcat_process.ts";
import { type McpClient, resultJson, startHarness } from "../support/mcp_harness.ts";
import { withCliSetup } from "../support/cli_harness.ts";

const CSV = "collection_name,friendly_name\nfinance,Finance\n";
const EXISTING = "precious content, not to be replaced\n";

async function withDirs<T>(test: (dirs: { base: string; root: string; outside: string }) => Promise<T>) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-files-attack-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  try {
    return await test({ base, root, outside });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

async function invoke(client: McpClient, operation: string, args: Record<string, unknown>) {
  const result = await client.callTool({
    name: "invoke_operation",
    arguments: { operation, arguments: args },
  });
  return { isError: result.isError === true, json: resultJson(result), text: JSON.stringify(result) };
}

async function bytes(path: string): Promise<string> {
  return Array.from(await Deno.readFile(path)).join(",");
}

Deno.test("read-only mode: collections.export and validate.csv with a report file are refused, the files unchanged", async () => {
  await withDirs(async ({ root }) => {
    await Deno.writeTextFile(join(root, "ok.csv"), CSV);
    await Deno.writeTextFile(join(root, "export.csv"), EXISTING);
    await Deno.writeTextFile(join(root, "report.json"), EXISTING);
    const before = {
      export: await bytes(join(root, "export.csv")),
      report: await bytes(join(root, "report.json")),
    };
    const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root, CATALOG_MCP_READ_ONLY: "true" } });
    try {
      for (const args of [{ outputFile: "export.csv" }, { outputFile: "export.csv", overwrite: true }]) {
        const exported = await invoke(h.client, "collections.export", args);
        assert.equal(exported.isError, true, exported.text);
        assert.match(
          String(exported.json.message),
          /collections\.export writes a local file \(outputFile\) and this server is in read-only mode/,
        );
      }
      for (const field of ["reportFile", "output"]) {
        const validated = await invoke(h.client, "validate.csv", {
          csvFile: "ok.csv",
          [field]: "report.json",
          ...(field === "reportFile" ? { overwrite: true } : {}),
        });
        assert.equal(validated.isError, true, validated.text);
        assert.match(
          String(validated.json.message),
          new RegExp(`validate\\.csv writes a local file when ${field} is given.*read-only mode`),
        );
      }
      assert.equal(await bytes(join(root, "export.csv")), before.export, "the export file is unchanged");
      assert.equal(await bytes(join(root, "report.json")), before.report, "the report file is unchanged");
      assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [
        "export.csv",
        "ok.csv",
        "report.json",
      ]);

      // Checking a file without a report still works in read-only mode.
      const checked = await invoke(h.client, "validate.csv", { csvFile: "ok.csv" });
      assert.equal(checked.isError, false, checked.text);
      assert.equal((checked.json.result as { rows: number }).rows, 1);

      // list_available_operations says so: no export, and validate.csv without its report arguments.
      // (the default listing is an index: ids under read, write, destructive; schemas per operation)
      const index = await h.client.callTool({ name: "list_available_operations", arguments: {} });
      assert.ok(!JSON.stringify(index.structuredContent).includes('"collections.export"'), "not listed");
      const listed = await h.client.callTool({
        name: "list_available_operations",
        arguments: { operation: "validate.csv" },
      });
      const operations = (listed.structuredContent as {
        categories: Array<{ operations: Array<Record<string, unknown>> }>;
      }).categories.flatMap((c) => c.operations);
      const validate = operations.find((op) => op.name === "validate.csv")!;
      const properties = (validate.inputSchema as { properties: Record<string, unknown> }).properties;
      assert.ok(!("reportFile" in properties) && !("output" in properties), Object.keys(properties).join());
      assert.equal((validate.annotations as { readOnlyHint: boolean }).readOnlyHint, true);
    } finally {
      await h.close();
    }
  });
});

Deno.test("annotations: an operation that may write a local file is not read-only", async () => {
  await withDirs(async ({ root }) => {
    const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const operations: Array<Record<string, unknown>> = [];
      for (
        const operation of [
          "collections.export",
          "validate.csv",
          "templates.write",
          "lineage_csv.generate_sample",
        ]
      ) {
        const listed = await h.client.callTool({
          name: "list_available_operations",
          arguments: { operation },
        });
        operations.push(...(listed.structuredContent as {
          categories: Array<{ operations: Array<Record<string, unknown>> }>;
        }).categories.flatMap((c) => c.operations));
      }
      for (
        const [name, fields] of [
          ["collections.export", ["outputFile"]],
          ["validate.csv", ["reportFile", "output"]],
          ["templates.write", ["outputFile"]],
          ["lineage_csv.generate_sample", ["outputFile"]],
        ] as const
      ) {
        const operation = operations.find((op) => op.name === name)!;
        assert.equal((operation.annotations as { readOnlyHint: boolean }).readOnlyHint, false, name);
        assert.deepEqual(operation.writesLocalFile, fields, name);
      }
    } finally {
      await h.close();
    }
  });
});

Deno.test("an existing file is replaced only when the arguments say overwrite", async () => {
  await withDirs(async ({ root }) => {
    await Deno.writeTextFile(join(root, "ok.csv"), CSV);
    await Deno.writeTextFile(join(root, "export.csv"), EXISTING);
    await Deno.writeTextFile(join(root, "report.json"), EXISTING);
    const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const exported = await invoke(h.client, "collections.export", { outputFile: "export.csv" });
      assert.equal(exported.isError, true, exported.text);
      assert.match(
        String(exported.json.message),
        /--output-file: export\.csv already exists; nothing was written/,
      );
      assert.match(String(exported.json.hint), /"overwrite": true/);
      const validated = await invoke(h.client, "validate.csv", {
        csvFile: "ok.csv",
        reportFile: "report.json",
      });
      assert.equal(validated.isError, true, validated.text);
      assert.match(String(validated.json.message), /--report-file: report\.json already exists/);
      assert.equal(await Deno.readTextFile(join(root, "export.csv")), EXISTING);
      assert.equal(await Deno.readTextFile(join(root, "report.json")), EXISTING);

      const replaced = await invoke(h.client, "collections.export", {
        outputFile: "export.csv",
        overwrite: true,
      });
      assert.equal(replaced.isError, false, replaced.text);
      assert.match(await Deno.readTextFile(join(root, "export.csv")), /^collection_name,friendly_name/);
      const reported = await invoke(h.client, "validate.csv", {
        csvFile: "ok.csv",
        reportFile: "report.json",
        overwrite: true,
      });
      assert.equal(reported.isError, false, reported.text);
      assert.equal(JSON.parse(await Deno.readTextFile(join(root, "report.json"))).valid, true);
      assert.deepEqual(
        [...Deno.readDirSync(root)].map((e) => e.name).sort(),
        ["export.csv", "ok.csv", "report.json"],
        "no temporary file is left",
      );
    } finally {
      await h.close();
    }
  });
});

Deno.test("a write that fails midway leaves the old file intact and no temporary file", async () => {
  await withDirs(async ({ root }) => {
    const target = join(root, "export.csv");
    await Deno.writeTextFile(target, EXISTING);
    const before = await bytes(target);
    await assert.rejects(
      writeOutputFile({}, target, "--output-file", async (write) => {
        // More than one flush (64 KiB), so part of the new content has reached the disk.
        for (let i = 0; i < 2000; i++) await write(`row ${i},${"x".repeat(100)}\n`);
        throw new Error("the catalog went away");
      }, { overwrite: true }),
      /the catalog went away/,
    );
    assert.equal(await bytes(target), before, "the old file is intact");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["export.csv"]);
  });
});

/** A tool server without CATALOG_MCP_FILE_ROOT and an SDK client in the same process. */
async function withRootsClient(
  roots: { current: Array<{ uri: string; name?: string }> } | undefined,
  test: (client: McpClient) => Promise<void>,
) {
  const { Client, InMemoryTransport } = await loadMcpClientSdk();
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9" });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  const server = createToolServer(services);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: "roots-test", version: "1.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.current }));
  await client.connect(clientSide);
  try {
    await test(client);
  } finally {
    await client.close();
    await server.close();
  }
}

Deno.test("no CATALOG_MCP_FILE_ROOT: the roots the client declares, re-read after roots/list_changed", async () => {
  await withDirs(async ({ base, root, outside }) => {
    await Deno.writeTextFile(join(root, "ok.csv"), CSV);
    await Deno.writeTextFile(join(outside, "ok.csv"), CSV + "sales,Sales\n");
    const roots: { current: Array<{ uri: string; name?: string }> } = {
      current: [{ uri: pathToFileURL(root).href, name: "project" }],
    };
    await withRootsClient(roots, async (client) => {
      const first = await invoke(client, "validate.csv", { csvFile: "ok.csv" });
      assert.equal(first.isError, false, first.text);
      assert.equal((first.json.result as { rows: number }).rows, 1, "read from the declared root");
      const elsewhere = await invoke(client, "validate.csv", { csvFile: join(outside, "ok.csv") });
      assert.equal(elsewhere.isError, true);
      assert.match(String(elsewhere.json.message), /is outside the directory this server may use/);

      roots.current = [{ uri: pathToFileURL(outside).href }];
      await client.sendRootsListChanged();
      // The notification and the next call race only in the order they were sent: answered in order.
      const second = await invoke(client, "validate.csv", { csvFile: "ok.csv" });
      assert.equal(second.isError, false, second.text);
      assert.equal((second.json.result as { rows: number }).rows, 2, "read from the new root");
      const old = await invoke(client, "validate.csv", { csvFile: join(root, "ok.csv") });
      assert.equal(old.isError, true, "the old root no longer counts");

      // A client declaring the whole disk (or something that is not a file URL) gets no file access.
      roots.current = [{ uri: "file:///" }, {
        uri: pathToFileURL(base).href + "/nope",
      }];
      await client.sendRootsListChanged();
      const refused = await invoke(client, "validate.csv", { csvFile: "/etc/passwd" });
      assert.equal(refused.isError, true);
      assert.match(String(refused.json.message), /none of the roots the MCP client declares is usable/);
      assert.match(String(refused.json.message), /file:\/\/\/ \(is the root of the file system\)/);
      assert.ok(!refused.text.includes("root:x:0:0"), "nothing of the file is shown");
    });
  });
});

Deno.test("no CATALOG_MCP_FILE_ROOT and a client without roots: file tools refuse and say how to grant access", async () => {
  await withRootsClient(undefined, async (client) => {
    for (
      const [operation, args] of [
        ["validate.csv", { csvFile: "ok.csv" }],
        ["templates.write", { name: "collections", outputFile: "t.csv" }],
      ] as const
    ) {
      const refused = await invoke(client, operation, args);
      assert.equal(refused.isError, true, refused.text);
      assert.match(
        String(refused.json.message),
        /this tool server has no file access: no CATALOG_MCP_FILE_ROOT is set/,
      );
      assert.match(
        String(refused.json.hint),
        /Set CATALOG_MCP_FILE_ROOT \(or start the server with --file-root=DIR\)/,
      );
      assert.match(String(refused.json.hint), /client that declares its roots/);
    }
  });
});

Deno.test("a server launched in / with no root: validate.csv of /etc/passwd is refused and nothing of it echoed", async () => {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write", MAIN, "serve"],
    env: { ...baseEnv(), CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9" },
    cwd: "/",
    stderr: "pipe",
  });
  const client = new Client({ name: "launched-in-root", version: "1.0.0" });
  await client.connect(transport);
  try {
    const firstLine = (await Deno.readTextFile("/etc/passwd")).split("\n")[0];
    for (const csvFile of ["/etc/passwd", "etc/passwd", "../etc/passwd"]) {
      const result = await invoke(client, "validate.csv", { csvFile });
      assert.equal(result.isError, true, result.text);
      assert.match(String(result.json.message), /no file access/);
      assert.ok(!result.text.includes(firstLine), `the file's first line is not echoed: ${result.text}`);
    }
  } finally {
    await client.close();
  }
});

Deno.test("a symbolic link out of the root is refused for reading and writing, without naming its target", async () => {
  await withDirs(async ({ root, outside }) => {
    await Deno.writeTextFile(join(outside, "target.csv"), CSV);
    const before = await bytes(join(outside, "target.csv"));
    await Deno.symlink(join(outside, "target.csv"), join(root, "link.csv"));
    await Deno.symlink(outside, join(root, "dir-link"));
    const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      for (
        const [operation, args] of [
          ["validate.csv", { csvFile: "link.csv" }],
          ["validate.csv", { csvFile: "dir-link/target.csv" }],
          ["collections.export", { outputFile: "link.csv", overwrite: true }],
          ["collections.export", { outputFile: "dir-link/new.csv" }],
        ] as const
      ) {
        const refused = await invoke(h.client, operation, args);
        assert.equal(refused.isError, true, refused.text);
        assert.match(String(refused.json.message), /leads outside the directory this server may use/);
        assert.ok(!refused.text.includes(outside), `the target is not named: ${refused.text}`);
      }
      assert.equal(await bytes(join(outside, "target.csv")), before);
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["target.csv"]);
    } finally {
      await h.close();
    }
  });
});

Deno.test({
  name: "a FIFO or a directory as a file argument is refused without blocking",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withDirs(async ({ root }) => {
      const fifo = join(root, "pipe.csv");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.equal(made.code, 0, "mkfifo");
      await Deno.mkdir(join(root, "folder.csv"));
      const h = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const attempts = Promise.all([
          invoke(h.client, "validate.csv", { csvFile: "pipe.csv" }),
          invoke(h.client, "collections.export", { outputFile: "pipe.csv", overwrite: true }),
          invoke(h.client, "validate.csv", { csvFile: "folder.csv" }),
        ]);
        const timeout = new Promise<"timeout">((resolve) =>
          timer = setTimeout(() => resolve("timeout"), 10_000)
        );
        const outcome = await Promise.race([attempts, timeout]);
        if (outcome === "timeout") {
          // Release a reader stuck on the FIFO so the test can end, then fail.
          const writer = await Deno.open(fifo, { write: true });
          writer.close();
          assert.fail("a call blocked on the FIFO");
        }
        const [readFifo, writeFifo, readDirectory] = outcome;
        for (const refused of [readFifo, writeFifo]) {
          assert.equal(refused.isError, true, refused.text);
          assert.match(
            String(refused.json.message),
            /pipe\.csv is not a regular file \(a FIFO, a device or a socket\)/,
          );
        }
        assert.equal(readDirectory.isError, true);
        assert.match(String(readDirectory.json.message), /folder\.csv is a directory/);
        assert.ok((await Deno.lstat(fifo)).isFifo, "the FIFO is still there, not replaced");
      } finally {
        clearTimeout(timer);
        await h.close();
      }
    });
  },
});

Deno.test("an import whose directory cannot be written: a typed error naming the file, nothing sent, no stack", async () => {
  await withCliSetup({ seed: false, prefix: "govcat-readonly-dir-" }, async ({ env, dir, requests }) => {
    const data = join(dir, "data");
    const writable = join(dir, "writable");
    await Deno.mkdir(data);
    await Deno.mkdir(writable);
    const csv = join(data, "collections.csv");
    await Deno.writeTextFile(csv, "collection_name,friendly_name,parent_collection\nfinance,Finance,\n");
    const writesBefore = requests("PUT") + requests("POST");
    // The directory of the input is read-only to the process (Deno's permissions: the same refusal).
    const run = await runGovcat(["collections", "import", `--csv-file=${csv}`], env, {
      permissions: ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", `--allow-write=${writable}`],
    });
    assert.equal(run.code, 1, run.stderr);
    const checkpoint = `${csv}.govcat-checkpoint`;
    // The run's lock file beside the checkpoint is the first file an import writes.
    assert.ok(
      run.stderr.includes(`could not write the import's lock file ${checkpoint}.lock`) ||
        run.stderr.includes(`could not write the import's checkpoint ${checkpoint}`),
      `names the file: ${run.stderr}`,
    );
    assert.match(run.stderr, /nothing was sent/);
    assert.match(run.stderr, /--checkpoint-file/);
    assert.doesNotMatch(run.stderr, /unexpected failure|^\s+at /m);
    assert.equal(requests("PUT") + requests("POST"), writesBefore, "nothing was sent");
    assert.throws(() => Deno.lstatSync(checkpoint), Deno.errors.NotFound);

    // Following the hint works: a checkpoint in a writable directory.
    const ok = await runGovcat(
      ["collections", "import", `--csv-file=${csv}`, `--checkpoint-file=${join(writable, "cp")}`],
      env,
      { permissions: ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", `--allow-write=${writable}`] },
    );
    assert.equal(ok.code, 0, ok.stderr);
  });
});

Deno.test("over stdio (with the fast start) a client's declared roots are the file root, even when launched in /", async () => {
  await withDirs(async ({ root }) => {
    await Deno.writeTextFile(join(root, "ok.csv"), CSV);
    const { Client, StdioClientTransport } = await loadMcpClientSdk();
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write", MAIN, "serve"],
      env: { ...baseEnv(), CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9" },
      cwd: "/",
      stderr: "pipe",
    });
    const client = new Client({ name: "with-roots", version: "1.0.0" }, {
      capabilities: { roots: { listChanged: true } },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(root).href }] }));
    await client.connect(transport);
    try {
      const checked = await invoke(client, "validate.csv", { csvFile: "ok.csv" });
      assert.equal(checked.isError, false, checked.text);
      assert.equal((checked.json.result as { rows: number }).rows, 1);
      const refused = await invoke(client, "validate.csv", { csvFile: "/etc/passwd" });
      assert.equal(refused.isError, true);
      assert.match(String(refused.json.message), /is outside the directory this server may use/);
    } finally {
      await client.close();
    }
  });
});

Deno.test("over streamable HTTP (with a token) a client's declared roots are asked within the tool call", async () => {
  await withDirs(async ({ root }) => {
    await Deno.writeTextFile(join(root, "ok.csv"), CSV);
    // Declared roots count over HTTP only from authenticated clients (security_file_consent_test.ts).
    const token = "token-of-the-roots-test-0123456789";
    const h = await startHarness({ noClient: true, authToken: token });
    const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
    const client = new Client({ name: "http-roots", version: "1.0.0" }, {
      capabilities: { roots: { listChanged: true } },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(root).href }] }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", h.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const checked = await invoke(client, "validate.csv", { csvFile: "ok.csv" });
      assert.equal(checked.isError, false, checked.text);
      assert.equal((checked.json.result as { rows: number }).rows, 1);
    } finally {
      await client.close();
      await h.close();
    }
  });
});

Deno.test("serve --emulator without roots works on fixtures/samples; --file-root=/ is refused at start", async () => {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      MAIN,
      "serve",
      "--emulator",
    ],
    env: baseEnv(),
    cwd: "/",
    stderr: "pipe",
  });
  const client = new Client({ name: "quick-start", version: "1.0.0" });
  await client.connect(transport);
  try {
    const checked = await invoke(client, "validate.csv", { csvFile: "collections.csv" });
    assert.equal(checked.isError, false, checked.text);
    assert.equal((checked.json.result as { template: string }).template, "collections");
    const outside = await invoke(client, "validate.csv", { csvFile: "../emulator/seed.json" });
    assert.equal(outside.isError, true, "confined to the samples");
  } finally {
    await client.close();
  }

  const refused = await runGovcat(["serve", "--file-root=/"], {
    CATALOG_ACCOUNT_NAME: "contoso",
    CATALOG_ENDPOINT: "http://127.0.0.1:9",
  });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /"\/", which is the root of the file system/);
});
