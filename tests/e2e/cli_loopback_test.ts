/**
 * The README's two variables and nothing else (`CATALOG_ACCOUNT_NAME=emulator`,
 * `CATALOG_ENDPOINT=http://127.0.0.1:…`) reach every API of the emulator, the unified catalog included,
 * without asking for a token or probing a credential source. The subprocesses may reach 127.0.0.1 only
 * (`--allow-net=127.0.0.1`), so a request for any other host (the public unified catalog host, a login host,
 * the managed identity endpoint at 169.254.169.254) would fail the command rather than leave the machine;
 * and the variables of every credential source are set to values that would show in the output if used.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { runGovcat } from "../support/govcat_process.ts";

/** Credentials that must never be used for a loopback catalog: any use would show in the output. */
const TRAPS = {
  AZURE_CLIENT_ID: "11111111-2222-3333-4444-555555555555",
  AZURE_TENANT_ID: "66666666-7777-8888-9999-000000000000",
  AZURE_CLIENT_SECRET: "trap-secret-never-used",
  IDENTITY_ENDPOINT: "http://127.0.0.1:9/msi/token",
  IDENTITY_HEADER: "trap-header",
};

Deno.test("with only the README's variables, uc, search and profile status reach the emulator and ask for no token", async () => {
  const emulator = await startEmulator({ seed: true });
  try {
    const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, ...TRAPS };
    const before = emulator.faults.stats().total;
    for (
      const command of [["uc", "domain", "list"], ["uc", "term", "list"], [
        "search",
        "query",
        "--keywords=customers",
      ]]
    ) {
      const result = await runGovcat(command, env);
      assert.equal(result.code, 0, `${command.join(" ")}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /token|credential|Requires net access|az login/i, command.join(" "));
      JSON.parse(result.stdout);
    }

    const status = await runGovcat(["profile", "status"], env);
    assert.equal(status.code, 0, status.stderr);
    const shown = JSON.parse(status.stdout);
    assert.equal(shown.endpoint, emulator.url);
    assert.equal(shown.unifiedEndpoint, emulator.url, "profile status shows the endpoint actually used");
    assert.equal(shown.credential.kind, "none");
    assert.ok(emulator.faults.stats().total >= before + 3, "the commands were answered by the emulator");
  } finally {
    await emulator.close();
  }
});
