/**
 * Type definition operations (`govcat types …`): read business metadata definitions
 * (`readBusinessMetadataDef`), create, update and delete definitions from payload files
 * (`createTypeDefs`, `updateTypeDefs`, `deleteTypeDefs`), list and read any definition, and the five
 * shipped business metadata attribute sets as ready payloads.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { TYPE_CATEGORIES, TYPEDEF_CATEGORIES, TYPES_DEF_LISTS } from "../catalog/types_definitions.ts";
import type { AtlasTypesDef } from "../catalog/types_definitions.ts";
import { UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import {
  BUSINESS_METADATA_TEMPLATE_NAMES,
  businessMetadataTemplate,
  businessMetadataTemplates,
} from "../templates/business_metadata_sets.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { guidField } from "./guid_fields.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type OperationAnnotations,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

const typeDefName = z.string().min(1).describe("Unique name of the type definition");
const typeDefGuid = guidField("GUID of the type definition");
const payloadFile = z.string().min(1).describe(
  "JSON file holding an AtlasTypesDef: {businessMetadataDefs: […], entityDefs: […], …}",
);
/** Templates are built into govcat: nothing is read from or written to the catalog. */
const LOCAL: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

/** Exactly one of name and guid, or a usage error naming both options. */
function nameOrGuid(
  command: string,
  input: { name?: string; guid?: string },
): { name?: string; guid?: string } {
  if (input.name && input.guid) throw new UsageError(`types ${command}: give --guid or --name, not both.`);
  if (!input.name && !input.guid) {
    throw new UsageError(
      `types ${command} needs --guid or --name.`,
      `E.g. govcat types ${command} --name=<definition name>.`,
    );
  }
  return input.name ? { name: input.name } : { guid: input.guid };
}

/** Reads and checks an AtlasTypesDef payload file. */
async function readTypesDef(ctx: OperationContext, path: string, forDelete = false): Promise<AtlasTypesDef> {
  const value = await readJsonFile(ctx, path, "--payload-file");
  const expected = `an AtlasTypesDef object with ${TYPES_DEF_LISTS.join(", ")}`;
  if (!isPlainObject(value)) throw payloadError(path, expected, describeJson(value));
  let count = 0;
  for (const [key, list] of Object.entries(value)) {
    if (!(TYPES_DEF_LISTS as ReadonlyArray<string>).includes(key)) {
      throw payloadError(
        path,
        expected,
        `an unknown key "${key}"`,
        `${didYouMean(key, TYPES_DEF_LISTS).trim() || `Valid keys: ${TYPES_DEF_LISTS.join(", ")}.`}`,
      );
    }
    if (!Array.isArray(list)) throw payloadError(path, expected, `${key} that is ${describeJson(list)}`);
    list.forEach((def, i) => {
      const where = `${key}[${i}]`;
      if (!isPlainObject(def) || typeof def.name !== "string" || def.name.trim() === "") {
        throw payloadError(path, "every definition to have a name", `${where} without one`);
      }
      if (forDelete || def.attributeDefs === undefined) return;
      if (!Array.isArray(def.attributeDefs)) {
        throw payloadError(
          path,
          "attributeDefs to be an array",
          `${where}.attributeDefs that is ${describeJson(def.attributeDefs)}`,
        );
      }
      def.attributeDefs.forEach((attribute, j) => {
        if (
          !isPlainObject(attribute) || typeof attribute.name !== "string" ||
          typeof attribute.typeName !== "string"
        ) {
          throw payloadError(
            path,
            "every attribute definition to have a name and a typeName",
            `${where}.attributeDefs[${j}] without them`,
          );
        }
      });
    });
    count += list.length;
  }
  if (count === 0) throw payloadError(path, expected, "no definitions");
  return value as AtlasTypesDef;
}

export const readBusinessMetadataDef = defineOperation({
  id: "types.read-business-metadata-def",
  group: "types",
  command: "readBusinessMetadataDef",
  summary: "Read a business metadata definition by GUID or by name",
  input: z.object({ guid: typeDefGuid.optional(), name: typeDefName.optional() }),
  annotations: READ,
  run: async (ctx, input) => {
    const ref = nameOrGuid("readBusinessMetadataDef", input);
    return await ctx.catalog().types.get("businessmetadata", ref, ctx.signal);
  },
});

export const createTypeDefs = defineOperation({
  id: "types.create-type-defs",
  group: "types",
  command: "createTypeDefs",
  summary: "Create type definitions from a payload file",
  description: "Business metadata groups, classifications, entity types, enums, relationships and " +
    'structs. "govcat types business-metadata-template --name=governance" prints a ready payload.',
  input: z.object({ payloadFile }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const defs = await readTypesDef(ctx, input.payloadFile);
    return ctx.catalog().types.create(defs, ctx.signal);
  },
});

export const updateTypeDefs = defineOperation({
  id: "types.update-type-defs",
  group: "types",
  command: "updateTypeDefs",
  summary: "Update existing type definitions from a payload file",
  input: z.object({ payloadFile }),
  // Each definition is replaced by the one in the file.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const defs = await readTypesDef(ctx, input.payloadFile);
    return ctx.catalog().types.update(defs, ctx.signal);
  },
});

export const deleteTypeDefs = defineOperation({
  id: "types.delete-type-defs",
  group: "types",
  command: "deleteTypeDefs",
  summary: "Delete the type definitions named in a payload file",
  input: z.object({ payloadFile }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const defs = await readTypesDef(ctx, input.payloadFile, true);
    await ctx.catalog().types.deleteMany(defs, ctx.signal);
    const deleted = TYPES_DEF_LISTS.flatMap((key) => (defs[key] ?? []).map((def) => def.name));
    return { deleted };
  },
});

export const deleteTypeDef = defineOperation({
  id: "types.delete",
  group: "types",
  command: "delete",
  aliases: ["delete-type-def"],
  summary: "Delete one type definition by name",
  input: z.object({ name: typeDefName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().types.delete(input.name, ctx.signal);
    return { deleted: [input.name] };
  },
});

const listInput = {
  type: z.enum(TYPE_CATEGORIES as [string, ...string[]]).optional().describe("Only this category"),
  includeTermTemplate: z.boolean().optional().describe("Include term templates"),
};

export const listTypeDefs = defineOperation({
  id: "types.list",
  group: "types",
  command: "list",
  aliases: ["list-type-defs", "listTypeDefs"],
  summary: "List type definitions, optionally of one category",
  input: z.object(listInput),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().types.list({
      type: input.type as (typeof TYPE_CATEGORIES)[number] | undefined,
      includeTermTemplate: input.includeTermTemplate,
      signal: ctx.signal,
    }),
});

export const listTypeDefHeaders = defineOperation({
  id: "types.list-headers",
  group: "types",
  command: "list-headers",
  aliases: ["listHeaders", "list-type-def-headers"],
  summary: "List the name, GUID and category of every type definition",
  input: z.object(listInput),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().types.listHeaders({
      type: input.type as (typeof TYPE_CATEGORIES)[number] | undefined,
      includeTermTemplate: input.includeTermTemplate,
      signal: ctx.signal,
    }),
});

export const getTypeDef = defineOperation({
  id: "types.get",
  group: "types",
  command: "get",
  aliases: ["read"],
  summary: "Get a type definition of a category by name or GUID",
  input: z.object({
    category: z.enum(TYPEDEF_CATEGORIES as [string, ...string[]]).describe("Kind of definition"),
    name: typeDefName.optional(),
    guid: typeDefGuid.optional(),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const ref = nameOrGuid("get", input);
    return await ctx.catalog().types.get(
      input.category as (typeof TYPEDEF_CATEGORIES)[number],
      ref,
      ctx.signal,
    );
  },
});

export const getAnyTypeDef = defineOperation({
  id: "types.get-any",
  group: "types",
  command: "get-any",
  aliases: ["getAny"],
  summary: "Get a type definition of any category by name or GUID",
  input: z.object({ name: typeDefName.optional(), guid: typeDefGuid.optional() }),
  annotations: READ,
  run: async (ctx, input) => {
    const ref = nameOrGuid("get-any", input);
    return await ctx.catalog().types.getAny(ref, ctx.signal);
  },
});

export const listBusinessMetadataTemplates = defineOperation({
  id: "types.business-metadata-templates",
  group: "types",
  command: "business-metadata-templates",
  aliases: ["businessMetadataTemplates"],
  summary: "List the shipped business metadata attribute sets",
  input: z.object({}),
  annotations: LOCAL,
  run: () =>
    Promise.resolve(
      businessMetadataTemplates().map((template) => ({
        name: template.name,
        summary: template.summary,
        groups: (template.payload.businessMetadataDefs ?? []).map((def) => ({
          name: def.name,
          attributes: (def.attributeDefs ?? []).map((a) => `${a.name}: ${a.typeName}`),
        })),
      })),
    ),
});

export const getBusinessMetadataTemplatePayload = defineOperation({
  id: "types.business-metadata-template",
  group: "types",
  command: "business-metadata-template",
  aliases: ["businessMetadataTemplate"],
  summary: "Print a shipped business metadata attribute set as a createTypeDefs payload",
  description: `Sets: ${BUSINESS_METADATA_TEMPLATE_NAMES.join(", ")}. Save the output to a file and pass ` +
    "it to createTypeDefs --payload-file.",
  input: z.object({
    name: z.string().min(1).describe(`One of ${BUSINESS_METADATA_TEMPLATE_NAMES.join(", ")}`),
  }),
  annotations: LOCAL,
  run: (_ctx, input) => {
    const payload = businessMetadataTemplate(input.name);
    if (!payload) {
      return Promise.reject(
        new UsageError(
          `unknown business metadata template "${input.name}".${
            didYouMean(input.name, BUSINESS_METADATA_TEMPLATE_NAMES)
          }`,
          `Templates: ${BUSINESS_METADATA_TEMPLATE_NAMES.join(", ")}.`,
        ),
      );
    }
    return Promise.resolve(payload);
  },
});

export const TYPES_OPERATIONS = [
  readBusinessMetadataDef,
  createTypeDefs,
  updateTypeDefs,
  deleteTypeDefs,
  deleteTypeDef,
  listTypeDefs,
  listTypeDefHeaders,
  getTypeDef,
  getAnyTypeDef,
  listBusinessMetadataTemplates,
  getBusinessMetadataTemplatePayload,
];
