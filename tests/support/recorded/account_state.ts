/**
 * What the recorded accounts already had when Microsoft recorded a session, made on a fresh emulator before
 * the session replays: the account's root collection (a collection of the emulator's, named as the recorded
 * account named its root, and its metadata policy's recorded id), the data sources, credentials and scans a
 * scan test ran against, the glossaries a term import went to. Each step goes through the emulator's public
 * API and must succeed.
 *
 * @module
 */
import { POLICY_API_VERSION } from "../../../lib/catalog/policy_api.ts";
import { DEFAULT_API_VERSION } from "../../../lib/config/config.ts";
import type { IdTranslation } from "./replay.ts";

/** The api-version of each API a step uses, by path prefix; the account API's (2019-11-01-preview) else. */
const API_VERSIONS: ReadonlyArray<readonly [prefix: string, version: string]> = [
  ["/catalog/", DEFAULT_API_VERSION],
  ["/datamap/", DEFAULT_API_VERSION],
  ["/scan/", DEFAULT_API_VERSION],
  ["/policyStore/", POLICY_API_VERSION],
];

/** Sends one request to the emulator; anything but 2xx throws, naming the step. */
async function made(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const separator = path.includes("?") ? "&" : "?";
  const apiVersion = API_VERSIONS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? "2019-11-01-preview";
  const response = await fetch(`${baseUrl}${path}${separator}api-version=${apiVersion}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`recorded account state: ${method} ${path} -> ${response.status} ${text}`);
  }
  return text === "" ? null : JSON.parse(text);
}

/** The recorded .NET account's root collection (scan and collection tests name it as their collection). */
async function dotnetRootCollection(baseUrl: string): Promise<void> {
  await made(baseUrl, "PUT", "/collections/dotnetllcpurviewaccount", {
    friendlyName: "dotnetLLCPurviewAccount",
    parentCollection: { referenceName: "emulator" },
  });
}

/**
 * The .NET account's root collection, and the id its metadata policy had there: the emulator made the
 * policy with the collection, under an id of its own, which the session's request is translated to.
 */
async function dotnetRootPolicy(baseUrl: string, ids: IdTranslation): Promise<void> {
  await dotnetRootCollection(baseUrl);
  const list = await made(
    baseUrl,
    "GET",
    "/policyStore/metadataPolicies?collectionName=dotnetllcpurviewaccount",
  );
  const [policy] = (list as { values: { id: string }[] }).values;
  ids.learn("d04a7fad-ff6c-44f4-8fb4-0d007a8c01f8", policy.id);
}

/** An AmazonS3 data source with an AmazonARN credential and one scan, as the .NET scan tests had them. */
async function amazonScan(baseUrl: string, suffix: string): Promise<void> {
  await dotnetRootCollection(baseUrl);
  const collection = { type: "CollectionReference", referenceName: "dotnetllcpurviewaccount" };
  await made(baseUrl, "PUT", `/scan/credentials/test-credential${suffix}`, {
    kind: "AmazonARN",
    properties: { typeProperties: { roleARN: "arn:aws:iam::123456789012:role/purview" } },
  });
  await made(baseUrl, "PUT", `/scan/datasources/test-datasource${suffix}`, {
    kind: "AmazonS3",
    properties: { serviceUrl: "s3://testpurview", collection },
  });
  await made(baseUrl, "PUT", `/scan/datasources/test-datasource${suffix}/scans/test-scan${suffix}`, {
    kind: "AmazonS3Credential",
    properties: {
      credential: { referenceName: `test-credential${suffix}`, credentialType: "AmazonARN" },
      collection,
    },
  });
}

/** A glossary the recorded account had, by name, and the guid it had there when a request names it. */
async function glossary(
  baseUrl: string,
  ids: IdTranslation,
  name: string,
  recordedGuid?: string,
): Promise<void> {
  const created = await made(baseUrl, "POST", "/catalog/api/atlas/v2/glossary", {
    name,
    shortDescription: name,
  });
  if (recordedGuid) ids.learn(recordedGuid, (created as { guid: string }).guid);
}

/** What each recorded session needs, by session name (`fixtures/recorded/` path without `.json`). */
export const RECORDED_ACCOUNT_STATE: Record<string, (baseUrl: string, ids: IdTranslation) => Promise<void>> =
  {
    "net/Account/CollectionsCreateOrUpdateTask": dotnetRootCollection,
    "net/Account/CollectionsGetTask": dotnetRootCollection,
    "net/Administration/CollectionsCreateOrUpdateTaskAsync": dotnetRootCollection,
    "net/Administration/CollectionsGetTaskAsync": dotnetRootCollection,
    "net/Administration/GetMetadataPolicy": dotnetRootPolicy,
    "net/Scanning/DataSourceOperations": dotnetRootCollection,
    "net/Scanning/FliterOperations": (url) => amazonScan(url, "1009"),
    "net/Scanning/ScanOperations": (url) => amazonScan(url, "1009"),
    "net/Scanning/ScanTriggerOperations": (url) => amazonScan(url, "1009"),
    "net/Scanning/GetScans": (url) => amazonScan(url, "1014"),
    "net/Scanning/ScanRunOperations": (url) => amazonScan(url, "1014"),
    "js/Catalog/older_should_work_with_lro_helper": (url, ids) => glossary(url, ids, "jssdkGlossary9Node"),
    "js/Catalog/should_work_with_lro_helper": (url, ids) => glossary(url, ids, "jsLROTesting-2"),
    // Made by js/Catalog/should_create_a_glossary, whose answer names the guid.
    "js/Catalog/should_delete_a_glossary": (url, ids) =>
      glossary(url, ids, "jsLROTesting-2", "4f0ae4e5-4d3d-4922-9b5c-eb3fd972f762"),
  };
