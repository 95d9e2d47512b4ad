/**
 * The file root under a race: another writer in the root swaps a file, or a folder,
 * for a symbolic link out of the root in a tight loop (tests/support/link_swapper.ts, a process of its own)
 * while the server's file access reads and writes there, a few hundred times. A check of the name before
 * the open would let some reads return the outside file and some writes land outside; what is opened is
 * checked (lib/files/checked_open.ts), so none may. Linux only: elsewhere the opened file has no kernel name to
 * check (the residual risk lib/files/checked_open.ts documents).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { confinedFileAccess } from "../../lib/files/file_access.ts";
import { Checkpoint } from "../../lib/csv/checkpoint.ts";
import { writeOutputFile } from "../../lib/files/output_files.ts";
import { readUserFile } from "../../lib/files/user_files.ts";
import { baseEnv } from "../support/govcat_process.ts";

const SWAPPER = new URL("../support/link_swapper.ts", import.meta.url).pathname;
const INSIDE = "inside,content\n";
const SECRET = "outside-secret-first-line\n";

async function withRace(
  mode: "file" | "dir",
  test: (dirs: { root: string; outside: string }) => Promise<void>,
): Promise<void> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-race-" }));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await Deno.mkdir(root);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.csv"), SECRET);
  await Deno.writeTextFile(join(root, "data.csv"), INSIDE);
  await Deno.mkdir(join(root, "sub"));
  const [path, target] = mode === "file"
    ? [join(root, "data.csv"), join(outside, "secret.csv")]
    : [join(root, "sub"), outside];
  const swapper = new Deno.Command(Deno.execPath(), {
    // Unscoped: Deno grants symbolic links only so; the swapper touches nothing but its two arguments.
    args: ["run", "--allow-read", "--allow-write", SWAPPER, mode, path, target, "60"],
    env: baseEnv(),
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await test({ root, outside });
  } finally {
    swapper.kill("SIGKILL");
    await swapper.status;
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test({
  name: "race: a file swapped for a link out of the root is never read through it",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withRace("file", async ({ root }) => {
      const files = confinedFileAccess(root);
      const outcomes = { inside: 0, refused: 0, outside: 0 };
      for (let i = 0; i < 600; i++) {
        try {
          const text = await readUserFile("data.csv", "--csv-file", files);
          if (text === INSIDE) outcomes.inside++;
          else outcomes.outside++;
        } catch {
          outcomes.refused++;
        }
      }
      assert.equal(outcomes.outside, 0, `reads that returned the outside file: ${JSON.stringify(outcomes)}`);
      assert.ok(outcomes.refused > 0, `the swapper was at work: ${JSON.stringify(outcomes)}`);
    });
  },
});

Deno.test({
  name: "race: a folder swapped for a link out of the root never receives a write (exports, checkpoints)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withRace("dir", async ({ root, outside }) => {
      const ctx = { files: confinedFileAccess(root) };
      let written = 0;
      let refused = 0;
      for (let i = 0; i < 300; i++) {
        try {
          await writeOutputFile(ctx, `sub/out-${i}.csv`, "--output-file", (write) => write(INSIDE), {
            overwrite: false,
          });
          written++;
        } catch {
          // Refused (the swap was seen), or the folder was away at that moment.
          refused++;
        }
      }
      for (let i = 0; i < 100; i++) {
        try {
          const path = await ctx.files.writable(`sub/import-${i}.checkpoint`, "--checkpoint-file");
          const identity = {
            operation: "t",
            file: "t.csv",
            sha256: "0",
            size: 0,
            batchSize: 1,
            options: "{}",
          };
          const { checkpoint } = await Checkpoint.open(path, identity, { resume: false });
          checkpoint.close();
        } catch {
          // As above.
        }
      }
      const landed = [...Deno.readDirSync(outside)].map((entry) => entry.name).sort();
      assert.deepEqual(
        landed,
        ["secret.csv"],
        `files that landed outside the root (${written} writes inside)`,
      );
      assert.equal(await Deno.readTextFile(join(outside, "secret.csv")), SECRET);
      assert.ok(refused > 0, `the swapper was at work: ${written} written, ${refused} refused`);
    });
  },
});
