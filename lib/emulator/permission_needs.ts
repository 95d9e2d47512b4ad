/**
 * Which collection role an API request needs, and on which collection, when the emulator checks
 * permissions (`startEmulator({ roles: … })`, see collection_permissions.ts). The role follows what the
 * request does:
 *
 * - reads (GET, and the POSTs that only read: search, suggest, autocomplete, browse, navigate, query)
 *   need data-reader, which every stronger role includes;
 * - a workflow user request and a decision on a workflow task need data-reader on the root: workflows exist
 *   so that people without write access can ask for a change, and the workflow area checks a decider is the
 *   task's assignee;
 * - scanning writes (`/scan/…`) need data-source-admin;
 * - collection create, update and delete, policy updates and the account's own writes (properties, keys,
 *   resource set rules) need collection-admin (creating a collection: on its parent);
 * - every other write (entities, glossary, types, lineage, relationships, workflows, the unified catalog)
 *   needs data-curator.
 *
 * The collection is the one the request names (a collections path, `?collectionId=` of an entity write or
 * move, the `collectionId` of each entity an entity write's body carries, `/collections/{c}/entity…`, a data source's or scan's `properties.collection.referenceName`, a
 * policy's collection, `?collectionName=` of a policy read), else the stored collection of the entity or
 * data source the path names, else the root collection.
 *
 * @module
 */
import { ROLE_IDS } from "./policy/defaults.ts";

/** A role the request needs on a collection. */
export interface PermissionNeed {
  /** The built-in role id (`purviewmetadatarole_builtin_data-curator`). */
  roleId: string;
  /** The collection's name, lower case. */
  collection: string;
}

/** What the decision looks up in the emulator's stores. */
export interface NeedLookups {
  /** The root collection's name. */
  root: string;
  /** Whether a collection of this name exists. */
  collectionExists(name: string): boolean;
  /** The collection an entity is stored in, if the entity exists. */
  entityCollection(guid: string): string | undefined;
  /** The collection of the policy with this id, if it exists. */
  policyCollection(id: string): string | undefined;
  /** The collection a data source is registered in, if it exists. */
  dataSourceCollection(name: string): string | undefined;
}

const API_PREFIX = /^\/(datamap|catalog)\/api(?=\/)/i;
const READING_POST = /\/(search\/[a-z]+|browse|navigate|query|suggest|autocomplete)$/i;
const READER_WORKFLOW_POST =
  /^\/workflow\/(userrequests|workflowtasks\/[^/]+\/(approve-approval|reject-approval|reassign|change-task-status))\/?$/i;
const ENTITY_WRITE = /^\/atlas\/v2\/entity(\/bulk)?\/?$/i;
const COLLECTION_PATH = /^\/(?:account\/)?collections\/([^/]+)(\/.*)?$/i;
const COLLECTION_ENTITY = /^\/collections\/([^/]+)\/entity(\/|$)/i;
const ENTITY_GUID = /\/entity\/guid\/([^/]+)/i;
const DATA_SOURCE = /^\/scan\/datasources\/([^/]+)(\/.*)?$/i;
const ACCOUNT_WRITE = /^\/(account(\/.*)?|listkeys|regeneratekeys|resourceSetRuleConfigs(\/.*)?)?$/i;

/** Whether a request only reads. */
export function isRead(method: string, path: string): boolean {
  const verb = method.toUpperCase();
  return ["GET", "HEAD", "OPTIONS"].includes(verb) || (verb === "POST" && READING_POST.test(path));
}

/** A request as the decision sees it: its method and URL, and its JSON body read on demand. */
export interface RequestFacts {
  method: string;
  url: URL;
  /** The parsed JSON body, or undefined when it is not JSON; read only for the writes that name a collection in it. */
  body(): Promise<unknown>;
}

/**
 * The roles a request needs, each on a collection: one, but an entity write naming several collections in
 * its body (`entities[].collectionId`) needs data-curator on each.
 */
export async function permissionsNeeded(
  request: RequestFacts,
  lookups: NeedLookups,
): Promise<PermissionNeed[]> {
  const need = await permissionNeeded(request, lookups);
  const local = request.url.pathname.replace(API_PREFIX, "");
  if (
    need.roleId !== ROLE_IDS.dataCurator || request.url.searchParams.get("collectionId") ||
    request.method.toUpperCase() !== "POST" || !ENTITY_WRITE.test(local)
  ) return [need];
  const body = await bodyOf(request);
  const entities = Array.isArray(body?.entities) ? body.entities : [body?.entity];
  const named = new Set<string>();
  for (const entity of entities) {
    const collection = typeof entity === "object" && entity !== null
      ? (entity as { collectionId?: unknown }).collectionId
      : undefined;
    named.add(typeof collection === "string" && collection !== "" ? collection.toLowerCase() : lookups.root);
  }
  return [...named].map((collection) => ({ roleId: need.roleId, collection }));
}

/** The role a request needs and the collection it needs it on, the body's entities aside. */
export async function permissionNeeded(request: RequestFacts, lookups: NeedLookups): Promise<PermissionNeed> {
  const url = request.url;
  const local = url.pathname.replace(API_PREFIX, "");
  const method = request.method.toUpperCase();
  const named = (name: string | null | undefined) => lowerName(name) ?? undefined;
  const need = (roleId: string, collection?: string): PermissionNeed => ({
    roleId,
    collection: collection ?? lookups.root,
  });
  const entityGuid = ENTITY_GUID.exec(local)?.[1];
  const collectionEntity = named(COLLECTION_ENTITY.exec(local)?.[1]);
  const collectionPath = COLLECTION_PATH.exec(local);
  const policy = /^\/policyStore\/metadataPolicies\/([^/]+)$/i.exec(local)?.[1];
  const dataSource = DATA_SOURCE.exec(local);
  const dataSourceHome = () =>
    dataSource ? lookups.dataSourceCollection(decodeURIComponent(dataSource[1])) : undefined;
  const subject = named(url.searchParams.get("collectionId")) ?? collectionEntity ??
    (collectionPath ? named(collectionPath[1]) : undefined) ??
    (policy ? lookups.policyCollection(decodeURIComponent(policy)) : undefined) ??
    named(url.searchParams.get("collectionName")) ??
    (entityGuid ? lookups.entityCollection(decodeURIComponent(entityGuid)) : undefined);

  if (isRead(method, local) || (method === "POST" && READER_WORKFLOW_POST.test(local))) {
    return need(ROLE_IDS.dataReader, subject ?? dataSourceHome());
  }
  if (dataSource || /^\/scan\//i.test(local)) {
    const referenced = method === "PUT" ? await bodyCollection(request) : undefined;
    return need(ROLE_IDS.dataSourceAdmin, referenced ?? dataSourceHome());
  }
  if (collectionPath && !collectionEntity) {
    const collection = named(collectionPath[1])!;
    if (method === "PUT" && !collectionPath[2] && !lookups.collectionExists(collection)) {
      return need(ROLE_IDS.collectionAdmin, await parentOfBody(request));
    }
    return need(ROLE_IDS.collectionAdmin, collection);
  }
  if (policy || ACCOUNT_WRITE.test(local)) return need(ROLE_IDS.collectionAdmin, subject);
  return need(ROLE_IDS.dataCurator, subject);
}

function lowerName(name: string | null | undefined): string | undefined {
  if (name === null || name === undefined || name === "") return undefined;
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

async function bodyOf(request: RequestFacts): Promise<Record<string, unknown> | undefined> {
  const body = await request.body();
  return typeof body === "object" && body !== null ? body as Record<string, unknown> : undefined;
}

function referenceName(value: unknown): string | undefined {
  const name = typeof value === "object" && value !== null
    ? (value as { referenceName?: unknown }).referenceName
    : undefined;
  return typeof name === "string" ? lowerName(name) : undefined;
}

/** `properties.collection.referenceName` of a data source or scan body. */
async function bodyCollection(request: RequestFacts): Promise<string | undefined> {
  const properties = (await bodyOf(request))?.properties;
  return typeof properties === "object" && properties !== null
    ? referenceName((properties as { collection?: unknown }).collection)
    : undefined;
}

/** `parentCollection.referenceName` of a collection body. */
async function parentOfBody(request: RequestFacts): Promise<string | undefined> {
  return referenceName((await bodyOf(request))?.parentCollection);
}
