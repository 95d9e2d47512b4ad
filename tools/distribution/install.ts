/**
 * `deno task install`: the README's `deno install` line, run by the Deno that runs this task, for machines
 * where that Deno is not on PATH. `deno install` writes a script that runs `exec deno …`; a Deno that came
 * from `npx -y deno@…` (the quick start's way) is a file in npm's cache, not a `deno` on PATH, so that
 * script would fail with `exec: deno: not found`. When no `deno` is on PATH, the script is pointed at this
 * Deno's own path instead, and this says so.
 *
 * @module
 */

/** The permissions and flags of the README's install line. */
export const INSTALL_ARGS = [
  "install",
  "-g",
  "-f",
  "-q",
  "-n",
  "govcat",
  "--lock=deno.lock",
  "--v8-flags=--max-semi-space-size=8",
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-run=az,azd",
  "main.ts",
];

/** The first `deno` on `path` (a PATH value), if any. */
export function denoOnPath(path: string | undefined): string | undefined {
  const names = Deno.build.os === "windows" ? ["deno.exe", "deno.cmd"] : ["deno"];
  for (const folder of (path ?? "").split(Deno.build.os === "windows" ? ";" : ":").filter(Boolean)) {
    for (const name of names) {
      try {
        if (Deno.statSync(`${folder}/${name}`).isFile) return `${folder}/${name}`;
      } catch {
        // Not in this folder.
      }
    }
  }
  return undefined;
}

/** The installed launcher script with `exec deno` replaced by `exec '<deno>'`. */
export function pinnedLauncher(script: string, deno: string): string {
  return script.replace(/^exec deno /m, `exec '${deno.replaceAll("'", `'\\''`)}' `);
}

async function main(): Promise<number> {
  const root = new URL("../../", import.meta.url);
  const installed = await new Deno.Command(Deno.execPath(), {
    args: INSTALL_ARGS,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!installed.success) return installed.code || 1;
  if (denoOnPath(Deno.env.get("PATH")) || Deno.build.os === "windows") return 0;
  const installRoot = Deno.env.get("DENO_INSTALL_ROOT") ?? `${Deno.env.get("HOME")}/.deno`;
  const launcher = `${installRoot}/bin/govcat`;
  await Deno.writeTextFile(launcher, pinnedLauncher(await Deno.readTextFile(launcher), Deno.execPath()));
  console.error(
    `No deno on PATH: ${launcher} runs ${Deno.execPath()}, the Deno this task ran on. If that file goes ` +
      "(npm's cache cleaned), run this task again, or put Deno on PATH (npm install -g deno@2.9.6).",
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
