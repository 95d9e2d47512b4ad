import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError, UsageError } from "../../../lib/core/errors.ts";
import {
  checkFileRoot,
  confinedFileAccess,
  FILE_ROOT_VARIABLE,
  isInside,
  unrestrictedFileAccess,
} from "../../../lib/files/file_access.ts";
import { readUserFile } from "../../../lib/files/user_files.ts";

/**
 * A sandbox on disk: `root` (the file root) with a file, a link to it, a link out of it and a link to a
 * directory outside; `outside` next to it with a secret; `root2`, whose name starts with the root's.
 */
async function withSandbox(
  test: (paths: { base: string; root: string; outside: string; root2: string }) => Promise<void>,
) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-file-access-" }));
  try {
    const root = join(base, "root");
    const outside = join(base, "outside");
    const root2 = join(base, "root2");
    for (const dir of [root, outside, root2, join(root, "data")]) await Deno.mkdir(dir);
    await Deno.writeTextFile(join(root, "data", "inside.csv"), "a,b\n1,2\n");
    await Deno.writeTextFile(join(outside, "secret.csv"), "secret\n");
    await Deno.writeTextFile(join(root2, "x.csv"), "x\n");
    await Deno.symlink(join(outside, "secret.csv"), join(root, "link-out.csv"));
    await Deno.symlink(join(root, "data", "inside.csv"), join(root, "link-in.csv"));
    await Deno.symlink(outside, join(root, "dir-out"));
    await test({ base, root, outside, root2 });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

/** The UsageError `promise` rejects with; fails when it resolves or rejects with something else. */
async function usageError(promise: Promise<unknown>): Promise<UsageError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    assert.equal(error.exitCode, 2);
    return error;
  }
  assert.fail("the path was allowed");
}

async function assertOutside(promise: Promise<unknown>, option: string, path: string, root: string) {
  const error = await usageError(promise);
  assert.ok(
    error.message.startsWith(`${option}: ${path} is outside`) ||
      error.message.startsWith(`${option}: ${path} leads outside`),
    error.message,
  );
  assert.ok(error.message.includes(`(${root})`), `the root is named: ${error.message}`);
  assert.match(error.hint ?? "", new RegExp(FILE_ROOT_VARIABLE));
  assert.match(error.hint ?? "", /Move the file/);
}

Deno.test("the command line's file access allows every path, as given", async () => {
  assert.equal(await unrestrictedFileAccess.readable("../x.csv", "--csv-file"), "../x.csv");
  assert.equal(await unrestrictedFileAccess.writable("/tmp/out.csv", "--output-file"), "/tmp/out.csv");
});

Deno.test("isInside compares whole path segments", () => {
  assert.equal(isInside("/srv/root", "/srv/root"), true);
  assert.equal(isInside("/srv/root", "/srv/root/a/b.csv"), true);
  assert.equal(isInside("/srv/root", "/srv/root2/b.csv"), false, "a common prefix is not containment");
  assert.equal(isInside("/srv/root", "/srv/root/../other"), false);
  assert.equal(isInside("/srv/root", "/srv"), false);
  assert.equal(isInside("/srv/root", "/srv/root/..data"), true, "a name starting with .. is inside");
  assert.equal(isInside("/", "/anything/at/all"), true);
});

Deno.test("files inside the root are readable, relative to the root or absolute", async () => {
  await withSandbox(async ({ root }) => {
    const files = confinedFileAccess(root);
    const real = join(root, "data", "inside.csv");
    assert.equal(await files.readable("data/inside.csv", "--csv-file"), real);
    assert.equal(await files.readable("./data/../data/inside.csv", "--csv-file"), real);
    assert.equal(await files.readable(real, "--csv-file"), real);
  });
});

Deno.test("traversal, absolute paths outside and the root-prefix trick are refused", async () => {
  await withSandbox(async ({ root, outside, root2 }) => {
    const files = confinedFileAccess(root);
    await assertOutside(
      files.readable("../outside/secret.csv", "--csv-file"),
      "--csv-file",
      "../outside/secret.csv",
      root,
    );
    await assertOutside(
      files.readable("data/../../outside/secret.csv", "--csv-file"),
      "--csv-file",
      "data/../../outside/secret.csv",
      root,
    );
    const absolute = join(outside, "secret.csv");
    await assertOutside(files.readable(absolute, "payloadFile"), "payloadFile", absolute, root);
    const sibling = join(root2, "x.csv");
    await assertOutside(files.readable(sibling, "--csv-file"), "--csv-file", sibling, root);
    await assertOutside(files.readable("../root2/x.csv", "--csv-file"), "--csv-file", "../root2/x.csv", root);
    // A path outside is refused as outside even when nothing is there: no probing for files.
    await assertOutside(files.readable("../nothing.csv", "--csv-file"), "--csv-file", "../nothing.csv", root);
  });
});

Deno.test("a symbolic link inside the root is followed: out of it refused, within it allowed", async () => {
  await withSandbox(async ({ root, outside }) => {
    const files = confinedFileAccess(root);
    const error = await usageError(files.readable("link-out.csv", "--csv-file"));
    assert.equal(
      error.message,
      `--csv-file: link-out.csv leads outside the directory this server may use (${root}).`,
    );
    assert.ok(!error.message.includes(outside), "where the link leads is not said");
    await assertOutside(
      files.readable("dir-out/secret.csv", "--csv-file"),
      "--csv-file",
      "dir-out/secret.csv",
      root,
    );
    assert.equal(await files.readable("link-in.csv", "--csv-file"), join(root, "data", "inside.csv"));
  });
});

Deno.test("a missing file inside the root is a clear usage error", async () => {
  await withSandbox(async ({ root }) => {
    const error = await usageError(confinedFileAccess(root).readable("data/missing.csv", "--csv-file"));
    assert.equal(
      error.message,
      `--csv-file: file not found: data/missing.csv (looked for ${join(root, "data", "missing.csv")}).`,
    );
    assert.match(error.hint ?? "", /relative to the tool server's file root/);
  });
});

Deno.test("a root reached through a symbolic link confines to its target", async () => {
  await withSandbox(async ({ base, root, outside }) => {
    const link = join(base, "root-link");
    await Deno.symlink(root, link);
    const files = confinedFileAccess(link);
    const real = join(root, "data", "inside.csv");
    assert.equal(await files.readable("data/inside.csv", "--csv-file"), real);
    assert.equal(await files.readable(join(link, "data", "inside.csv"), "--csv-file"), real);
    assert.equal(await files.readable(real, "--csv-file"), real, "the real path of the root counts too");
    // The root is named as it was given.
    await assertOutside(
      files.readable(join(outside, "secret.csv"), "--csv-file"),
      "--csv-file",
      join(outside, "secret.csv"),
      link,
    );
  });
});

Deno.test("write targets: inside allowed, outside, through a linked directory or a link out refused", async () => {
  await withSandbox(async ({ root, outside }) => {
    const files = confinedFileAccess(root);
    assert.equal(await files.writable("data/out.csv", "--output-file"), join(root, "data", "out.csv"));
    assert.equal(await files.writable("out.csv", "--output-file"), join(root, "out.csv"));
    assert.equal(
      await files.writable("data/inside.csv", "--output-file"),
      join(root, "data", "inside.csv"),
      "an existing file is replaced",
    );
    assert.equal(
      await files.writable("link-in.csv", "--output-file"),
      join(root, "data", "inside.csv"),
      "a link within the root is written through",
    );
    const absolute = join(outside, "out.csv");
    await assertOutside(files.writable(absolute, "--output-file"), "--output-file", absolute, root);
    await assertOutside(files.writable("../out.csv", "--output-file"), "--output-file", "../out.csv", root);
    await assertOutside(
      files.writable("dir-out/new.csv", "--output-file"),
      "--output-file",
      "dir-out/new.csv",
      root,
    );
    const linkOut = await usageError(files.writable("link-out.csv", "--output-file"));
    assert.match(linkOut.message, /link-out\.csv leads outside the directory this server may use/);
    assert.ok(!linkOut.message.includes(outside), "where the link leads is not said");
    // Nothing was written anywhere by the checks.
    assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["secret.csv"]);
  });
});

Deno.test("write targets: a dangling link, a directory and a missing directory are refused", async () => {
  await withSandbox(async ({ root, outside }) => {
    const files = confinedFileAccess(root);
    await Deno.symlink(join(outside, "not-yet.csv"), join(root, "dangling.csv"));
    const dangling = await usageError(files.writable("dangling.csv", "--output-file"));
    assert.match(dangling.message, /--output-file: link target not found: dangling\.csv/);
    assert.equal(
      (await usageError(files.writable("data", "--output-file"))).message,
      "--output-file: data is a directory.",
    );
    const missing = await usageError(files.writable("nowhere/out.csv", "--output-file"));
    assert.match(missing.message, /--output-file: directory not found: nowhere/);
  });
});

Deno.test("the file root must be an existing directory; the error names the variable", async () => {
  await withSandbox(async ({ base, root }) => {
    assert.equal(checkFileRoot(root), root);
    for (
      const [path, problem] of [[join(base, "missing"), "does not exist"], [
        join(root, "data", "inside.csv"),
        "is not a directory",
      ]]
    ) {
      assert.throws(() => checkFileRoot(path), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.variable, FILE_ROOT_VARIABLE);
        assert.equal(error.exitCode, 2);
        assert.ok(
          error.message.startsWith(`CATALOG_MCP_FILE_ROOT is "${path}", which ${problem}`),
          error.message,
        );
        return true;
      });
    }
    // A root that vanished after start-up is reported the same way on first use.
    const gone = join(base, "gone");
    await Deno.mkdir(gone);
    const files = confinedFileAccess(gone);
    await Deno.remove(gone);
    await assert.rejects(files.readable("x.csv", "--csv-file"), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /CATALOG_MCP_FILE_ROOT is ".*gone", which does not exist/);
      return true;
    });
  });
});

Deno.test("readUserFile asks the file access first and names the path the user gave", async () => {
  await withSandbox(async ({ root }) => {
    const files = confinedFileAccess(root);
    assert.equal(await readUserFile("data/inside.csv", "--csv-file", files), "a,b\n1,2\n");
    assert.equal(await readUserFile("link-in.csv", "--csv-file", files), "a,b\n1,2\n");
    await assertOutside(
      readUserFile("link-out.csv", "--csv-file", files),
      "--csv-file",
      "link-out.csv",
      root,
    );
    const directory = await usageError(readUserFile("data", "--csv-file", files));
    assert.equal(directory.message, "--csv-file: data is a directory.");
    // Without a file access the path is read as given.
    assert.equal(await readUserFile(join(root, "data", "inside.csv"), "--csv-file"), "a,b\n1,2\n");
  });
});
