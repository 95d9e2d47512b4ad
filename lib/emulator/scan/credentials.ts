/**
 * Key vault connections (`/scan/azureKeyVaults/{name}`) and credentials (`/scan/credentials/{name}`) of
 * the emulator's scanning API: create or replace (201 new, 200 replaced), get, list (paged) and delete
 * (a key vault connection: 200 with the deleted connection, as the service answers; a credential: the
 * contract's 204, no recording shows otherwise). A key vault connection needs `properties.baseUrl`, an
 * https URL; the service also takes it spelled `baseurl` and answers `baseUrl`.
 *
 * A credential's `kind` is one of the contract's eight. Its secrets (a password, an account key, a service
 * principal key, a consumer secret) are references to a secret of a key vault connection
 * (`{"type": "AzureKeyVaultSecret", "secretName", "secretVersion", "store": {"referenceName": <key vault
 * connection>, "type": "LinkedServiceReference"}}`), and the connection must exist. A secret sent as a
 * value instead is refused, and no answer (error or not) repeats it. Only the fields the contract defines
 * for the credential's kind are stored and answered, so nothing else sent with a credential comes back.
 *
 * @module
 */
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import type { ScanResourceKind, StoredScanResource } from "./store.ts";
import {
  checkName,
  iso,
  isRecord,
  optionalObject,
  optionalString,
  readObjectBody,
  scanBadRequest,
  scanNotFound,
  scanPage,
} from "./support.ts";

/** Credential kinds of the contract (`Credential.kind`). */
export const CREDENTIAL_KINDS: readonly string[] = [
  "AccountKey",
  "ServicePrincipal",
  "BasicAuth",
  "SqlAuth",
  "AmazonARN",
  "ConsumerKeyAuth",
  "DelegatedAuth",
  "ManagedIdentity",
];

/** The fields of each kind's `typeProperties` in the contract: plain strings, and key vault secrets. */
const TYPE_PROPERTIES: Record<string, { text: string[]; secrets: string[] }> = {
  AccountKey: { text: [], secrets: ["accountKey"] },
  ServicePrincipal: { text: ["servicePrincipalId", "tenant"], secrets: ["servicePrincipalKey"] },
  BasicAuth: { text: ["user"], secrets: ["password"] },
  SqlAuth: { text: ["user"], secrets: ["password"] },
  AmazonARN: { text: ["roleARN"], secrets: [] },
  ConsumerKeyAuth: { text: ["user", "consumerKey"], secrets: ["password", "consumerSecret"] },
  DelegatedAuth: { text: ["clientId", "user"], secrets: ["password"] },
  ManagedIdentity: { text: ["principalId", "tenantId", "resourceId"], secrets: [] },
};

/** Routes of one top-level resource of the scanning API: list, get, put and delete by name. */
export interface NamedResource {
  kind: ScanResourceKind;
  /** The collection path, e.g. `/scan/credentials`. */
  path: string;
  param: string;
  /** What it is called in messages ("Credential"). */
  what: string;
  notFoundCode: string;
  /** Checks a body and returns what to store; `current` is the stored resource being replaced. */
  accept(
    body: Record<string, unknown>,
    current: StoredScanResource | undefined,
  ): Record<string, unknown>;
  wire(stored: StoredScanResource): Record<string, unknown>;
  /** The shape of a body, for the error an empty one gets. */
  example: string;
  /** Checks the name (the service's naming rule unless given). */
  checkName?(name: string): string | undefined;
  /** Called before a delete; throws to refuse it. */
  beforeDelete?(stored: StoredScanResource): void;
  /**
   * True where recorded traffic shows the service answering a delete with 200 and the deleted resource
   * (the contract says 204; cite the recording where it is set). Left out, a delete answers 204.
   */
  deleteAnswersResource?: boolean;
}

/** The list, get, put and delete routes of a {@link NamedResource}. */
export function namedResourceRoutes(c: ScanContext, r: NamedResource): RouteDefinition[] {
  const item = `${r.path}/{${r.param}}`;
  const existing = (name: string) =>
    c.store.get(r.kind, "", name) ?? fail(scanNotFound(r.what, name, r.notFoundCode));
  return [
    {
      method: "GET",
      path: r.path,
      handler: ({ url }) => jsonResponse(scanPage(url, c.store.list(r.kind, "").map(r.wire), c.pageSize)),
    },
    {
      method: "GET",
      path: item,
      handler: ({ params }) => jsonResponse(r.wire(existing(params[r.param]))),
    },
    {
      method: "PUT",
      path: item,
      handler: async (ctx) => {
        const name = ctx.params[r.param];
        if (r.checkName) {
          const problem = r.checkName(name);
          if (problem) {
            await ctx.request.body?.cancel();
            throw scanBadRequest(`'${name}' is not a valid ${r.what.toLowerCase()} name: ${problem}.`, name);
          }
        } else {
          await checkName(ctx, name, r.what.toLowerCase());
        }
        const current = c.store.get(r.kind, "", name);
        const body = await readObjectBody(ctx, r.example);
        const stored = c.store.put(r.kind, "", name, r.accept(body, current), c.deps.now());
        return jsonResponse(r.wire(stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path: item,
      handler: ({ params }) => {
        const stored = existing(params[r.param]);
        r.beforeDelete?.(stored);
        c.store.delete(r.kind, "", stored.name);
        if (r.deleteAnswersResource) return jsonResponse(r.wire(stored), 200);
        return new Response(null, { status: 204 });
      },
    },
  ];
}

/** Properties without the read-only times a client may echo back. */
export function writableProperties(body: Record<string, unknown>): Record<string, unknown> {
  const properties = { ...optionalObject(body, "properties", "properties") };
  for (const readOnly of ["createdAt", "lastModifiedAt"]) delete properties[readOnly];
  return properties;
}

export function keyVaultRoutes(c: ScanContext): RouteDefinition[] {
  return namedResourceRoutes(c, {
    kind: "keyvault",
    path: "/scan/azureKeyVaults",
    param: "azureKeyVaultName",
    what: "Key vault connection",
    notFoundCode: "KeyVaultNotFound",
    example: '{"properties": {"baseUrl": "https://<vault>.vault.azure.net/"}}',
    // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
    // ScanningServiceClientTest/KeyVaultReferenceOperations.json (DELETE answers 200 with the connection).
    deleteAnswersResource: true,
    accept: (body) => {
      const properties = writableProperties(body);
      const baseUrl = keyVaultBaseUrl(properties);
      if (!baseUrl || !/^https:\/\/[^\s/]+\/?$/.test(baseUrl)) {
        throw scanBadRequest(
          "properties.baseUrl must be the key vault's https URL, e.g. https://<vault>.vault.azure.net/.",
          "properties.baseUrl",
        );
      }
      optionalString(properties, "description", "properties.description");
      return { properties };
    },
    wire: (stored) => ({
      id: `azureKeyVaults/${stored.name}`,
      name: stored.name,
      properties: stored.body.properties,
    }),
  });
}

/**
 * The key vault's URL, from `baseUrl` or `baseurl`, moved to `baseUrl`. The service took
 * `{"properties": {"baseurl": …}}` and answered `baseUrl` (recorded: Azure/azure-sdk-for-net
 * sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanningServiceClientTest/
 * KeyVaultReferenceOperations.json). Both spellings with different URLs are refused: which one counts
 * would be a guess.
 */
function keyVaultBaseUrl(properties: Record<string, unknown>): string | undefined {
  const camel = optionalString(properties, "baseUrl", "properties.baseUrl");
  const lower = optionalString(properties, "baseurl", "properties.baseurl");
  if (camel !== undefined && lower !== undefined && camel !== lower) {
    throw scanBadRequest(
      "properties.baseUrl and properties.baseurl name different URLs; send one of them.",
      "properties.baseUrl",
    );
  }
  delete properties.baseurl;
  const baseUrl = camel ?? lower;
  if (baseUrl !== undefined) properties.baseUrl = baseUrl;
  return baseUrl;
}

export function credentialRoutes(c: ScanContext): RouteDefinition[] {
  return namedResourceRoutes(c, {
    kind: "credential",
    path: "/scan/credentials",
    param: "credentialName",
    what: "Credential",
    notFoundCode: "CredentialNotFound",
    example: '{"kind": "BasicAuth", "properties": {"typeProperties": {…}}}',
    accept: (body) => {
      const kind = body.kind;
      if (typeof kind !== "string" || !CREDENTIAL_KINDS.includes(kind)) {
        throw scanBadRequest(
          `Credential kind ${JSON.stringify(kind ?? null)} is not one of ${CREDENTIAL_KINDS.join(", ")}.`,
          "kind",
        );
      }
      const properties = writableProperties(body);
      optionalString(properties, "description", "properties.description");
      const sent = optionalObject(properties, "typeProperties", "properties.typeProperties");
      const kept: Record<string, unknown> = {};
      if (properties.description !== undefined) kept.description = properties.description;
      if (sent) kept.typeProperties = credentialTypeProperties(c, kind, sent);
      return { kind, properties: kept };
    },
    wire: (stored) => ({
      id: `credentials/${stored.name}`,
      name: stored.name,
      kind: stored.body.kind,
      properties: stored.body.properties,
    }),
  });
}

/** The contract's fields of a kind's typeProperties, each secret a reference to an existing key vault. */
function credentialTypeProperties(
  c: ScanContext,
  kind: string,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const fields = TYPE_PROPERTIES[kind];
  const kept: Record<string, unknown> = {};
  for (const field of fields.text) {
    const value = optionalString(sent, field, `properties.typeProperties.${field}`);
    if (value !== undefined) kept[field] = value;
  }
  for (const field of fields.secrets) {
    const value = sent[field];
    if (value === undefined || value === null) continue;
    kept[field] = keyVaultSecret(c, value, `properties.typeProperties.${field}`);
  }
  return kept;
}

/** A key vault secret reference, checked; the value itself is never repeated in an error. */
function keyVaultSecret(c: ScanContext, value: unknown, target: string): Record<string, unknown> {
  const shape = `{"type": "AzureKeyVaultSecret", "secretName": "<secret>", "store": {"referenceName": ` +
    `"<key vault connection>", "type": "LinkedServiceReference"}}`;
  if (!isRecord(value)) {
    throw scanBadRequest(
      `${target} must reference a key vault secret, ${shape}; a secret's value is never sent (it was not ` +
        "stored).",
      target,
    );
  }
  const secretName = value.secretName;
  const store = value.store;
  if (typeof secretName !== "string" || secretName === "" || !isRecord(store)) {
    throw scanBadRequest(`${target} must be ${shape}.`, target);
  }
  const vault = store.referenceName;
  if (typeof vault !== "string" || !c.store.get("keyvault", "", vault)) {
    throw scanBadRequest(
      `${target}.store.referenceName names no key vault connection` +
        (typeof vault === "string" ? ` ('${vault}')` : "") +
        "; create it first (PUT /scan/azureKeyVaults/{name}).",
      `${target}.store.referenceName`,
    );
  }
  const kept: Record<string, unknown> = {
    type: "AzureKeyVaultSecret",
    secretName,
    store: { referenceName: c.store.get("keyvault", "", vault)!.name, type: "LinkedServiceReference" },
  };
  if (typeof value.secretVersion === "string") kept.secretVersion = value.secretVersion;
  return kept;
}

/**
 * Checks a scan's `properties.credential`: when it names a credential, the credential must exist and be of
 * the `credentialType` given with it (when given).
 */
export function checkCredentialReference(c: ScanContext, properties: Record<string, unknown>): void {
  const reference = properties.credential;
  if (reference === undefined || reference === null) return;
  const target = "properties.credential.referenceName";
  if (!isRecord(reference) || typeof reference.referenceName !== "string" || reference.referenceName === "") {
    throw scanBadRequest(
      'properties.credential must be {"referenceName": "<credential>", "credentialType": "<kind>"}.',
      target,
    );
  }
  const credential = c.store.get("credential", "", reference.referenceName);
  if (!credential) {
    throw new EmulatorError(
      400,
      "BadRequest",
      `Credential '${reference.referenceName}' does not exist; create it first (PUT /scan/credentials/{name}).`,
      { target },
    );
  }
  const type = reference.credentialType;
  if (type !== undefined && type !== null && type !== credential.body.kind) {
    throw scanBadRequest(
      `properties.credential.credentialType is ${JSON.stringify(type)}, but credential ` +
        `'${credential.name}' is of kind ${credential.body.kind}.`,
      "properties.credential.credentialType",
    );
  }
}

/** ISO times of a stored resource, for wires that carry them. */
export function times(stored: StoredScanResource): { createdAt: string; lastModifiedAt: string } {
  return { createdAt: iso(stored.createdAt), lastModifiedAt: iso(stored.modifiedAt) };
}

function fail(error: Error): never {
  throw error;
}
