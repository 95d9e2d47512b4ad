/**
 * Team mode from the command line, as real subprocesses: `govcat emulator --roles=ADMIN` and
 * `govcat serve --emulator --emulator-roles=ADMIN` enforce Purview's collection roles on the emulator's API.
 * A request without a token gets 401, a user without a role 403, the administrator named passes; an option
 * value that is not an object id is refused with exit code 2.
 */
import assert from "node:assert/strict";
import { runGovcat } from "../support/govcat_process.ts";
import { startEmulatorProcess } from "../support/emulator_process.ts";
import { startServe } from "../support/serve_process.ts";
import { signedInAs } from "../support/collection_roles.ts";

const ADMIN = "00000000-0000-4000-8000-0000000000ad";
const USER = "00000000-0000-4000-8000-0000000000cc";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";

/** The status of reading a seeded entity as `headers` say. */
async function readStatus(emulatorUrl: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(
    `${emulatorUrl}/datamap/api/atlas/v2/entity/guid/${CUSTOMERS}?api-version=2023-09-01`,
    {
      headers,
    },
  );
  await response.body?.cancel();
  return response.status;
}

async function assertRolesEnforced(emulatorUrl: string): Promise<void> {
  assert.equal(await readStatus(emulatorUrl, {}), 401, "no token");
  assert.equal(await readStatus(emulatorUrl, signedInAs(USER, "Uma User")), 403, "a user without a role");
  assert.equal(await readStatus(emulatorUrl, signedInAs(ADMIN, "Ada Admin")), 200, "the administrator named");
}

Deno.test("emulator --roles: no token 401, a user without a role 403, the named admin 200", async () => {
  const dataFile = await Deno.makeTempFile({ suffix: ".db" });
  const emulator = await startEmulatorProcess({ port: 0, dataFile, args: ["--seed", `--roles=${ADMIN}`] });
  try {
    await assertRolesEnforced(emulator.url);
  } finally {
    await emulator.kill("SIGTERM");
    await Deno.remove(dataFile);
  }
});

Deno.test("serve --emulator --emulator-roles: the embedded emulator enforces the same roles", async () => {
  const serve = await startServe([
    "--emulator",
    `--emulator-roles=${ADMIN}`,
    "--transport=http",
    "--port=0",
  ]);
  try {
    const emulatorUrl = /embedded emulator at (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.banner)?.[1];
    assert.ok(emulatorUrl, serve.banner);
    await assertRolesEnforced(emulatorUrl);
  } finally {
    const { stderr } = await serve.stop();
    assert.match(stderr, /--emulator-roles: tool calls use the server's identity/);
  }
});

Deno.test("roles options refuse what is not an object id, and --emulator-roles without --emulator", async () => {
  const emulator = await runGovcat(["emulator", "--port=0", "--roles=bob"]);
  assert.equal(emulator.code, 2);
  assert.match(emulator.stderr, /--roles names "bob", which is not an object id/);
  const serve = await runGovcat(["serve", "--emulator-roles"]);
  assert.equal(serve.code, 2);
  assert.match(
    serve.stderr,
    /--emulator-roles is the team mode of the embedded emulator and needs --emulator/,
  );
});
