/**
 * The small harness of the `uc` end-to-end tests: an emulator serving both the data map and the unified
 * catalog, govcat run against it as a subprocess, and the request counter that proves a refusal sent
 * nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { type ProcessResult, runGovcat } from "../support/govcat_process.ts";

export interface UcRun extends ProcessResult {
  // deno-lint-ignore no-explicit-any
  json: any;
}

export interface UcSetup {
  emulator: RunningEmulator;
  dir: string;
  uc(...args: string[]): Promise<UcRun>;
  file(name: string, content: unknown): Promise<string>;
  requests(): number;
}

/** Runs `test` against a fresh emulator and temporary directory. */
export async function withUc(test: (setup: UcSetup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const env = {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
  };
  const dir = await Deno.makeTempDir({ prefix: "govcat-uc-" });
  try {
    await test({
      emulator,
      dir,
      uc: async (...args) => {
        const result = await runGovcat(["uc", ...args], env);
        let json: unknown = undefined;
        if (result.code === 0) {
          try {
            json = JSON.parse(result.stdout);
          } catch (error) {
            throw new Error(`govcat uc ${args.join(" ")} printed no JSON: ${result.stdout}`, {
              cause: error,
            });
          }
        }
        return { ...result, json };
      },
      file: async (name, content) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, typeof content === "string" ? content : JSON.stringify(content));
        return path;
      },
      requests: () => emulator.faults.stats().total,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await emulator.close();
  }
}

/** Asserts a successful run and returns its JSON. */
// deno-lint-ignore no-explicit-any
export async function ok(setup: UcSetup, ...args: string[]): Promise<any> {
  const result = await setup.uc(...args);
  assert.equal(result.code, 0, `uc ${args.join(" ")}: ${result.stderr}`);
  return result.json;
}

/** Asserts govcat refused locally: exit 2, the message, nothing on stdout, no request sent. */
export async function refused(setup: UcSetup, pattern: RegExp, ...args: string[]): Promise<UcRun> {
  const before = setup.requests();
  const result = await setup.uc(...args);
  assert.equal(result.code, 2, `uc ${args.join(" ")}: ${result.stderr}`);
  assert.match(result.stderr, pattern, `uc ${args.join(" ")}`);
  assert.equal(result.stdout, "");
  assert.equal(setup.requests(), before, `uc ${args.join(" ")} sent nothing`);
  return result;
}

/** Asserts the service refused with a 404: exit 1. */
export async function notFound(setup: UcSetup, ...args: string[]): Promise<UcRun> {
  const result = await setup.uc(...args);
  assert.equal(result.code, 1, `uc ${args.join(" ")}: ${result.stderr}`);
  assert.match(result.stderr, /404/, `uc ${args.join(" ")}`);
  assert.equal(result.stdout, "");
  return result;
}

export const OWNER = "0b7c7c55-1b9b-4d1f-9a55-6a1f0b8e7f10";
