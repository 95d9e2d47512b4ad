import assert from "node:assert/strict";
import { runEmulatorCommand } from "../../cli/emulator_command.ts";
import type { RunningEmulator } from "../../lib/emulator/mod.ts";

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEmulatorCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

Deno.test("bad options exit 2 with a message naming the option", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["--prot=8080"], /unknown option --prot\. Did you mean "--port"\?/],
    [["--port", "--seed"], /--port needs a value/],
    [["--seeed"], /Did you mean "--seed"\?/],
    [["--port=abc"], /--port must be a whole number from 0 to 65535/],
    [["--port", "70000"], /--port must be a whole number/],
    [["--throttle-rate=2"], /--throttle-rate must be a number from 0 to 1, got "2"/],
    [["--error-rate", "lots"], /--error-rate must be a number from 0 to 1, got "lots"/],
    [["--error-status=404"], /--error-status must be a 5xx status/],
    [["--latency-ms=-5"], /--latency-ms must be a whole number of milliseconds/],
    [["--rps="], /--rps must be a number of requests/],
    [["--seed=yes"], /--seed is a flag and takes no value/],
    [["--seed", "--no-seed"], /contradict/],
    [["--data="], /--data needs a file name/],
    [
      ["serve"],
      /unexpected argument "serve": the emulator takes options only, written --name or --name=value/,
    ],
    // A task runner's `--` is dropped, so the options after it are read as options.
    [["--", "--port=abc"], /--port must be a whole number from 0 to 65535/],
    [["--latency-ms"], /--latency-ms needs a value/],
  ];
  for (const [argv, message] of cases) {
    const result = await run(argv);
    assert.equal(result.code, 2, `exit code for ${argv.join(" ")}`);
    assert.match(result.err, message, `message for ${argv.join(" ")}`);
    assert.equal(result.out, "");
  }
});

Deno.test("--help prints usage and exits 0", async () => {
  const result = await run(["--help"]);
  assert.equal(result.code, 0);
  assert.match(result.out, /Usage: govcat emulator/);
  assert.match(result.out, /--throttle-rate=F/);
});

Deno.test("the command serves until stopped, printing what it serves", async () => {
  const out: string[] = [];
  const err: string[] = [];
  const stop = new AbortController();
  let started: RunningEmulator | undefined;
  let healthStatus = 0;
  let searchCount = -1;
  const code = await runEmulatorCommand(["--port", "0", "--seed", "--latency-ms=1"], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stop: stop.signal,
    onStarted: (emulator) => {
      started = emulator;
      (async () => {
        const health = await fetch(`${emulator.url}/_emulator/health`);
        healthStatus = health.status;
        await health.body?.cancel();
        const search = await fetch(`${emulator.url}/catalog/api/search/query`, {
          method: "POST",
          body: JSON.stringify({ keywords: "orders" }),
        });
        searchCount = (await search.json())["@search.count"];
      })().finally(() => stop.abort());
    },
  });
  assert.equal(code, 0);
  assert.ok(started);
  assert.equal(healthStatus, 200);
  assert.ok(searchCount > 0);
  const text = out.join("\n");
  assert.match(text, new RegExp(`listening on http://127\\.0\\.0\\.1:${started.port}`));
  assert.match(text, /data: +in-memory/);
  assert.match(text, /entities: +42/);
  assert.match(text, /\/atlas\/v2\/entity/);
  assert.match(text, /\/search\/query/);
  assert.match(text, /faults: +latencyMs=1/);
  assert.match(
    text,
    new RegExp(
      `export CATALOG_ACCOUNT_NAME=emulator CATALOG_ENDPOINT=http://127\\.0\\.0\\.1:${started.port}\n`,
    ),
  );
  assert.match(err.join("\n"), /shutting down/);
});

Deno.test("the start-up lines name every API area the emulator serves outside the data-map prefix", async () => {
  // One route of each area served at the root, as a client would call it.
  const areas = [
    ["/scan", "/scan/datasources?api-version=2023-09-01"],
    ["/datagovernance/catalog", "/datagovernance/catalog/businessdomains?api-version=2025-09-15-preview"],
    ["/policyStore", "/policyStore/metadataRoles?api-version=2021-07-01-preview"],
    ["/workflow", "/workflow/workflows?api-version=2023-10-01-preview"],
    [
      "/purviewdataquality/api",
      "/purviewdataquality/api/business-domains/d1/schedules?api-version=2026-01-12-preview",
    ],
    ["/account", "/account?api-version=2019-11-01-preview"],
  ];
  const stop = new AbortController();
  const unserved: string[] = [];
  const out: string[] = [];
  await runEmulatorCommand(["--port", "0"], {
    out: (line) => out.push(line),
    err: () => {},
    stop: stop.signal,
    onStarted: (emulator) => {
      (async () => {
        for (const [, path] of areas) {
          const answer = await fetch(`${emulator.url}${path}`);
          const text = await answer.text();
          if (answer.status === 404 && /No API is served/.test(text)) unserved.push(path);
        }
      })().finally(() => stop.abort());
    },
  });
  assert.deepEqual(unserved, [], "a sample route is not served: fix the sample");
  const routeLines = out.join("\n").split("Point govcat at it")[0];
  const unnamed = areas.filter(([prefix]) =>
    !routeLines.includes(`${prefix} (`) && !routeLines.includes(`${prefix},`)
  )
    .map(([prefix]) => prefix);
  assert.deepEqual(unnamed, []);
});
