/**
 * Test-process side of the managed-identity tests: a token endpoint on 127.0.0.1 in the shape
 * `IDENTITY_ENDPOINT` points to (App Service), and a runner for `chain_token.ts` in a subprocess whose
 * environment is built from scratch and which may only connect to 127.0.0.1.
 *
 * @module
 */
import assert from "node:assert/strict";

const FIXTURE = new URL("./chain_token.ts", import.meta.url).pathname;
const REPO_ROOT = new URL("../../../", import.meta.url).pathname;

/** What the SDK sent to the token endpoint. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headerNames: string[];
  identityHeader: string | null;
}

export interface TokenEndpoint {
  /** Value for `IDENTITY_ENDPOINT`. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Serves the App Service style managed-identity endpoint that `IDENTITY_ENDPOINT` points to. */
export function startTokenEndpoint(answer: (n: number) => Response): TokenEndpoint {
  const requests: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    requests.push({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headerNames: [...request.headers.keys()].sort(),
      identityHeader: request.headers.get("x-identity-header"),
    });
    return answer(requests.length);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/msi/token`,
    requests,
    close: () => server.shutdown(),
  };
}

/** A managed-identity token answer: token `mi-access-token-{n}-xxx…`, valid for `lifetimeSeconds`. */
export function tokenResponse(n: number, lifetimeSeconds: number): Response {
  return Response.json({
    access_token: `mi-access-token-${n}-${"x".repeat(40)}`,
    expires_on: String(Math.floor(Date.now() / 1000) + lifetimeSeconds),
    resource: "https://purview.azure.net",
    token_type: "Bearer",
  });
}

/** PATH without any directory that holds `az` or `azd`, so the CLI credentials can never run them. */
function pathWithoutAzureClis(): string {
  return (Deno.env.get("PATH") ?? "").split(":").filter((dir) => {
    for (const tool of ["az", "azd"]) {
      try {
        Deno.statSync(`${dir}/${tool}`);
        return false;
      } catch { /* absent: keep the directory */ }
    }
    return dir !== "";
  }).join(":");
}

/** The child gets a fresh HOME, so it is told where the module cache is (it runs with --cached-only). */
function denoDir(): string {
  const home = Deno.env.get("HOME") ?? "/root";
  return Deno.env.get("DENO_DIR") ?? `${Deno.env.get("XDG_CACHE_HOME") ?? `${home}/.cache`}/deno`;
}

export interface FixtureRun {
  /** The JSON object the fixture printed last on stdout. */
  report: Record<string, unknown>;
  stderr: string;
}

/** Runs `chain_token.ts` with only `env` (plus PATH without az/azd, a temporary HOME and the cache dir). */
export async function runFixture(args: string[], env: Record<string, string>): Promise<FixtureRun> {
  const home = await Deno.makeTempDir({ prefix: "govcat-auth-home-" });
  const killer = new AbortController();
  const timer = setTimeout(() => killer.abort(), 60_000);
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--cached-only",
        // Only loopback: a stray probe of 169.254.169.254 or a login host fails instead of leaving the machine.
        "--allow-net=127.0.0.1",
        "--allow-env",
        "--allow-read",
        "--allow-sys",
        FIXTURE,
        ...args,
      ],
      cwd: REPO_ROOT,
      clearEnv: true,
      env: {
        PATH: pathWithoutAzureClis(),
        HOME: home,
        DENO_DIR: denoDir(),
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        AZURE_LOG_LEVEL: "verbose",
        CATALOG_ACCOUNT_NAME: "contoso",
        ...env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: killer.signal,
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, `fixture failed:\n${stderr}`);
    return { report: JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"), stderr };
  } finally {
    clearTimeout(timer);
    await Deno.remove(home, { recursive: true });
  }
}
