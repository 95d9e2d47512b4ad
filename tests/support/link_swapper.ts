/**
 * The attacker of the race tests: another writer in the file root that swaps a name back and forth
 * between what the server checked and a symbolic link out of the root, as fast as it can, in a process of
 * its own (so the swaps really run between the server's check and its open). Runs until killed, or for
 * `seconds` at most.
 *
 * Usage: deno run --allow-read --allow-write link_swapper.ts file PATH OUTSIDE_FILE SECONDS
 *        deno run --allow-read --allow-write link_swapper.ts dir  PATH OUTSIDE_DIR  SECONDS
 * `file`: PATH is alternately a regular file (its content as found) and a link to OUTSIDE_FILE, each put in
 * place by an atomic rename. `dir`: PATH, a folder, is alternately itself and a link to OUTSIDE_DIR.
 *
 * @module
 */
const [mode, path, outside, seconds] = Deno.args;
const until = Date.now() + Number(seconds) * 1000;
let swaps = 0;

if (mode === "file") {
  const content = Deno.readFileSync(path);
  while (Date.now() < until) {
    try {
      Deno.symlinkSync(outside, `${path}.link`);
      Deno.renameSync(`${path}.link`, path);
      Deno.writeFileSync(`${path}.file`, content);
      Deno.renameSync(`${path}.file`, path);
      swaps++;
    } catch {
      // A leftover of an iteration cut short: cleared and tried again.
      for (const name of [`${path}.link`, `${path}.file`]) {
        try {
          Deno.removeSync(name);
        } catch { /* not there */ }
      }
    }
  }
} else {
  const aside = `${path}.aside`;
  while (Date.now() < until) {
    Deno.renameSync(path, aside);
    Deno.symlinkSync(outside, path);
    Deno.removeSync(path);
    Deno.renameSync(aside, path);
    swaps++;
  }
}
console.log(swaps);
