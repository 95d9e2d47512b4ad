/**
 * The key vault connection and credential operations of the `scan` group against the emulator: a key vault
 * connection and a credential naming one of its secrets are put, read, listed, referenced by a scan and
 * deleted; a credential naming an unknown key vault and a scan naming an unknown credential are refused by
 * the service; a credential payload carrying a password value is refused before anything is sent, and the
 * value appears neither in the error nor in anything logged afterwards; deletes are destructive (the
 * registry asks for --confirm).
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError, UsageError } from "../../../lib/core/errors.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import {
  checkCredentialSecrets,
  CREDENTIAL_OPERATIONS,
  KEY_VAULT_OPERATIONS,
} from "../../../lib/operations/scan_credential_operations.ts";
import type { OperationContext } from "../../../lib/operations/types.ts";
import { rejection, withScanSetup } from "./scan_harness.ts";

const [putKeyVault, getKeyVault, listKeyVaults, deleteKeyVault] = KEY_VAULT_OPERATIONS;
const [putCredential, getCredential, listCredentials, deleteCredential] = CREDENTIAL_OPERATIONS;

const secret = (vault: string) => ({
  type: "AzureKeyVaultSecret",
  secretName: "scanner-password",
  store: { referenceName: vault, type: "LinkedServiceReference" },
});

Deno.test("scan operations: a key vault connection and a credential are put, read, listed, used and deleted", async () => {
  await withScanSetup({}, async ({ run, file, catalog }) => {
    const vaultFile = await file("vault.json", {
      properties: { baseUrl: "https://contoso.vault.azure.net/" },
    });
    const vault = await run(putKeyVault, { keyVaultName: "contoso-kv", payloadFile: vaultFile });
    assert.equal(vault.created, true);
    assert.equal(vault.keyVaultConnection.properties.baseUrl, "https://contoso.vault.azure.net/");
    assert.equal(
      (await run(putKeyVault, { keyVaultName: "contoso-kv", payloadFile: vaultFile })).created,
      false,
    );
    assert.equal((await run(getKeyVault, { keyVaultName: "contoso-kv" })).name, "contoso-kv");
    assert.equal((await run(listKeyVaults, {})).count, 1);

    const credentialFile = await file("credential.json", {
      kind: "SqlAuth",
      properties: {
        description: "reads sales",
        typeProperties: { user: "scanner", password: secret("contoso-kv"), extra: "dropped" },
      },
    });
    const created = await run(putCredential, { credentialName: "sql-reader", payloadFile: credentialFile });
    assert.equal(created.created, true);
    const got = await run(getCredential, { credentialName: "sql-reader" });
    assert.deepEqual(got.properties.typeProperties, { user: "scanner", password: secret("contoso-kv") });
    assert.equal((await run(listCredentials, {})).count, 1);

    // A scan names the credential; an unknown credential is refused.
    await catalog.scan.putDataSource("sales-sql", { kind: "AzureSqlDatabase" });
    const scan = await catalog.scan.putScan("sales-sql", "weekly", {
      kind: "AzureSqlDatabaseCredential",
      properties: { credential: { referenceName: "sql-reader", credentialType: "SqlAuth" } },
    });
    assert.equal(scan.value.properties?.credential?.referenceName, "sql-reader");
    const unknown = await rejection(() =>
      catalog.scan.putScan("sales-sql", "weekly", {
        kind: "AzureSqlDatabaseCredential",
        properties: { credential: { referenceName: "nosuch", credentialType: "SqlAuth" } },
      })
    );
    assert.ok(unknown instanceof BadRequestError, String(unknown));
    assert.match(unknown.message, /Credential 'nosuch' does not exist/);

    // A credential naming an unknown key vault connection is refused by the service.
    const orphan = await file("orphan.json", {
      kind: "BasicAuth",
      properties: { typeProperties: { password: secret("nosuch-kv") } },
    });
    const refused = await rejection(() =>
      run(putCredential, { credentialName: "orphan", payloadFile: orphan })
    );
    assert.ok(refused instanceof BadRequestError, String(refused));

    // The emulator answers a credential delete with the contract's empty 204 (no recording shows more):
    // the name alone is printed.
    assert.deepEqual(await run(deleteCredential, { credentialName: "sql-reader" }), {
      deleted: "sql-reader",
    });
    const gone = await rejection(() => run(getCredential, { credentialName: "sql-reader" }));
    assert.ok(gone instanceof NotFoundError);
    assert.match(gone.hint ?? "", /govcat scan listCredentials/);
    const deletedVault = await run(deleteKeyVault, { keyVaultName: "contoso-kv" });
    assert.equal(deletedVault.deleted, "contoso-kv");
    assert.equal(deletedVault.keyVaultConnection.name, "contoso-kv", "the deleted connection, as answered");
    assert.equal((await run(listKeyVaults, {})).count, 0);
  });
});

Deno.test("scan operations: a credential carrying a secret's value is refused before sending, the value masked", async () => {
  await withScanSetup({}, async ({ run, file, requests }) => {
    const password = "Sup3r-Secret-Value";
    const payloadFile = await file("credential.json", {
      kind: "SqlAuth",
      properties: { typeProperties: { user: "sa", password } },
    });
    const error = await rejection(() => run(putCredential, { credentialName: "sql-reader", payloadFile }));
    assert.ok(error instanceof UsageError, String(error));
    assert.equal(error.exitCode, 2);
    assert.ok(!`${error.message} ${error.hint}`.includes(password), error.message);
    assert.equal(requests(), 0, "nothing is sent");

    const lines: string[] = [];
    const logger = createLogger("debug", { write: (line) => lines.push(line) });
    const ctx = { logger } as unknown as OperationContext;
    assert.throws(() =>
      checkCredentialSecrets(ctx, "c.json", { properties: { typeProperties: { accountKey: password } } })
    );
    logger.error(`the payload held ${password}`);
    assert.ok(!lines.join("\n").includes(password), lines.join("\n"));
  });
});

Deno.test("scan operations: key vault and credential deletes are destructive, reads read-only", () => {
  const registry = createOperationRegistry();
  for (const id of ["scan.delete-key-vault-connection", "scan.delete-credential"]) {
    assert.equal(registry.get(id)?.annotations.destructive, true, id);
  }
  for (const id of ["scan.get-credential", "scan.list-credentials", "scan.list-key-vault-connections"]) {
    assert.equal(registry.get(id)?.annotations.readOnly, true, id);
  }
});
