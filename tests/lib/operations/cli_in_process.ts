/**
 * The command line run in process against an emulator on 127.0.0.1, for operation tests that go through
 * the CLI front end as a user does (parsing, --confirm, exit codes, JSON output) without a subprocess.
 *
 * @module
 */
import { runCli } from "../../../cli/run.ts";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";

/** One run: exit code, output, and stdout parsed as JSON on success. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** What a test gets: `govcat(...args)`, the emulator, and a temporary directory. */
export interface CliSetup {
  govcat(...args: string[]): Promise<CliRun>;
  emulator: RunningEmulator;
  /** A client of the same emulator, to arrange data and read results without the command line. */
  catalog: CatalogClient;
  dir: string;
  /** Writes a file into `dir` (a string as is, anything else as JSON); returns its path. */
  file(name: string, content: unknown): Promise<string>;
}

/** Runs `test` against a fresh emulator (`seed` for the sample catalog) and temporary directory. */
export async function withCli(options: { seed?: boolean }, test: (setup: CliSetup) => Promise<void>) {
  const emulator = await startEmulator({ seed: options.seed ?? false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-cli-in-process-" });
  try {
    // XDG_CONFIG_HOME: profiles are looked for in the temporary directory, never the user's.
    const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, XDG_CONFIG_HOME: dir };
    await test({
      emulator,
      catalog: CatalogClient.fromConfig(loadConfig(env), { retryBaseMs: 5 }),
      dir,
      govcat: async (...args) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli(args, { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
        const stdout = out.join("\n");
        let json: unknown;
        try {
          json = code === 0 ? JSON.parse(stdout) : undefined;
        } catch {
          json = undefined;
        }
        return { code, stdout, stderr: err.join("\n"), json };
      },
      file: async (name, content) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, typeof content === "string" ? content : JSON.stringify(content));
        return path;
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await emulator.close();
  }
}
