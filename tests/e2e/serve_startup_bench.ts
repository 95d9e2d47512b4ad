/**
 * Start-up of the tool server over stdio: process start to the `tools/list` answer, next to a
 * `deno run` of an empty script on the same machine (the floor). The ratio is the figure that counts.
 * Target: within 2× of the floor.
 */
import { baseEnv, MAIN } from "../support/govcat_process.ts";

const EMPTY = await Deno.makeTempFile({ suffix: ".ts" });
await Deno.writeTextFile(EMPTY, "export {};\n");
const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];
const ENV = { ...baseEnv(), CATALOG_ACCOUNT_NAME: "bench", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
const REQUESTS = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
].map((m) => JSON.stringify(m)).join("\n") + "\n";

Deno.bench("deno run of an empty script (floor)", { group: "startup", baseline: true }, async () => {
  const status = await new Deno.Command(Deno.execPath(), { args: ["run", EMPTY], env: ENV, clearEnv: true })
    .output();
  if (status.code !== 0) throw new Error("empty script failed");
});

Deno.bench("govcat serve (stdio) to the tools/list answer", { group: "startup" }, async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSIONS, MAIN, "serve"],
    env: ENV,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(REQUESTS));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes('"id":2')) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before answering tools/list");
    out += value;
  }
  await writer.close();
  await reader.cancel();
  await child.status;
});
