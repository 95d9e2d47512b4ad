/**
 * The README's `deno install` line (from a checkout), run as written into a temporary install root, and the
 * command it installs run on a PATH without the Azure CLI: it answers, and prints nothing else. Deno notes
 * the `az`/`azd` of `--allow-run` it cannot find on every start unless the install is quiet (`-q`).
 *
 * Both run with a closed loopback port as their proxy: with the lockfile the README names, the install
 * takes the npm packages from the cache `deno install` filled; without it, it would resolve newer versions
 * and download them, which must fail here rather than leave the machine.
 */
import assert from "node:assert/strict";
import { runToEnd } from "../../tools/distribution/smoke.ts";
import { VERSION } from "../../lib/core/version.ts";
import { closedProxyEnv } from "../support/govcat_process.ts";
import { INSTALL_ARGS, pinnedLauncher } from "../../tools/distribution/install.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The README's `deno install … main.ts` command from a checkout, its line continuations joined. */
function readmeInstallLine(): string[] {
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  const match = /^# from a checkout[^\n]*\n(deno install [^\n]*\\\n[^\n]*main\.ts)$/m.exec(readme);
  assert.ok(match, "the README shows a deno install line from a checkout");
  return match[1].replace(/\\\n/g, " ").trim().split(/\s+/);
}

/** A PATH holding this Deno as `deno` and the system's basic tools, but no `az` or `azd`. */
async function pathWithoutAzureCli(dir: string): Promise<string> {
  await Deno.mkdir(`${dir}/tools`);
  await Deno.symlink(Deno.execPath(), `${dir}/tools/deno`);
  const path = [`${dir}/tools`, "/usr/bin", "/bin"].join(":");
  for (const folder of path.split(":")) {
    for (const name of ["az", "azd"]) {
      assert.throws(
        () => Deno.statSync(`${folder}/${name}`),
        `${folder}/${name} must not exist for this test`,
      );
    }
  }
  return path;
}

Deno.test({
  name:
    "README's deno install line: the installed govcat answers and prints no Deno note on a machine without az",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "govcat-install-" });
    try {
      const [program, ...args] = readmeInstallLine();
      assert.equal(program, "deno");
      assert.ok(args.includes("-q"), "the README's install line is quiet");
      assert.ok(args.includes("--lock=deno.lock"), "the README's install line takes the tested versions");
      const PATH = await pathWithoutAzureCli(dir);
      const installed = await runToEnd(Deno.execPath(), args, {
        cwd: ROOT,
        env: closedProxyEnv({ DENO_INSTALL_ROOT: `${dir}/root`, PATH }),
        timeoutMs: 60_000,
      });
      assert.equal(installed.code, 0, installed.stderr);

      const version = await runToEnd(`${dir}/root/bin/govcat`, ["--version"], {
        cwd: dir,
        env: closedProxyEnv({ PATH }),
      });
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), `govcat ${VERSION}`);
      assert.equal(version.stderr, "", "no 'Failed to resolve az for allow-run' or other note");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "deno task install: with no deno on PATH (Deno from npx), the installed govcat runs the task's Deno",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // The task runs the README's line, flag for flag.
    assert.deepEqual(readmeInstallLine().slice(1), INSTALL_ARGS);
    const dir = await Deno.makeTempDir({ prefix: "govcat-install-task-" });
    try {
      // The system's tools only: no deno, as after `npx -y deno@2.9.6 …`.
      const PATH = ["/usr/bin", "/bin"].join(":");
      for (const folder of PATH.split(":")) {
        assert.throws(() => Deno.statSync(`${folder}/deno`), `${folder}/deno must not exist for this test`);
      }
      const installed = await runToEnd(Deno.execPath(), ["task", "-q", "install"], {
        cwd: ROOT,
        env: closedProxyEnv({ DENO_INSTALL_ROOT: `${dir}/root`, PATH }),
        timeoutMs: 60_000,
      });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stderr, /No deno on PATH: .*govcat runs /);
      const version = await runToEnd(`${dir}/root/bin/govcat`, ["--version"], {
        cwd: dir,
        env: closedProxyEnv({ PATH }),
      });
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), `govcat ${VERSION}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.equal(
      pinnedLauncher("#!/bin/sh\nexec deno run -A 'x' \"$@\"\n", "/it's/deno"),
      "#!/bin/sh\nexec '/it'\\''s/deno' run -A 'x' \"$@\"\n",
    );
  },
});
