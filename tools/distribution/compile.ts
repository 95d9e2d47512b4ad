/**
 * Builds govcat's standalone binaries with `deno compile`: one per target in `dist/`, named
 * `govcat-<target>` (`.exe` on Windows), plus `dist/SHA256SUMS`. Run by `deno task compile`.
 *
 * ```sh
 * deno task compile                                  # every target
 * deno task compile --target=x86_64-unknown-linux-gnu
 * deno task compile --host                           # this machine only, as dist/govcat
 * ```
 *
 * `deno compile` downloads Deno's runtime image (denort) for each target. On a machine that cannot,
 * set `DENORT_BIN` to a local denort: it is used for every binary, so only the target it was built for
 * is built (the host's, unless `--target` says otherwise).
 *
 * @module
 */

/** The targets govcat is released for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

export type Target = typeof TARGETS[number];

/** Files read at run time that `deno compile` cannot see in the module graph. */
export const INCLUDED_FILES = ["fixtures/emulator/seed.json"];

/**
 * Permissions baked into every binary: the network (the catalog host depends on the account; the
 * emulator and HTTP transports listen on loopback), environment, files (payload files, the emulator's
 * SQLite file), and the Azure CLI / Azure Developer CLI for their credentials.
 */
export function permissionsFor(target: string): string[] {
  // On Windows `az` is `az.cmd`, which @azure/core-process runs through %SystemRoot%\System32\cmd.exe.
  const run = target.includes("windows") ? "az,azd,cmd" : "az,azd";
  return ["--allow-net", "--allow-env", "--allow-read", "--allow-write", `--allow-run=${run}`];
}

/**
 * V8 settings baked into every binary. A young generation capped at 8 MB per semi-space keeps a bulk
 * import of millions of rows near 135 MB resident instead of 170-180 MB (V8 grows it to 32 MB while the
 * send pass runs), at the same speed (`deno task bench`, BENCHMARKS.md).
 */
export const RUNTIME_FLAGS = ["--v8-flags=--max-semi-space-size=8"];

/** The binary's file name for a target. */
export function outputName(target: string): string {
  return `govcat-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** The target triple of the machine running this. */
export function hostTarget(): Target {
  const { arch, os } = Deno.build;
  const triple = os === "windows"
    ? `${arch}-pc-windows-msvc`
    : os === "darwin"
    ? `${arch}-apple-darwin`
    : `${arch}-unknown-linux-gnu`;
  if (!(TARGETS as readonly string[]).includes(triple)) throw new Error(`govcat is not built for ${triple}`);
  return triple as Target;
}

/** The `deno compile` arguments for one target. */
export function compileArgs(target: string, output: string, entry = "main.ts"): string[] {
  return [
    "compile",
    "--quiet",
    ...permissionsFor(target),
    ...RUNTIME_FLAGS,
    ...INCLUDED_FILES.map((file) => `--include=${file}`),
    `--target=${target}`,
    `--output=${output}`,
    entry,
  ];
}

/** Runs `deno compile` for one target; resolves with the output path or throws with deno's message. */
export async function compileTarget(target: string, output: string, cwd?: string): Promise<string> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(target, output),
    cwd,
    // The runtime it embeds is downloaded (or DENORT_BIN); the update check is not needed on top.
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (!result.success) {
    const stderr = new TextDecoder().decode(result.stderr).trim();
    const hint = Deno.env.get("DENORT_BIN") === undefined && /dl\.deno\.land|dns error|download/i.test(stderr)
      ? "\nhint: this machine cannot download Deno's runtime image; set DENORT_BIN to a local denort"
      : "";
    throw new Error(`deno compile --target=${target} failed:\n${stderr}${hint}`);
  }
  return output;
}

async function sha256(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Writes `SHA256SUMS` (the `sha256sum -c` format) for the given files, all in `dir`. */
export async function writeChecksums(dir: string, files: string[]): Promise<string> {
  const lines: string[] = [];
  for (const file of files) lines.push(`${await sha256(`${dir}/${file}`)}  ${file}`);
  const path = `${dir}/SHA256SUMS`;
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

async function main(args: string[]): Promise<number> {
  let dir = "dist";
  let host = false;
  const targets: string[] = [];
  for (const arg of args) {
    if (arg === "--host") host = true;
    else if (arg.startsWith("--target=")) targets.push(arg.slice("--target=".length));
    else if (arg.startsWith("--out-dir=")) dir = arg.slice("--out-dir=".length);
    else {
      console.error(
        `unknown argument ${arg}\nusage: deno task compile [--target=TRIPLE ...] [--host] [--out-dir=dist]`,
      );
      return 2;
    }
  }
  for (const target of targets) {
    if (!(TARGETS as readonly string[]).includes(target)) {
      console.error(`unknown target ${target}; one of ${TARGETS.join(", ")}`);
      return 2;
    }
  }
  if (host) targets.splice(0, targets.length, hostTarget());
  if (targets.length === 0) {
    if (Deno.env.get("DENORT_BIN")) {
      console.error(
        `DENORT_BIN is set: building ${hostTarget()} only (the runtime it names is one target's)`,
      );
      targets.push(hostTarget());
    } else targets.push(...TARGETS);
  }
  await Deno.mkdir(dir, { recursive: true });
  const built: string[] = [];
  try {
    for (const target of targets) {
      const name = host ? `govcat${target.includes("windows") ? ".exe" : ""}` : outputName(target);
      await compileTarget(target, `${dir}/${name}`);
      console.error(`built ${dir}/${name} (${target})`);
      built.push(name);
    }
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  if (!host) console.error(`wrote ${await writeChecksums(dir, built)}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
