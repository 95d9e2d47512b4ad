/**
 * Smoke checks for a built govcat (the bundle, a compiled binary, or `deno run` of a URL): it prints its
 * version and help, and as an MCP server over stdio answers `initialize` and `tools/list`. Used by the
 * distribution tests and by the release checklist:
 *
 * ```sh
 * deno run -A tools/distribution/smoke.ts dist/govcat-x86_64-unknown-linux-gnu
 * deno run -A tools/distribution/smoke.ts deno run -A dist/govcat.js
 * ```
 *
 * @module
 */

/** What a finished process printed. */
export interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/** The variables a launched govcat needs from ours; credentials and catalog settings stay out. */
export function smokeEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR", "SystemRoot", "USERPROFILE"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/** Options of a launch: extra environment, working directory, time limit. */
export interface LaunchOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

/** Runs `command ...args` to completion with no stdin. */
export async function runToEnd(
  command: string,
  args: string[],
  options: LaunchOptions = {},
): Promise<Output> {
  const output = await new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: smokeEnv(options.env),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** The JSON-RPC `initialize` request (id 1) an MCP client named `clientName` opens a session with. */
export function initializeRequest(clientName: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: clientName, version: "1" },
    },
  } as const;
}

/** The answer to `tools/list` and what the server logged. */
export interface ToolsListAnswer {
  serverName: string;
  tools: Array<{ name: string }>;
  /** The exit code after stdin was closed. */
  code: number;
  stderr: string;
}

/**
 * Launches an MCP stdio server, sends `initialize`, `notifications/initialized` and `tools/list` as
 * lines on stdin, reads the answers from stdout, then closes stdin and waits for the process to end.
 */
export async function toolsListOverStdio(
  command: string,
  args: string[],
  options: LaunchOptions = {},
): Promise<ToolsListAnswer> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: smokeEnv(options.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const killer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const send = (message: unknown) => writer.write(encoder.encode(JSON.stringify(message) + "\n"));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const answers = new Map<number, Record<string, unknown>>();
  let buffer = "";
  const waitFor = async (id: number) => {
    while (!answers.has(id)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server closed stdout before answering request ${id}`);
      buffer += value;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line === "") continue;
        const message = JSON.parse(line);
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    }
    return answers.get(id)!;
  };
  try {
    await send(initializeRequest("govcat-smoke"));
    const initialized = await waitFor(1);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const listed = await waitFor(2);
    await writer.close();
    for (;;) if ((await reader.read()).done) break;
    const status = await child.status;
    const serverInfo = (initialized.result as { serverInfo?: { name?: string } } | undefined)?.serverInfo;
    const result = listed.result as { tools?: Array<{ name: string }> } | undefined;
    if (!result?.tools) throw new Error(`tools/list failed: ${JSON.stringify(listed)}`);
    return {
      serverName: serverInfo?.name ?? "",
      tools: result.tools,
      code: status.code,
      stderr: await stderrText,
    };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    const stderr = await stderrText;
    throw new Error(`${(error as Error).message}\nstderr:\n${stderr}`, { cause: error });
  } finally {
    clearTimeout(killer);
  }
}

/**
 * Environment for `govcat serve` without an account: a loopback endpoint, so no token is requested and
 * `tools/list` needs no catalog at all.
 */
export const OFFLINE_SERVE_ENV: Record<string, string> = {
  CATALOG_ACCOUNT_NAME: "emulator",
  CATALOG_ENDPOINT: "http://127.0.0.1:9",
};

async function main(args: string[]): Promise<number> {
  if (args.length === 0) {
    console.error("usage: deno run -A tools/distribution/smoke.ts <command> [args ...]");
    return 2;
  }
  const [command, ...prefix] = args;
  const version = await runToEnd(command, [...prefix, "--version"]);
  console.log(`--version: exit ${version.code}: ${version.stdout.trim()}`);
  const help = await runToEnd(command, [...prefix, "--help"]);
  console.log(`--help: exit ${help.code}, ${help.stdout.split("\n").length} lines`);
  const listed = await toolsListOverStdio(command, [...prefix, "serve"], { env: OFFLINE_SERVE_ENV });
  console.log(`serve (stdio): ${listed.serverName} lists ${listed.tools.length} tools; exit ${listed.code}`);
  const ok = version.code === 0 && help.code === 0 && listed.code === 0 && listed.tools.length > 0;
  console.log(ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
