/**
 * Replays the published data-map contract's examples against the emulator. For every example of the
 * Entity_*, Type_*, Relationship_*, Discovery_Query*, Glossary_* and Lineage_* operations: prepare what it
 * refers to (see SCENARIOS), build the request from the example's parameters and the operation's method and
 * path template (undeclared parameters the examples pass are contract errata: DATAMAP_REQUEST_ERRATA), send
 * it to a fresh seeded emulator under /datamap/api, and check that
 *   (a) the status is the example's own (one the contract declares for the operation),
 *   (b) a 2xx body validates against the operation's response schema (204: no body),
 *   (c) an error body validates against the contract's error shape (AtlasErrorResponse with requestId,
 *       errorCode and errorMessage), both for unexpected errors and for the ERROR_CASES at the end.
 *
 * Examples in KNOWN_GAPS are registered as ignored, with the reason in the test name; set
 * GOVCAT_CONTRACT_RUN_GAPS=1 to run them anyway and see which the emulator now passes.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import {
  EmulatorApi,
  excerpt,
  type Json,
  nameFromQualifiedName,
  SetupError,
} from "../support/contract/emulator_api.ts";
import {
  type Contract,
  type ContractOperation,
  DATAMAP_API_VERSION,
  DATAMAP_CONTRACT_ERRATA,
  DATAMAP_REQUEST_ERRATA,
  loadDataMapContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import {
  envFlag,
  type ErrorCase,
  type ReplayContext,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";
import type { Schema } from "../support/contract/schema.ts";

/**
 * Examples the emulator cannot pass yet, by file, with what it lacks. The lead empties this list as the
 * emulator lands the routes; an entry whose example passes should be removed (run with
 * GOVCAT_CONTRACT_RUN_GAPS=1 to find them).
 */
const KNOWN_GAPS: Record<string, string> = {};

/** Examples deliberately not replayed yet, with the reason. */
const SKIPPED: Record<string, string> = {};

const AREAS = /^(Entity|Type|Relationship|Discovery|Glossary|Lineage)_/;

/**
 * What an example needs before it is sent: the steps in words (the per-example setup table) and the code.
 * Examples without an entry are sent as they are, against the seeded emulator.
 */
const STORAGE_QN = "https://exampleaccount.core.windows.net";
const BLOB_FOLDER = "https://exampleaccount.blob.core.windows.net/examplepath/";
/** Files every Discovery_Query* example searches among: five match "exampledata", so limit 2 pages 2+2+1. */
const DISCOVERY_FILES = [
  "exampledata.txt",
  "exampledata1.txt",
  "exampledata2.txt",
  "exampledata3.txt",
  "exampledata.csv",
];

function storageAccount(qualifiedName = STORAGE_QN, extra: Json = {}): Json {
  return {
    typeName: "azure_storage_account",
    attributes: { qualifiedName, name: "ExampleStorageAccount", owner: "ExampleOwner" },
    ...extra,
  };
}

function classified(...typeNames: string[]): Json {
  return { classifications: typeNames.map((typeName) => ({ typeName })) };
}

/** A business metadata definition with string attributes, applicable to storage accounts. */
function businessMetadataDef(name: string, attributes: string[], applicable = ["azure_storage_account"]) {
  return {
    bucket: "businessMetadataDefs",
    def: {
      name,
      description: "",
      attributeDefs: attributes.map((attribute) => ({
        name: attribute,
        typeName: "string",
        isOptional: true,
        cardinality: "SINGLE",
        isUnique: false,
        isIndexable: true,
        options: { maxStrLength: "50", applicableEntityTypes: JSON.stringify(applicable) },
      })),
    },
  };
}

function qualifiedNameOf(entity: Json): string {
  return String((entity.attributes as Json).qualifiedName);
}

function body(ctx: ReplayContext): Json {
  return ctx.params.body as Json;
}

/** Creates a storage account (plus `extra`) and points the example's path guid at it. */
function guidOfNewStorageAccount(
  extra: (ctx: ReplayContext) => Json = () => ({}),
): ReplayScenario["prepare"] {
  return async (ctx) => {
    ctx.params.guid = await ctx.api.createEntity(storageAccount(STORAGE_QN, extra(ctx)));
  };
}

/** Creates the entity the path names by type and unique attribute (plus `extra`). */
function entityOfUniqueAttribute(
  extra: (ctx: ReplayContext) => Json = () => ({}),
): ReplayScenario["prepare"] {
  return async (ctx) => {
    const qualifiedName = String(ctx.params["attr:qualifiedName"]);
    await ctx.api.createEntity({
      typeName: ctx.params.typeName,
      attributes: { qualifiedName, name: nameFromQualifiedName(qualifiedName) },
      ...extra(ctx),
    });
  };
}

/** Creates one AtlasGlossaryTerm entity per guid given; returns old guid → new guid. */
async function createTerms(api: EmulatorApi, guids: string[]): Promise<Record<string, string>> {
  const created = await api.createEntities(guids.map((_guid, i) => ({
    typeName: "AtlasGlossaryTerm",
    attributes: { qualifiedName: `ExampleTerm${i + 1}@Glossary`, name: `ExampleTerm${i + 1}` },
  })));
  return Object.fromEntries(guids.map((guid, i) => [guid, created[i]]));
}

/** A relationship body with its ends pointing at new term entities. */
async function withNewEnds(api: EmulatorApi, relationship: Json): Promise<Json> {
  const ends = [relationship.end1 as Json, relationship.end2 as Json];
  const map = await createTerms(api, ends.map((end) => String(end.guid)));
  return {
    ...relationship,
    end1: { ...ends[0], guid: map[String(ends[0].guid)] },
    end2: { ...ends[1], guid: map[String(ends[1].guid)] },
  };
}

/**
 * Creates a relationship from an example body (without its service fields) between new term entities;
 * returns its guid and the body sent.
 */
async function createRelationship(
  api: EmulatorApi,
  relationship: Json,
): Promise<{ guid: string; sent: Json }> {
  const sent = await withNewEnds(api, relationship);
  for (const field of ["guid", "createTime", "updateTime", "createdBy", "updatedBy", "version", "status"]) {
    delete sent[field];
  }
  const reply = await api.ok("create the relationship", "POST", "/atlas/v2/relationship", { body: sent });
  const guid = (reply.json as Json)?.guid;
  if (typeof guid !== "string") throw new SetupError(`create the relationship: no guid in ${reply.text}`);
  return { guid, sent };
}

function exampleBody(contract: Contract, file: string, status = "200"): Json {
  return structuredClone(contract.examples.get(file)!.responses[status].body) as Json;
}

/** Type example by name: ensure the type the example names (path `name`) exists. */
function ensureNamedType(name: string): ReplayScenario {
  return {
    steps: [
      `ensure type ${name} exists (built in, else created from the definition the Type_* examples give)`,
    ],
    prepare: ({ api }) => api.ensureTypes([name]),
  };
}

/** Type example by guid: ensure the type exists, then point the path guid at it. */
function ensureTypeByGuid(name: string): ReplayScenario {
  return {
    steps: [
      `ensure type ${name} exists (built in, else created from the definition the Type_* examples give)`,
      `rewrite guid to ${name}'s guid (GET /types/typedef/name/${name})`,
    ],
    prepare: async ({ api, params }) => {
      await api.ensureTypes([name]);
      params.guid = await api.typeGuid(name);
    },
  };
}

/** Search among the seed plus the five example files. */
function discovery(steps: string[] = [], prepare?: ReplayScenario["prepare"]): ReplayScenario {
  return {
    steps: [`create azure_blob_path files ${DISCOVERY_FILES.join(", ")} under ${BLOB_FOLDER}`, ...steps],
    prepare: async (ctx) => {
      await ctx.api.createEntities(DISCOVERY_FILES.map((name) => ({
        typeName: "azure_blob_path",
        attributes: { qualifiedName: BLOB_FOLDER + name, name },
      })));
      await prepare?.(ctx);
    },
  };
}

/** The continuation token of page `pages` (1-based) of the example's query without a token. */
async function continuationAfter(api: EmulatorApi, query: Json, pages: number): Promise<string> {
  let token: string | undefined;
  for (let page = 1; page <= pages; page++) {
    const request = { ...query };
    if (token) request.continuationToken = token;
    else delete request.continuationToken;
    const reply = await api.ok(`search page ${page}`, "POST", "/search/query", { body: request });
    token = (reply.json as Json)?.continuationToken as string | undefined;
    if (typeof token !== "string") {
      throw new SetupError(`search page ${page} has no continuationToken: ${reply.text}`);
    }
  }
  return token!;
}

/** Replaces every string equal to `from` (anywhere in `value`) by `to`. */
function replaceDeep(value: unknown, from: string, to: unknown): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => replaceDeep(item, from, to));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceDeep(v, from, to)]));
  }
  return value;
}

/** For examples that need nothing but the seeded emulator. */
const NO_SETUP: ReplayScenario = {
  steps: ["none: the example needs nothing beyond the seed"],
  prepare: async () => {},
};

// ---- glossary and lineage fixtures ------------------------------------------------------------------------

/** What {@link glossaryFixture} created. */
interface GlossaryFixture {
  glossary: string;
  term1: string;
  term2: string;
  /** ExampleTerm3, related to nothing. */
  term3: string;
  category1: string;
  category2: string;
  /** ExampleCategory3, a top-level category. */
  category3: string;
  /** A storage account ExampleTerm1 is assigned to, and the assignment's relationship guid. */
  assigned: string;
  assignment: string;
  /** A storage account with no term. */
  unassigned: string;
}

/** The example guids of the Glossary_* examples, by what they stand for. */
const EXAMPLE_GLOSSARY_GUIDS = [
  "c018ddaf-7c21-4b37-a838-dae5f110c3d8",
  "47029611-67a1-42d5-8766-90eb904f7f22",
];
/** Glossary_Delete.json's glossary. */
const EXAMPLE_DELETED_GLOSSARY_GUID = "c0c54153-13d1-1608-13af-43457cdffe75";
const EXAMPLE_TERM1_GUIDS = ["54688d39-b298-4104-9e80-f2a16f44aaea", "8a7f65ec-6429-0b9b-3734-ec57bf1e34c2"];
const EXAMPLE_TERM2_GUID = "952c7ba4-4c89-42d8-a05a-7d2161be7008";
const EXAMPLE_CATEGORY1_GUIDS = [
  "ed7458f0-9463-48a5-b5c6-4f785fb34e12",
  "3243ea0a-9492-47e1-392e-a84e64980af9",
];
const EXAMPLE_CATEGORY2_GUIDS = [
  "e47c4584-daca-4f9e-9092-194e04692c9a",
  "7c1cb44a-f902-4e78-b740-3a9441b0dad0",
];
const EXAMPLE_TERM3_GUID = "821beef0-ced9-47ba-8f7f-c4f3459f4d18";
const EXAMPLE_CATEGORY3_GUID = "0d6766f6-f4b6-435b-bda2-d3edc358998e";

async function createdGuid(api: EmulatorApi, step: string, path: string, body: Json): Promise<string> {
  const reply = await api.ok(step, "POST", path, { body });
  const guid = (reply.json as Json)?.guid;
  if (typeof guid !== "string") throw new SetupError(`${step}: no guid in ${excerpt(reply.text, 300)}`);
  return guid;
}

/** The guid of the glossary "Glossary" every new account has, or undefined when it was deleted. */
async function defaultGlossary(api: EmulatorApi): Promise<string | undefined> {
  const reply = await api.ok("list glossaries", "GET", "/atlas/v2/glossary");
  const found = (reply.json as Json[]).find((glossary) => glossary.name === "Glossary");
  return found ? String(found.guid) : undefined;
}

/**
 * The glossary "Glossary" (the name every Glossary_* example uses): the one every new account has, given
 * the examples' description and language; returns its guid.
 */
async function createGlossary(api: EmulatorApi): Promise<string> {
  const guid = await defaultGlossary(api);
  const fields = { shortDescription: "Example Short Description", language: "en" };
  if (!guid) {
    return createdGuid(api, "create glossary Glossary", "/atlas/v2/glossary", {
      name: "Glossary",
      ...fields,
    });
  }
  await api.ok("describe glossary Glossary", "PUT", `/atlas/v2/glossary/${guid}/partial`, { body: fields });
  return guid;
}

/** Glossary_Create creates "Glossary": the one a new account has goes first, or the name would be taken. */
const WITHOUT_DEFAULT_GLOSSARY: ReplayScenario = {
  steps: ["delete the glossary Glossary every new account has (the example creates one of that name)"],
  prepare: async ({ api }) => {
    const guid = await defaultGlossary(api);
    if (guid) await api.ok("delete glossary Glossary", "DELETE", `/atlas/v2/glossary/${guid}`);
  },
};

function createTerm(api: EmulatorApi, glossary: string, name: string): Promise<string> {
  return createdGuid(api, `create term ${name}`, "/atlas/v2/glossary/term", {
    name,
    anchor: { glossaryGuid: glossary },
  });
}

/**
 * Glossary "Glossary" with terms ExampleTerm1 and ExampleTerm2, categories ExampleCategory2 (parent) and
 * ExampleCategory1 (child, holding ExampleTerm1), ExampleTerm1 assigned to one storage account and another
 * storage account without terms.
 */
async function glossaryFixture(api: EmulatorApi): Promise<GlossaryFixture> {
  const glossary = await createGlossary(api);
  const term1 = await createTerm(api, glossary, "ExampleTerm1");
  const term2 = await createTerm(api, glossary, "ExampleTerm2");
  const term3 = await createTerm(api, glossary, "ExampleTerm3");
  const category3 = await createdGuid(
    api,
    "create category ExampleCategory3",
    "/atlas/v2/glossary/category",
    {
      name: "ExampleCategory3",
      anchor: { glossaryGuid: glossary },
    },
  );
  const category2 = await createdGuid(
    api,
    "create category ExampleCategory2",
    "/atlas/v2/glossary/category",
    {
      name: "ExampleCategory2",
      anchor: { glossaryGuid: glossary },
    },
  );
  const category1 = await createdGuid(
    api,
    "create category ExampleCategory1",
    "/atlas/v2/glossary/category",
    {
      name: "ExampleCategory1",
      anchor: { glossaryGuid: glossary },
      parentCategory: { categoryGuid: category2 },
      terms: [{ termGuid: term1 }],
    },
  );
  const [assigned, unassigned] = await api.createEntities([
    storageAccount("https://assigned.core.windows.net"),
    storageAccount("https://unassigned.core.windows.net"),
  ]);
  await api.ok("assign ExampleTerm1", "POST", `/atlas/v2/glossary/terms/${term1}/assignedEntities`, {
    body: [{ guid: assigned }],
  });
  const listed = await api.ok(
    "list ExampleTerm1's assignments",
    "GET",
    `/atlas/v2/glossary/terms/${term1}/assignedEntities`,
  );
  const assignment = ((listed.json as Json[] | undefined) ?? []).find((h) => h.guid === assigned)
    ?.relationshipGuid;
  if (typeof assignment !== "string") {
    throw new SetupError(
      `list ExampleTerm1's assignments: no relationshipGuid in ${excerpt(listed.text, 300)}`,
    );
  }
  return {
    glossary,
    term1,
    term2,
    term3,
    category1,
    category2,
    category3,
    assigned,
    assignment,
    unassigned,
  };
}

/** Rewrites every example guid in `params` to the fixture's guid standing for the same object. */
function rewriteGlossaryGuids(
  params: Json,
  fixture: GlossaryFixture,
  extra: Record<string, string> = {},
): void {
  const map: Record<string, string> = { ...extra };
  for (const guid of EXAMPLE_GLOSSARY_GUIDS) map[guid] = fixture.glossary;
  for (const guid of EXAMPLE_TERM1_GUIDS) map[guid] = fixture.term1;
  map[EXAMPLE_TERM2_GUID] = fixture.term2;
  for (const guid of EXAMPLE_CATEGORY1_GUIDS) map[guid] = fixture.category1;
  for (const guid of EXAMPLE_CATEGORY2_GUIDS) map[guid] = fixture.category2;
  map[EXAMPLE_TERM3_GUID] = fixture.term3;
  map[EXAMPLE_CATEGORY3_GUID] = fixture.category3;
  for (const [key, value] of Object.entries(params)) {
    let next: unknown = value;
    for (const [from, to] of Object.entries(map)) next = replaceDeep(next, from, to);
    params[key] = next;
  }
}

/** Glossary example on the full fixture, with its guids (and `extra` ones) rewritten. */
function onGlossaryFixture(
  steps: string[] = [],
  extra: (fixture: GlossaryFixture) => Record<string, string> = () => ({}),
  prepare?: (ctx: ReplayContext, fixture: GlossaryFixture) => void | Promise<void>,
): ReplayScenario {
  return {
    steps: [
      "the glossary Glossary every new account has, described; terms ExampleTerm1/2/3, categories ExampleCategory2 > ExampleCategory1 " +
      "(holding ExampleTerm1) and ExampleCategory3, ExampleTerm1 assigned to a storage account",
      "rewrite the example's glossary/term/category guids to theirs",
      ...steps,
    ],
    prepare: async (ctx) => {
      const fixture = await glossaryFixture(ctx.api);
      rewriteGlossaryGuids(ctx.params, fixture, extra(fixture));
      await prepare?.(ctx, fixture);
    },
  };
}

/** Glossary example that creates things in glossary "Glossary": only the glossary (and `terms`) exist. */
function inNewGlossary(terms: string[] = []): ReplayScenario {
  return {
    steps: [
      "describe the glossary Glossary every new account has" +
      (terms.length ? `; create terms ${terms.join(", ")}` : ""),
      "rewrite the example's glossary (and term) guids to theirs",
    ],
    prepare: async (ctx) => {
      const glossary = await createGlossary(ctx.api);
      const map: Record<string, string> = {};
      for (const guid of [...EXAMPLE_GLOSSARY_GUIDS, EXAMPLE_DELETED_GLOSSARY_GUID]) map[guid] = glossary;
      for (const name of terms) {
        const guid = await createTerm(ctx.api, glossary, name);
        if (name === "ExampleTerm1") { for (const old of EXAMPLE_TERM1_GUIDS) map[old] = guid; }
        if (name === "ExampleTerm2") map[EXAMPLE_TERM2_GUID] = guid;
      }
      for (const [key, value] of Object.entries(ctx.params)) {
        let next: unknown = value;
        for (const [from, to] of Object.entries(map)) next = replaceDeep(next, from, to);
        ctx.params[key] = next;
      }
    },
  };
}

/**
 * A lineage chain for the example's base entity: `source` → Process → base, so the base has an upstream
 * (INPUT) neighbour; returns the base entity's guid.
 */
async function lineageChain(api: EmulatorApi, base: Json): Promise<string> {
  const [source, target] = await api.createEntities([
    {
      typeName: "azure_blob_path",
      attributes: { qualifiedName: `${BLOB_FOLDER}source.csv`, name: "source.csv" },
    },
    base,
  ]);
  await api.createEntity({
    typeName: "Process",
    attributes: {
      qualifiedName: "example://process/copy",
      name: "copy",
      inputs: [{ guid: source }],
      outputs: [{ guid: target }],
    },
  });
  return target;
}

const LINEAGE_BY_GUID: ReplayScenario = {
  steps: [
    "create azure_blob_path source.csv and target.csv and a Process reading the first and writing the second",
    "rewrite guid to target.csv's guid",
  ],
  prepare: async (ctx) => {
    ctx.params.guid = await lineageChain(ctx.api, {
      typeName: "azure_blob_path",
      attributes: { qualifiedName: `${BLOB_FOLDER}target.csv`, name: "target.csv" },
    });
  },
};

/** The per-example setup table. */
const SCENARIOS: Record<string, ReplayScenario> = {
  // ---- Entity_* ----
  "Entity_AddCustomAttribute.json": NO_SETUP,
  "Entity_Create.json": NO_SETUP,
  "Entity_CreateOrUpdateWithRichText.json": NO_SETUP,
  "Entity_GetSampleBusinessMetadataTemplate.json": NO_SETUP,
  "Entity_AddClassificationToEntityByGuids.json": {
    steps: [
      "create the two column entities Entity_ListByGuids.json answers for the example's guids",
      "rewrite body.entityGuids to their guids",
    ],
    prepare: async (ctx) => {
      body(ctx).entityGuids = await ctx.api.createDescribed(
        body(ctx).entityGuids as string[],
        "Entity_ListByGuids.json",
      );
    },
  },
  "Entity_AddClassifications.json": {
    steps: [
      "create the azure_blob_container Entity_BulkDelete.json describes for the example's guid",
      "rewrite guid and body[].entityGuid to its guid",
    ],
    prepare: async (ctx) => {
      const [guid] = await ctx.api.createDescribed([String(ctx.params.guid)], ctx.example.file);
      ctx.params.guid = guid;
      for (const item of ctx.params.body as Json[]) item.entityGuid = guid;
    },
  },
  "Entity_AddClassificationsByUniqueAttribute.json": {
    steps: ["create azure_storage_account https://exampleaccount.core.windows.net"],
    prepare: entityOfUniqueAttribute(),
  },
  "Entity_AddLabel.json": {
    steps: ["create an azure_storage_account", "rewrite guid to its guid"],
    prepare: guidOfNewStorageAccount(),
  },
  "Entity_AddLabelsByUniqueAttribute.json": {
    steps: ["create Asset https://asset1"],
    prepare: entityOfUniqueAttribute(),
  },
  "Entity_AddOrUpdate_BusinessAttribute.json": {
    steps: [
      "create business metadata type myBizMetaData1 (bizAttr1: string, for azure_storage_account)",
      "create an azure_storage_account",
      "rewrite guid to its guid",
    ],
    prepare: async (ctx) => {
      await ctx.api.ensureTypeDef(businessMetadataDef("myBizMetaData1", ["bizAttr1"]));
      await guidOfNewStorageAccount()(ctx);
    },
  },
  "Entity_AddOrUpdate_BusinessMetadata.json": {
    steps: [
      "create business metadata type myBizMetadata1 (bizAttr1: string, for azure_storage_account)",
      "create an azure_storage_account",
      "rewrite guid to its guid",
    ],
    prepare: async (ctx) => {
      await ctx.api.ensureTypeDef(businessMetadataDef("myBizMetadata1", ["bizAttr1"]));
      await guidOfNewStorageAccount()(ctx);
    },
  },
  "Entity_BulkCreateOrUpdate.json": {
    steps: ["create body.entities[1] (exampleaccount2) first, so it is updated as the example answers"],
    prepare: async (ctx) => {
      await ctx.api.createEntity((body(ctx).entities as Json[])[1]);
    },
  },
  "Entity_BulkDelete.json": {
    steps: ["create the two azure_blob_container entities the example's answer describes", "rewrite guid[]"],
    prepare: async (ctx) => {
      ctx.params.guid = await ctx.api.createDescribed(ctx.params.guid as string[], ctx.example.file);
    },
  },
  "Entity_BulkSetClassifications.json": {
    steps: [
      "create the two azure_storage_account entities of body.guidHeaderMap, the second already classified " +
      "MICROSOFT.PERSONAL.IPADDRESS (the example answers Add for the first, Update for the second)",
      "re-key body.guidHeaderMap by their guids",
    ],
    prepare: async (ctx) => {
      const map = body(ctx).guidHeaderMap as Record<string, Json>;
      const headers = Object.values(map);
      const guids = await ctx.api.createEntities(headers.map((header, i) => ({
        typeName: header.typeName,
        attributes: { ...header.attributes as Json, name: nameFromQualifiedName(qualifiedNameOf(header)) },
        ...(i === 1 ? { classifications: header.classifications } : {}),
      })));
      body(ctx).guidHeaderMap = Object.fromEntries(headers.map((header, i) => [guids[i], header]));
    },
  },
  "Entity_Delete.json": {
    steps: ["create the azure_storage_account the example's answer describes", "rewrite guid"],
    prepare: async (ctx) => {
      [ctx.params.guid] = await ctx.api.createDescribed([String(ctx.params.guid)], ctx.example.file);
    },
  },
  "Entity_DeleteByUniqueAttribute.json": {
    steps: [
      "create the azure_storage_account the example's answer describes (https://exampleaccount.core.windows.net)",
    ],
    prepare: async (ctx) => {
      const header =
        ((exampleBody(ctx.contract, ctx.example.file).mutatedEntities as Json).DELETE as Json[])[0];
      await ctx.api.createDescribed([String(header.guid)], ctx.example.file);
    },
  },
  "Entity_Get.json": {
    steps: ["create the column entity the example's answer describes", "rewrite guid"],
    prepare: async (ctx) => {
      [ctx.params.guid] = await ctx.api.createDescribed([String(ctx.params.guid)], ctx.example.file);
    },
  },
  "Entity_GetByUniqueAttributes.json": {
    steps: ["create the azure_storage_account the example's answer describes"],
    prepare: async (ctx) => {
      const entity = exampleBody(ctx.contract, ctx.example.file).entity as Json;
      await ctx.api.createDescribed([String(entity.guid)], ctx.example.file);
    },
  },
  "Entity_GetClassification.json": {
    steps: [
      "create an azure_storage_account classified MICROSOFT.PERSONAL.DATE_OF_BIRTH (the classification type is created when not built in)",
      "rewrite guid",
    ],
    prepare: guidOfNewStorageAccount((ctx) => classified(String(ctx.params.classificationName))),
  },
  "Entity_GetClassifications.json": {
    steps: [
      "create an azure_storage_account classified MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER",
      "rewrite guid",
    ],
    prepare: guidOfNewStorageAccount(() => classified("MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER")),
  },
  "Entity_GetHeader.json": {
    steps: [
      "create the azure_storage_account the example's answer describes (classified EMAIL)",
      "rewrite guid",
    ],
    prepare: async (ctx) => {
      [ctx.params.guid] = await ctx.api.createDescribed([String(ctx.params.guid)], ctx.example.file);
    },
  },
  "Entity_ImportBusinessMetadata.json": {
    steps: [
      "create business metadata type myBizType1 (bizAttr1: string, for azure_storage_account)",
      "create azure_storage_account https://exampleaccount.core.windows.net",
      "send, instead of the example's empty multipart placeholder, a CSV file in the template's columns " +
      "setting myBizType1.bizAttr1 = Awesome Attribute 1 (what the example's answer reports)",
    ],
    prepare: async (ctx) => {
      await ctx.api.ensureTypeDef(businessMetadataDef("myBizType1", ["bizAttr1"]));
      await ctx.api.createEntity(storageAccount());
      ctx.params.file = [
        "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue",
        `azure_storage_account,${STORAGE_QN},myBizType1.bizAttr1,Awesome Attribute 1`,
      ].join("\n") + "\n";
    },
  },
  "Entity_ListByGuids.json": {
    steps: ["create the two column entities the example's answer describes", "rewrite guid[]"],
    prepare: async (ctx) => {
      ctx.params.guid = await ctx.api.createDescribed(ctx.params.guid as string[], ctx.example.file);
    },
  },
  "Entity_ListByUniqueAttributes.json": {
    steps: [
      "create an azure_storage_account with the example's qualifiedName",
      "send attr_N:qualifiedName as attr_1:qualifiedName (N numbers the entities asked for)",
    ],
    prepare: async (ctx) => {
      const qualifiedName = String(ctx.params["attr_N:qualifiedName"]);
      await ctx.api.createEntity(storageAccount(qualifiedName));
    },
  },
  "Entity_MoveEntitiesToCollection.json": {
    steps: [
      "create the two azure_storage_account entities the example's answer describes",
      "rewrite body.entityGuids",
    ],
    prepare: async (ctx) => {
      body(ctx).entityGuids = await ctx.api.createDescribed(
        body(ctx).entityGuids as string[],
        ctx.example.file,
      );
    },
  },
  "Entity_PartialUpdateAttributeByGuid.json": {
    steps: [
      "create the azure_storage_account the example's answer describes",
      "rewrite guid",
      "rewrite name ExampleName to name (ExampleName is no attribute of azure_storage_account; the body " +
      "ExampleNewName is a new name)",
    ],
    prepare: async (ctx) => {
      [ctx.params.guid] = await ctx.api.createDescribed([String(ctx.params.guid)], ctx.example.file);
      ctx.params.name = "name";
    },
  },
  "Entity_PartialUpdateByUniqueAttributes.json": {
    steps: ["create the azure_storage_account body.entity describes", "rewrite body.entity.guid"],
    prepare: async (ctx) => {
      const entity = body(ctx).entity as Json;
      [entity.guid] = await ctx.api.createDescribed([String(entity.guid)], ctx.example.file);
    },
  },
  "Entity_RemoveBusinessAttribute.json": {
    steps: [
      "create business metadata type myBizMetaData1 (bizAttr1: string, for azure_storage_account)",
      "create an azure_storage_account with businessAttributes myBizMetaData1.bizAttr1 = bizAttr1",
      "rewrite guid",
    ],
    prepare: async (ctx) => {
      await ctx.api.ensureTypeDef(businessMetadataDef("myBizMetaData1", ["bizAttr1"]));
      await guidOfNewStorageAccount(() => ({
        businessAttributes: { myBizMetaData1: { bizAttr1: "bizAttr1" } },
      }))(
        ctx,
      );
    },
  },
  "Entity_RemoveBusinessMetadata.json": {
    steps: [
      "create business metadata type myBizMetadata1 (bizAttr1: string, for azure_storage_account)",
      "create an azure_storage_account with businessAttributes myBizMetadata1.bizAttr1 = myBizMetaData1.bizAttr1",
      "rewrite guid",
    ],
    prepare: async (ctx) => {
      await ctx.api.ensureTypeDef(businessMetadataDef("myBizMetadata1", ["bizAttr1"]));
      await guidOfNewStorageAccount(() => ({ businessAttributes: body(ctx) }))(ctx);
    },
  },
  "Entity_RemoveClassification.json": {
    steps: [
      "create the azure_blob_container Entity_BulkDelete.json describes for the guid, classified " +
      "MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER",
      "rewrite guid",
    ],
    prepare: async (ctx) => {
      [ctx.params.guid] = await ctx.api.createDescribed(
        [String(ctx.params.guid)],
        ctx.example.file,
        classified(String(ctx.params.classificationName)),
      );
    },
  },
  "Entity_RemoveClassificationByUniqueAttribute.json": {
    steps: ["create column …/exampledata.csv classified MICROSOFT.FINANCIAL.US.ABA_ROUTING_NUMBER"],
    prepare: entityOfUniqueAttribute((ctx) => classified(String(ctx.params.classificationName))),
  },
  "Entity_RemoveLabels.json": {
    steps: ["create an azure_storage_account labelled label1, label2", "rewrite guid"],
    prepare: guidOfNewStorageAccount((ctx) => ({ labels: ctx.params.body })),
  },
  "Entity_RemoveLabelsByUniqueAttribute.json": {
    steps: ["create Asset https://asset1 labelled label1"],
    prepare: entityOfUniqueAttribute((ctx) => ({ labels: ctx.params.body })),
  },
  "Entity_SetLabels.json": {
    steps: ["create an azure_storage_account", "rewrite guid"],
    prepare: guidOfNewStorageAccount(),
  },
  "Entity_SetLabelsByUniqueAttribute.json": {
    steps: ["create Asset https://asset1"],
    prepare: entityOfUniqueAttribute(),
  },
  "Entity_Update.json": {
    steps: ["create body.entity (exampleaccount) first, so the example updates it as its answer says"],
    prepare: async (ctx) => {
      await ctx.api.createEntity(body(ctx).entity as Json);
    },
  },
  "Entity_UpdateClassifications.json": {
    steps: [
      "create an azure_storage_account classified with the body's two classifications (an update needs them; " +
      "classification types are created when not built in)",
      "rewrite guid and body[].entityGuid",
    ],
    prepare: async (ctx) => {
      const items = ctx.params.body as Json[];
      await guidOfNewStorageAccount(() => classified(...items.map((c) => String(c.typeName))))(ctx);
      for (const item of items) item.entityGuid = ctx.params.guid;
    },
  },
  "Entity_UpdateClassificationsByUniqueAttribute.json": {
    steps: [
      "create azure_storage_account https://exampleaccount.core.windows.net classified with the body's two",
    ],
    prepare: entityOfUniqueAttribute((ctx) =>
      classified(...(ctx.params.body as Json[]).map((c) => String(c.typeName)))
    ),
  },

  // ---- Relationship_* ----
  "Relationship_Create.json": {
    steps: ["create two AtlasGlossaryTerm entities", "rewrite body.end1/end2 guids to them"],
    prepare: async (ctx) => {
      ctx.params.body = await withNewEnds(ctx.api, body(ctx));
    },
  },
  "Relationship_Get.json": {
    steps: [
      "create two AtlasGlossaryTerm entities and the AtlasGlossarySynonym between them the example's answer shows",
      "rewrite guid to the relationship's guid",
    ],
    prepare: async (ctx) => {
      const relationship = exampleBody(ctx.contract, ctx.example.file).relationship as Json;
      ctx.params.guid = (await createRelationship(ctx.api, relationship)).guid;
    },
  },
  "Relationship_Update.json": {
    steps: [
      "create two AtlasGlossaryTerm entities and the relationship the body describes",
      "rewrite body.guid and end guids",
    ],
    prepare: async (ctx) => {
      const { guid, sent } = await createRelationship(ctx.api, body(ctx));
      ctx.params.body = { ...body(ctx), guid, end1: sent.end1, end2: sent.end2 };
    },
  },
  "Relationship_Delete.json": {
    steps: [
      "create two AtlasGlossaryTerm entities and the relationship of Relationship_Create.json",
      "rewrite guid",
    ],
    prepare: async (ctx) => {
      const relationship = structuredClone(
        ctx.contract.examples.get("Relationship_Create.json")!.parameters.body,
      );
      ctx.params.guid = (await createRelationship(ctx.api, relationship as Json)).guid;
    },
  },

  // ---- Type_* ----
  "Type_BulkCreate.json": {
    steps: ["ensure the types the body refers to exist (azure_resource, azure_sql_db)"],
    prepare: ({ api }) => api.ensureTypes(["azure_resource", "azure_sql_db"]),
  },
  "Type_BulkCreateBusinessMetadataDefs.json": {
    steps: ["ensure Path (the applicable entity type) exists"],
    prepare: ({ api }) => api.ensureTypes(["Path"]),
  },
  "Type_BulkDelete.json": {
    steps: ["ensure azure_resource and azure_sql_db exist", "create the body's types (POST /types/typedefs)"],
    prepare: async (ctx) => {
      await ctx.api.ensureTypes(["azure_resource", "azure_sql_db"]);
      await ctx.api.ok("create the types to delete", "POST", "/atlas/v2/types/typedefs", { body: body(ctx) });
    },
  },
  "Type_BulkUpdate.json": {
    steps: ["ensure azure_resource, azure_sql_server, azure_sql_db, azure_sql_schema exist"],
    prepare: ({ api }) =>
      api.ensureTypes(["azure_resource", "azure_sql_server", "azure_sql_db", "azure_sql_schema"]),
  },
  "Type_Delete.json": ensureNamedType("hive_order"),
  "Type_GetBusinessMetadataDefByGuid.json": ensureTypeByGuid("Business_Metadata_Type_Name"),
  "Type_GetBusinessMetadataDefByName.json": ensureNamedType("Business_Metadata_Type_Name"),
  "Type_GetByGuid.json": ensureTypeByGuid("glossary_term_status_value"),
  "Type_GetByName.json": ensureNamedType("glossary_term_status_value"),
  "Type_GetClassificationDefByGuid.json": ensureTypeByGuid(
    "MICROSOFT.GOVERNMENT.CANADA.SOCIAL_INSURANCE_NUMBER",
  ),
  "Type_GetClassificationDefByName.json": ensureNamedType(
    "MICROSOFT.GOVERNMENT.CANADA.SOCIAL_INSURANCE_NUMBER",
  ),
  "Type_GetEntityDefByGuid.json": ensureTypeByGuid("DataSet"),
  "Type_GetEntityDefByName.json": ensureNamedType("DataSet"),
  "Type_GetEnumDefByGuid.json": ensureTypeByGuid("hive_principal_type"),
  "Type_GetEnumDefByName.json": ensureNamedType("hive_principal_type"),
  "Type_GetRelationshipDefByGuid.json": ensureTypeByGuid("storm_topology_nodes"),
  "Type_GetRelationshipDefByName.json": ensureNamedType("storm_topology_nodes"),
  "Type_GetStructDefByGuid.json": ensureTypeByGuid("hive_order"),
  "Type_GetStructDefByName.json": ensureNamedType("hive_order"),
  "Type_GetTermTemplateDefByGuid.json": ensureTypeByGuid("MS KPI"),
  "Type_GetTermTemplateDefByName.json": ensureNamedType("MS KPI"),
  "Type_List.json": ensureNamedType("MS KPI"),
  "Type_ListEnumDefs.json": ensureNamedType("glossary_term_status_value"),
  "Type_ListHeaders.json": {
    steps: ["ensure hive_principal_type and MS KPI exist"],
    prepare: ({ api }) => api.ensureTypes(["hive_principal_type", "MS KPI"]),
  },
  "Type_ListTermTemplateDefs.json": ensureNamedType("MS KPI"),

  // ---- Discovery_Query* ----
  "Discovery_Query.json": discovery(),
  "Discovery_Suggest.json": discovery(),
  "Discovery_AutoComplete.json": discovery(),
  "Discovery_Query_And.json": discovery(),
  "Discovery_Query_AndOrNested.json": discovery(),
  "Discovery_Query_AssetType.json": discovery(),
  "Discovery_Query_Attribute.json": discovery(
    ["timerange value LAST_24H|LAST_7D|… → LAST_7D (one of the alternatives the example lists)"],
    (ctx) => {
      ctx.params.body = replaceDeep(
        body(ctx),
        "LAST_24H|LAST_7D|LAST_30D|LAST_365D|MORE_THAN_365D",
        "LAST_7D",
      );
    },
  ),
  "Discovery_Query_BusinessMetadataAttribute.json": discovery(
    [
      "create business metadata type exampleBizMetadata (stringAttr, numberAttr: int, booleanAttr: boolean, " +
      "dateAttr: date; for azure_blob_path)",
      "replace the <BusinessMetadataName>.<…AttributeName> placeholders by those attributes",
      "operators eq|ne|… → eq; timerange LAST_24H|… → LAST_7D",
    ],
    async (ctx) => {
      const def = businessMetadataDef("exampleBizMetadata", ["stringAttr"], ["azure_blob_path"]);
      const attributeDefs = def.def.attributeDefs;
      for (
        const [name, typeName] of [["numberAttr", "int"], ["booleanAttr", "boolean"], ["dateAttr", "date"]]
      ) {
        attributeDefs.push({ ...attributeDefs[0], name, typeName });
      }
      await ctx.api.ensureTypeDef(def);
      let query: unknown = body(ctx);
      for (
        const [from, to] of [
          ["<BusinessMetadataName>.<StringAttributeName>", "exampleBizMetadata.stringAttr"],
          ["<BusinessMetadataName>.<NumberAttributeName>", "exampleBizMetadata.numberAttr"],
          ["<BusinessMetadataName>.<BooleanAttributeName>", "exampleBizMetadata.booleanAttr"],
          ["<BusinessMetadataName>.<DateAttributeName>", "exampleBizMetadata.dateAttr"],
          ["eq|ne|contains|prefix", "eq"],
          ["eq|ne|gt|ge|lt|le", "eq"],
          ["eq|ne", "eq"],
          ["LAST_24H|LAST_7D|LAST_30D|LAST_365D|MORE_THAN_365D", "LAST_7D"],
        ]
      ) query = replaceDeep(query, from, to);
      ctx.params.body = query;
    },
  ),
  "Discovery_Query_Classification.json": discovery(),
  "Discovery_Query_Collection.json": discovery(
    ["collectionId collectionName → sales (a collection of the seed)"],
    (ctx) => {
      ctx.params.body = replaceDeep(body(ctx), "collectionName", "sales");
    },
  ),
  "Discovery_Query_Facet.json": discovery(),
  "Discovery_Query_FileExtension.json": discovery(),
  "Discovery_Query_GlossaryTerm.json": discovery(
    ["keywords <term name> → ExampleTerm"],
    (ctx) => {
      ctx.params.body = replaceDeep(body(ctx), "<term name>", "ExampleTerm");
    },
  ),
  "Discovery_Query_Id.json": discovery(
    ["filter id → the guid of exampledata.txt"],
    async (ctx) => {
      const [guid] = await ctx.api.createEntities([{
        typeName: "azure_blob_path",
        attributes: { qualifiedName: BLOB_FOLDER + "exampledata.txt", name: "exampledata.txt" },
      }]);
      ctx.params.body = replaceDeep(body(ctx), "bfecbcc3-1838-45fe-96d6-112de8a170f9", guid);
    },
  ),
  "Discovery_Query_Not.json": discovery(),
  "Discovery_Query_ObjectType.json": discovery(),
  "Discovery_Query_PaginationContinuationPage.json": discovery(
    ["continuationToken <token> → the token of the first page (same query without a token)"],
    async (ctx) => {
      body(ctx).continuationToken = await continuationAfter(ctx.api, body(ctx), 1);
    },
  ),
  "Discovery_Query_PaginationFirstPage.json": discovery(),
  "Discovery_Query_PaginationLastPage.json": discovery(
    ["continuationToken <token> → the token of the second page (the third and last of 2+2+1)"],
    async (ctx) => {
      body(ctx).continuationToken = await continuationAfter(ctx.api, body(ctx), 2);
    },
  ),
  "Discovery_Query_SystemTime.json": discovery(
    ["updateTime LAST_24H|LAST_7D|… → LAST_7D"],
    (ctx) => {
      ctx.params.body = replaceDeep(
        body(ctx),
        "LAST_24H|LAST_7D|LAST_30D|LAST_365D|MORE_THAN_365D",
        "LAST_7D",
      );
    },
  ),
  "Discovery_Query_Taxonomy.json": discovery(),
  "Discovery_Query_TermAssignment.json": discovery(
    ["keywords <asset name> → exampledata; termGuid <term guid> → a fixed uuid"],
    (ctx) => {
      let query = replaceDeep(body(ctx), "<asset name>", "exampledata");
      query = replaceDeep(query, "<term guid>", "4c3a0b5e-0d9f-4a52-9c4e-2f1b7a6d8e90");
      ctx.params.body = query;
    },
  ),
  "Discovery_Query_Type.json": discovery(),
  // ---- Glossary_* ----
  "Glossary_Create.json": WITHOUT_DEFAULT_GLOSSARY,
  "Glossary_CreateTerm.json": inNewGlossary(),
  "Glossary_CreateTerms.json": inNewGlossary(),
  "Glossary_CreateTermWithTemplate.json": inNewGlossary(),
  "Glossary_CreateCategory.json": inNewGlossary(["ExampleTerm1"]),
  "Glossary_CreateCategories.json": inNewGlossary(),
  "Glossary_Get.json": onGlossaryFixture(),
  "Glossary_GetDetailed.json": onGlossaryFixture(),
  "Glossary_List.json": onGlossaryFixture(),
  "Glossary_Update.json": onGlossaryFixture(),
  "Glossary_PartialUpdate.json": onGlossaryFixture(),
  // A glossary whose terms are assigned cannot be deleted (ATLAS-400-00-086), so none is.
  "Glossary_Delete.json": inNewGlossary(["ExampleTerm1", "ExampleTerm2"]),
  "Glossary_GetCategory.json": onGlossaryFixture(),
  "Glossary_ListCategories.json": onGlossaryFixture(),
  "Glossary_ListCategoriesHeaders.json": onGlossaryFixture(),
  "Glossary_ListCategoryTerms.json": onGlossaryFixture(),
  "Glossary_ListRelatedCategories.json": onGlossaryFixture(),
  "Glossary_UpdateCategory.json": onGlossaryFixture(),
  "Glossary_PartialUpdateCategory.json": onGlossaryFixture(),
  "Glossary_DeleteCategory.json": onGlossaryFixture(["categoryId → ExampleCategory1's guid"], (f) => ({
    "0e391355-252a-e5f3-ac18-5a3602df7616": f.category1,
  })),
  "Glossary_GetTerm.json": onGlossaryFixture(),
  "Glossary_GetTermWithoutAssets.json": onGlossaryFixture(),
  "Glossary_ListTerms.json": onGlossaryFixture(),
  "Glossary_ListTermHeaders.json": onGlossaryFixture(),
  "Glossary_ListRelatedTerms.json": onGlossaryFixture(),
  "Glossary_UpdateTerm.json": onGlossaryFixture(),
  "Glossary_PartialUpdateTerm.json": onGlossaryFixture(),
  "Glossary_DeleteTerm.json": onGlossaryFixture(["termId → ExampleTerm2's guid (no assignments)"], (f) => ({
    "b0942506-2d7d-1f45-d286-c29ca9e7f2ef": f.term2,
  })),
  "Glossary_ListEntitiesAssignedWithTerm.json": onGlossaryFixture(["termId → ExampleTerm1's guid"], (f) => ({
    "daf0ba4d-bc9a-4536-8a88-4b58e39dd3d4": f.term1,
  })),
  "Glossary_AssignTermToEntities.json": onGlossaryFixture(
    ["body[].guid → the storage account without terms"],
    (f) => ({ "ab9f1920-0b94-436d-aeb4-11a32c270fc0": f.unassigned }),
  ),
  "Glossary_RemoveTermAssignmentFromEntities.json": onGlossaryFixture(
    ["body[].guid and relationshipGuid → the assigned storage account and its assignment"],
    (f) => ({
      "16feb2a1-2c79-ade1-338d-fb24fcb8b8bd": f.assigned,
      "624f08bb-3c93-4f03-9ce1-ed2ce2c7c8d5": f.assignment,
    }),
  ),
  // ---- Lineage_* ----
  "Lineage_Get.json": LINEAGE_BY_GUID,
  "Lineage_GetNextPage.json": LINEAGE_BY_GUID,
  "Lineage_GetByUniqueAttribute.json": {
    steps: [
      "create the azure_blob_path the path names (attr:qualifiedName), azure_blob_path source.csv and a " +
      "Process reading source.csv and writing it",
    ],
    prepare: async (ctx) => {
      const qualifiedName = String(ctx.params["attr:qualifiedName"]);
      await lineageChain(ctx.api, {
        typeName: ctx.params.typeName,
        attributes: { qualifiedName, name: nameFromQualifiedName(qualifiedName) },
      });
    },
  },
};

// ---------------------------------------------------------------------------------------------------------

/** The contract's error shape, with the three fields the service always writes made required. */
function errorSchema(operation: ContractOperation): Schema {
  const declared = operation.responses.default?.schema ?? { $ref: "#/definitions/AtlasErrorResponse" };
  return { allOf: [declared, { type: "object", required: ["requestId", "errorCode", "errorMessage"] }] };
}

function profileOf(contract: Contract): ReplayProfile {
  return {
    contract,
    apiVersion: DATAMAP_API_VERSION,
    enumExtensions: DATAMAP_CONTRACT_ERRATA.enumExtensions,
    requestErrata: DATAMAP_REQUEST_ERRATA,
    errorSchema,
  };
}

/** Error answers every implemented or missing route must give in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "Entity_Get with an unknown guid",
    operationId: "Entity_Get",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/entity/guid/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Entity_GetByUniqueAttributes with an unknown qualifiedName",
    operationId: "Entity_GetByUniqueAttributes",
    status: 404,
    send: (api) =>
      api.send("GET", "/atlas/v2/entity/uniqueAttribute/type/azure_storage_account", {
        query: { "attr:qualifiedName": "https://nothing.core.windows.net" },
      }),
  },
  {
    name: "Entity_Delete with an unknown guid",
    operationId: "Entity_Delete",
    status: 404,
    send: (api) => api.send("DELETE", "/atlas/v2/entity/guid/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Entity_CreateOrUpdate with a body that is not JSON",
    operationId: "Entity_CreateOrUpdate",
    status: 400,
    send: (api) => api.send("POST", "/atlas/v2/entity", { rawBody: "{not json" }),
  },
  {
    name: "Entity_CreateOrUpdate without a qualifiedName",
    operationId: "Entity_CreateOrUpdate",
    status: 400,
    send: (api) =>
      api.send("POST", "/atlas/v2/entity", {
        body: { entity: { typeName: "DataSet", attributes: { name: "x" } } },
      }),
  },
  {
    name: "Entity_ListByGuids without a guid",
    operationId: "Entity_ListByGuids",
    status: 400,
    send: (api) => api.send("GET", "/atlas/v2/entity/bulk"),
  },
  {
    name: "Discovery_Query with limit 0",
    operationId: "Discovery_Query",
    status: 400,
    send: (api) => api.send("POST", "/search/query", { body: { keywords: "x", limit: 0 } }),
  },
  {
    name: "Relationship_Get with an unknown guid",
    operationId: "Relationship_Get",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/relationship/guid/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Glossary_Get with an unknown guid",
    operationId: "Glossary_Get",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/glossary/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Glossary_GetTerm with an unknown guid",
    operationId: "Glossary_GetTerm",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/glossary/term/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Lineage_Get with an unknown guid",
    operationId: "Lineage_Get",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/lineage/00000000-0000-4000-8000-00000000dead"),
  },
  {
    name: "Type_GetEntityDefByName with an unknown name",
    operationId: "Type_GetEntityDefByName",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/types/entitydef/name/no_such_type_anywhere"),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

const AVAILABLE = referenceAvailable({ quiet: true });
const RUN_GAPS = envFlag("GOVCAT_CONTRACT_RUN_GAPS");

if (!AVAILABLE) {
  Deno.test({
    name: `contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
  Deno.test({
    name: `contract error shape of emulator error answers ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadDataMapContract();
  const examples = [...contract.examples.values()]
    .filter((example) => AREAS.test(example.operationId))
    .sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("every example in scope has a setup entry, a known gap or a skip reason, and no stale entry", () => {
    const files = new Set(examples.map((e) => e.file));
    for (const table of [SCENARIOS, KNOWN_GAPS, SKIPPED]) {
      for (const file of Object.keys(table)) assert.ok(files.has(file), `${file} is not an example in scope`);
    }
    const unplanned = examples.filter((e) => !SCENARIOS[e.file] && !SKIPPED[e.file]);
    assert.deepEqual(unplanned.map((e) => e.file), [], "examples with no setup decision");
  });

  for (const example of examples) {
    const skipped = SKIPPED[example.file];
    const gap = KNOWN_GAPS[example.file];
    const name = skipped
      ? `contract example ${example.file} [skipped: ${skipped}]`
      : gap
      ? `contract example ${example.file} [KNOWN GAP: ${gap}]`
      : `contract example ${example.file}`;
    Deno.test({
      name,
      ignore: skipped !== undefined || (gap !== undefined && !RUN_GAPS),
      fn: () => replayExample(profileOf(contract), example, SCENARIOS[example.file]),
    });
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(`contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
