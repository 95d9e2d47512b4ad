/**
 * Operations on the account's key vault connections and credentials, in the `scan` group. A credential
 * holds references to secrets of a key vault connection, never a secret itself: a payload that carries a
 * secret's value where a reference belongs (a string password, account key, service principal key or
 * consumer secret) is refused before anything is sent, and the value is registered with the logger first,
 * so neither the refusal nor any later diagnostic shows it.
 *
 * @module
 */
import {
  type Credential,
  CREDENTIAL_KINDS,
  type KeyVaultConnection,
} from "../catalog/scan_resource_types.ts";
import { UsageError } from "../core/errors.ts";
import { isPlainObject } from "./payload_files.ts";
import { resourceOperations } from "./scan_resource_operations.ts";
import type { Operation, OperationContext } from "./types.ts";

/** Fields of a credential's typeProperties that hold a key vault secret reference. */
const SECRET_FIELDS = ["accountKey", "servicePrincipalKey", "password", "consumerSecret"];

const SECRET_REFERENCE = '{"type": "AzureKeyVaultSecret", "secretName": "<secret>", "store": ' +
  '{"referenceName": "<key vault connection>", "type": "LinkedServiceReference"}}';

/** Refuses a secret value where a key vault secret reference belongs, masking the value first. */
export function checkCredentialSecrets(
  ctx: OperationContext,
  path: string,
  body: Record<string, unknown>,
): void {
  const properties = isPlainObject(body.properties) ? body.properties : {};
  const typeProperties = isPlainObject(properties.typeProperties) ? properties.typeProperties : {};
  for (const field of SECRET_FIELDS) {
    const value = typeProperties[field];
    if (value === undefined || value === null || isPlainObject(value)) continue;
    if (typeof value === "string") ctx.logger.addSecret(value);
    throw new UsageError(
      `${path}: properties.typeProperties.${field} holds a value; it must reference a key vault secret, ` +
        `${SECRET_REFERENCE}. Nothing was sent.`,
      "Store the secret in the key vault, connect the vault with `govcat scan putKeyVaultConnection`, " +
        "and name the secret in the credential.",
    );
  }
}

export const KEY_VAULT_OPERATIONS: Operation[] = resourceOperations<KeyVaultConnection>({
  kebab: "key-vault-connection",
  camel: "KeyVaultConnection",
  camelPlural: "KeyVaultConnections",
  nameField: "keyVaultName",
  noun: "key vault connection",
  summaries: {
    put: "Connect an Azure Key Vault (credentials name its secrets), or replace the connection, from a " +
      "JSON payload file",
    get: "Get a key vault connection: the vault's URL",
    list: "List every key vault connection of the account (all pages)",
    delete: "Delete a key vault connection; credentials naming it can no longer reach their secrets",
  },
  description: 'The payload is {"properties": {"baseUrl": "https://<vault>.vault.azure.net/", ' +
    '"description": "…"}}.',
  shape: 'a key vault connection {"properties": {"baseUrl": …}}',
  hint: "Check the name with `govcat scan listKeyVaultConnections`.",
  api: {
    put: (scan, name, body, signal) => scan.putKeyVaultConnection(name, body, signal),
    get: (scan, name, signal) => scan.getKeyVaultConnection(name, signal),
    list: (scan, signal) => scan.listKeyVaultConnections({ signal }),
    delete: (scan, name, signal) => scan.deleteKeyVaultConnection(name, signal),
  },
});

export const CREDENTIAL_OPERATIONS: Operation[] = resourceOperations<Credential>({
  kebab: "credential",
  camel: "Credential",
  camelPlural: "Credentials",
  nameField: "credentialName",
  noun: "credential",
  summaries: {
    put: "Create a credential scans authenticate with, or replace the one with this name, from a JSON " +
      "payload file",
    get: "Get a credential: its kind, user and the key vault secrets it names (never a secret's value)",
    list: "List every credential of the account (all pages)",
    delete: "Delete a credential; scans naming it can no longer authenticate",
  },
  description: `The payload is {"kind": "<kind>", "properties": {"typeProperties": {"user": "…", ` +
    `"password": ${SECRET_REFERENCE}}}}. Secrets are references to a key vault connection's secrets, ` +
    `never values. Kinds: ${CREDENTIAL_KINDS.join(", ")}.`,
  shape: 'a credential {"kind": …, "properties": {"typeProperties": {…}}}',
  kinds: CREDENTIAL_KINDS,
  checkPayload: checkCredentialSecrets,
  hint: "Check the name with `govcat scan listCredentials`.",
  api: {
    put: (scan, name, body, signal) => scan.putCredential(name, body, signal),
    get: (scan, name, signal) => scan.getCredential(name, signal),
    list: (scan, signal) => scan.listCredentials({ signal }),
    delete: (scan, name, signal) => scan.deleteCredential(name, signal),
  },
});
