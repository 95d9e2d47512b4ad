/**
 * `deno run` of govcat from a URL: the repository is served read-only over a small static file server on
 * 127.0.0.1, and govcat is run from `http://127.0.0.1:<port>/main.ts` in an empty directory, the way a
 * user runs it from a published URL. Each run uses a fresh port, so Deno's module cache (the shared
 * DENO_DIR, which also holds the npm packages) never serves an older copy and no `--reload` is needed.
 *
 * Nothing may leave the machine, on a cold cache too: the child gets a copy of the repository's lockfile, so
 * the npm packages resolve to the versions `deno install` already cached (without it, a remote entry
 * resolves the newest matching versions and downloads them), and its proxy is a closed loopback port, so a
 * download that is still attempted fails at once instead of reaching a registry.
 */
import assert from "node:assert/strict";
import { runToEnd, smokeEnv, toolsListOverStdio } from "../../tools/distribution/smoke.ts";
import { VERSION } from "../../lib/core/version.ts";
import { closedProxyEnv, spawnPiped, waitForListening } from "../support/govcat_process.ts";

const ROOT = new URL("../../", import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  ".ts": "application/typescript; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

/** Serves files under ROOT, GET and HEAD only, never outside it; logs the paths asked for. */
function serveRepository(requested: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("read-only", { status: 405, headers: { allow: "GET, HEAD" } });
    }
    const path = decodeURIComponent(new URL(request.url).pathname);
    requested.push(path);
    if (path.split("/").includes("..")) return new Response("not found", { status: 404 });
    const extension = path.slice(path.lastIndexOf("."));
    const type = CONTENT_TYPES[extension];
    if (type === undefined) return new Response("not found", { status: 404 });
    try {
      const body = await Deno.readFile(new URL(`.${path}`, ROOT));
      return new Response(request.method === "HEAD" ? null : body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

/** An empty directory with a copy of the repository's lockfile, for a child run from a URL. */
async function remoteWorkDir(): Promise<{ cwd: string; lock: string }> {
  const cwd = await Deno.makeTempDir({ prefix: "govcat-remote-" });
  const lock = `${cwd}/deno.lock`;
  // A copy: the child adds the served modules' hashes, which must not change the repository's lockfile.
  await Deno.copyFile(new URL("deno.lock", ROOT), lock);
  return { cwd, lock };
}

/** `deno run` of the served main.ts from `host`, with the lockfile copy `lock`. */
function remoteRun(host: string, lock: string): string[] {
  return [
    "run",
    `--allow-import=${host}`,
    `--lock=${lock}`,
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-write",
  ];
}

Deno.test("deno run from a URL: --help, the emulator and serve over stdio", async (t) => {
  const requested: string[] = [];
  const server = serveRepository(requested);
  const { cwd, lock } = await remoteWorkDir();
  try {
    const host = `127.0.0.1:${server.addr.port}`;
    const run = [...remoteRun(host, lock), `http://${host}/main.ts`];

    await t.step("--version and --help", async () => {
      const version = await runToEnd(Deno.execPath(), [...run, "--version"], {
        cwd,
        env: closedProxyEnv(),
        timeoutMs: 120_000,
      });
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), `govcat ${VERSION}`, "deno.json is imported over HTTP as JSON");
      const help = await runToEnd(Deno.execPath(), [...run, "--help"], { cwd, env: closedProxyEnv() });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /Usage: govcat <group> <command>/);
      assert.ok(requested.includes("/main.ts") && requested.includes("/deno.json"));
    });

    await t.step("emulator --port=0 prints its banner", async () => {
      const child = spawnPiped([...run, "emulator", "--port=0"], { cwd, env: smokeEnv(closedProxyEnv()) });
      const emulator = await waitForListening(child, "the emulator", {
        listening: /(http:\/\/127\.0\.0\.1:\d+)\s/,
        timeoutMs: 60_000,
      });
      try {
        const response = await fetch(`${emulator.url}/datamap/api/atlas/v2/types/typedefs/headers`, {
          signal: AbortSignal.timeout(20_000),
        });
        await response.body?.cancel();
        assert.equal(response.status, 200);
      } finally {
        await emulator.kill("SIGTERM");
      }
    });

    await t.step("serve over stdio answers tools/list", async () => {
      const answer = await toolsListOverStdio(Deno.execPath(), [...run, "serve"], {
        cwd,
        env: closedProxyEnv({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" }),
      });
      assert.equal(answer.serverName, "govcat");
      assert.ok(answer.tools.some((tool) => tool.name === "search_entities"));
      assert.equal(answer.code, 0, answer.stderr);
    });
  } finally {
    await server.shutdown();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test({
  name: "deno run from a URL: serve --emulator seeds from the built-in seed and answers tools/list",
  fn: async () => {
    const server = serveRepository([]);
    const { cwd, lock } = await remoteWorkDir();
    try {
      const host = `127.0.0.1:${server.addr.port}`;
      const answer = await toolsListOverStdio(
        Deno.execPath(),
        [...remoteRun(host, lock), `http://${host}/main.ts`, "serve", "--emulator"],
        { cwd, env: closedProxyEnv() },
      );
      assert.ok(answer.tools.length > 0);
      assert.equal(answer.code, 0, answer.stderr);
    } finally {
      await server.shutdown();
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
