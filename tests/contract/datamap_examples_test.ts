/**
 * Replays the published data-map contract's examples against the emulator. For every example of the
 * Entity_*, Type_*, Relationship_* and Discovery_Query* operations: prepare what it refers to (see
 * SCENARIOS), build the request from the example's parameters and the operation's method and path template,
 * send it to a fresh seeded emulator under /datamap/api, and check that
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
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import {
  EmulatorApi,
  excerpt,
  type Json,
  nameFromQualifiedName,
  type Reply,
  SetupError,
} from "../support/contract/emulator_api.ts";
import {
  type Contract,
  type ContractExample,
  type ContractOperation,
  DATAMAP_API_VERSION,
  DATAMAP_CONTRACT_ERRATA,
  loadDataMapContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { formatSchemaErrors, type Schema, validateSchema } from "../support/contract/schema.ts";

/**
 * Examples the emulator cannot pass yet, by file, with what it lacks. The lead empties this list as the
 * emulator lands the routes; an entry whose example passes should be removed (run with
 * GOVCAT_CONTRACT_RUN_GAPS=1 to find them).
 */
const KNOWN_GAPS: Record<string, string> = {};

/** Examples deliberately not replayed yet, with the reason. */
const SKIPPED: Record<string, string> = {};

const AREAS = /^(Entity|Type|Relationship|Discovery)_/;

/** Context a scenario prepares an example in. */
interface Prepare {
  api: EmulatorApi;
  /** The example's parameters (a deep copy): rewrite them in place. */
  params: Json;
  example: ContractExample;
  contract: Contract;
}

/**
 * What an example needs before it is sent: the steps in words (the per-example setup table) and the code.
 * Examples without an entry are sent as they are, against the seeded emulator.
 */
interface Scenario {
  steps: string[];
  prepare(ctx: Prepare): void | Promise<void>;
}

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

function body(ctx: Prepare): Json {
  return ctx.params.body as Json;
}

/** Creates a storage account (plus `extra`) and points the example's path guid at it. */
function guidOfNewStorageAccount(extra: (ctx: Prepare) => Json = () => ({})): Scenario["prepare"] {
  return async (ctx) => {
    ctx.params.guid = await ctx.api.createEntity(storageAccount(STORAGE_QN, extra(ctx)));
  };
}

/** Creates the entity the path names by type and unique attribute (plus `extra`). */
function entityOfUniqueAttribute(extra: (ctx: Prepare) => Json = () => ({})): Scenario["prepare"] {
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
function ensureNamedType(name: string): Scenario {
  return {
    steps: [
      `ensure type ${name} exists (built in, else created from the definition the Type_* examples give)`,
    ],
    prepare: ({ api }) => api.ensureTypes([name]),
  };
}

/** Type example by guid: ensure the type exists, then point the path guid at it. */
function ensureTypeByGuid(name: string): Scenario {
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
function discovery(steps: string[] = [], prepare?: Scenario["prepare"]): Scenario {
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
const NO_SETUP: Scenario = {
  steps: ["none: the example needs nothing beyond the seed"],
  prepare: async () => {},
};

/** The per-example setup table. */
const SCENARIOS: Record<string, Scenario> = {
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
};

// ---------------------------------------------------------------------------------------------------------

interface BuiltRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  form?: FormData;
}

/** The request an example describes: the operation's method and path template, filled from `params`. */
function buildRequest(operation: ContractOperation, params: Json, file: string): BuiltRequest {
  const declared = new Set(operation.parameters.map((p) => p.name));
  for (const name of Object.keys(params)) {
    if (name !== "Endpoint" && name !== "api-version" && !declared.has(name)) {
      throw new Error(`${file}: parameter ${name} is not declared by ${operation.operationId}`);
    }
  }
  let path = operation.path;
  const query: Record<string, string | string[]> = {};
  let requestBody: unknown;
  let form: FormData | undefined;
  for (const parameter of operation.parameters) {
    const value = params[parameter.name];
    if (value === undefined) {
      if (parameter.required && parameter.name !== "api-version") {
        throw new Error(`${file}: required parameter ${parameter.name} has no value`);
      }
      continue;
    }
    switch (parameter.in) {
      case "path":
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        break;
      case "query": {
        const values = Array.isArray(value) ? value.map(String) : [String(value)];
        if (parameter.name.startsWith("attr_N:")) {
          values.forEach((item, i) => query[`attr_${i + 1}:${parameter.name.slice(7)}`] = item);
        } else {
          query[parameter.name] = values.length === 1 && !Array.isArray(value) ? values[0] : values;
        }
        break;
      }
      case "body":
        requestBody = value;
        break;
      case "formData":
        form ??= new FormData();
        form.append(parameter.name, new Blob([String(value)], { type: "text/csv" }), "business_metadata.csv");
        break;
      default:
        throw new Error(`${file}: parameter location ${parameter.in} is not supported`);
    }
  }
  query["api-version"] = String(params["api-version"] ?? DATAMAP_API_VERSION);
  return { method: operation.method, path, query, body: requestBody, form };
}

function describeRequest(request: BuiltRequest): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
  }
  const body = request.form
    ? " (multipart file)"
    : request.body === undefined
    ? ""
    : `\n  body: ${excerpt(JSON.stringify(request.body), 600)}`;
  return `${request.method} /datamap/api${request.path}?${search}${body}`;
}

/** The contract's error shape, with the three fields the service always writes made required. */
function errorSchema(operation: ContractOperation): Schema {
  const declared = operation.responses.default?.schema ?? { $ref: "#/definitions/AtlasErrorResponse" };
  return { allOf: [declared, { type: "object", required: ["requestId", "errorCode", "errorMessage"] }] };
}

function validate(contract: Contract, value: unknown, schema: Schema): string[] {
  const errors = validateSchema(value, schema, { root: contract.document, ...DATAMAP_CONTRACT_ERRATA });
  return errors.length === 0 ? [] : [formatSchemaErrors(errors)];
}

/** Problems with an error answer: not JSON, or not the contract's error shape. */
function errorBodyProblems(contract: Contract, operation: ContractOperation, reply: Reply): string[] {
  if (reply.json === undefined) return [`error body is not JSON: ${excerpt(reply.text, 300)}`];
  return validate(contract, reply.json, errorSchema(operation)).map((e) =>
    `error body does not match:\n${e}`
  );
}

/** Problems with an answer to an example: status, then body against the response or error schema. */
function replyProblems(
  contract: Contract,
  operation: ContractOperation,
  expected: number,
  reply: Reply,
): string[] {
  const declared = Object.keys(operation.responses).join(", ");
  if (reply.status !== expected) {
    return [
      `status ${reply.status}, the example answers ${expected} (the contract declares ${declared})`,
      ...(reply.status >= 400 ? errorBodyProblems(contract, operation, reply) : []),
    ];
  }
  const schema = operation.responses[String(expected)]?.schema;
  if (!schema) {
    return reply.text === "" ? [] : [`${expected} must have no body, got ${excerpt(reply.text, 300)}`];
  }
  if (schema.type === "file") return [];
  const problems: string[] = [];
  if (!/^application\/json/i.test(reply.headers.get("content-type") ?? "")) {
    problems.push(`content-type ${reply.headers.get("content-type")}, expected application/json`);
  }
  if (reply.json === undefined) return [...problems, `body is not JSON: ${excerpt(reply.text, 300)}`];
  return [
    ...problems,
    ...validate(contract, reply.json, schema).map((e) => `body does not match the contract:\n${e}`),
  ];
}

async function withEmulator<T>(run: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ seed: true });
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

async function replay(contract: Contract, example: ContractExample): Promise<void> {
  const operation = contract.operations.get(example.operationId)!;
  const statuses = Object.keys(example.responses);
  assert.equal(statuses.length, 1, `${example.file} should answer one status, has ${statuses.join(", ")}`);
  const expected = Number(statuses[0]);
  const scenario = SCENARIOS[example.file];
  await withEmulator(async (emulator) => {
    const api = new EmulatorApi(emulator.url, contract);
    const params = structuredClone(example.parameters);
    await scenario?.prepare({ api, params, example, contract });
    const request = buildRequest(operation, params, example.file);
    const reply = await api.send(request.method, request.path, {
      query: request.query,
      body: request.body,
      form: request.form,
    });
    const problems = replyProblems(contract, operation, expected, reply);
    if (problems.length > 0) {
      assert.fail([
        `${example.file} (${operation.operationId}) does not conform:`,
        ...problems.map((p) => `- ${p}`),
        `request: ${describeRequest(request)}`,
        `setup: ${scenario ? scenario.steps.join("; ") : "none"}`,
        `answer: HTTP ${reply.status} ${excerpt(reply.text)}`,
      ].join("\n"));
    }
  });
}

/** Error answers every implemented or missing route must give in the contract's error shape. */
const ERROR_CASES: Array<
  { name: string; operationId: string; status: number; send(api: EmulatorApi): Promise<Reply> }
> = [
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
    name: "Type_GetEntityDefByName with an unknown name",
    operationId: "Type_GetEntityDefByName",
    status: 404,
    send: (api) => api.send("GET", "/atlas/v2/types/entitydef/name/no_such_type_anywhere"),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

const AVAILABLE = referenceAvailable({ quiet: true });
const RUN_GAPS = envFlag("GOVCAT_CONTRACT_RUN_GAPS");

function envFlag(name: string): boolean {
  try {
    return ["1", "true", "yes"].includes((Deno.env.get(name) ?? "").toLowerCase());
  } catch {
    return false;
  }
}

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
      fn: () => replay(contract, example),
    });
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(`contract error shape: ${errorCase.name} -> ${errorCase.status}`, async () => {
      const operation = contract.operations.get(errorCase.operationId)!;
      await withEmulator(async (emulator) => {
        const reply = await errorCase.send(new EmulatorApi(emulator.url, contract));
        const problems = [
          ...(reply.status === errorCase.status
            ? []
            : [`status ${reply.status}, expected ${errorCase.status}`]),
          ...errorBodyProblems(contract, operation, reply),
        ];
        assert.deepEqual(problems, [], `answer: HTTP ${reply.status} ${excerpt(reply.text)}`);
      });
    });
  }
}
