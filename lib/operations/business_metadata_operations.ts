/**
 * Business metadata operations of the entity group: bulk import from CSV (in
 * `business_metadata_import.ts`) and its template,
 * add, update and remove whole groups (`addOrUpdateBusinessMetadata`, `deleteBusinessMetadata`) or
 * attributes of one group (`addOrUpdateBusinessAttribute`, `deleteBusinessAttribute`,
 * `add-business-metadata`). The delete commands without a payload file read the entity first and remove
 * everything it carries (of the group).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { BUSINESS_METADATA_IMPORT_COLUMNS } from "../imports/business_metadata_csv.ts";
import { importBusinessMetadata } from "./business_metadata_import_operations.ts";
import { guid } from "./entity_operations.ts";
import {
  asBusinessMetadata,
  asObject,
  describeJson,
  isPlainObject,
  parseJsonValue,
  payloadError,
  readJsonFile,
} from "./payload_files.ts";
import { defineOperation, DELETE, type OperationContext, READ, UPSERT } from "./types.ts";

const bmName = z.string().min(1).describe("Business metadata group name, e.g. Governance");

export { BUSINESS_METADATA_IMPORT_COLUMNS, importBusinessMetadata };

export const getBusinessMetadataTemplate = defineOperation({
  id: "entity.get-business-metadata-template",
  group: "entity",
  command: "getBusinessMetadataTemplate",
  summary: "Get the CSV header the business metadata import expects",
  input: z.object({}),
  annotations: READ,
  run: async (ctx) => {
    const csv = await ctx.catalog().entity.getBusinessMetadataTemplate(ctx.signal);
    const header = csv.split(/\r?\n/)[0] ?? "";
    return { columns: header.split(",").map((c) => c.trim()).filter(Boolean), csv };
  },
});

export const addOrUpdateBusinessMetadata = defineOperation({
  id: "entity.add-or-update-business-metadata",
  group: "entity",
  command: "addOrUpdateBusinessMetadata",
  summary: "Add or update business metadata groups on an entity",
  description: 'The payload file maps group names to attributes: {"Governance": {"dataOwner": "sales"}}. ' +
    "With --isOverwrite the entity's business metadata is replaced by the payload.",
  input: z.object({
    guid,
    payloadFile: z.string().min(1).describe("JSON file: {bmName: {attribute: value}}"),
    isOverwrite: z.boolean().optional().describe("Replace all business metadata instead of merging"),
  }),
  // With --isOverwrite groups missing from the payload are lost.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const bm = asBusinessMetadata(
      await readJsonFile(ctx, input.payloadFile, "--payloadFile"),
      input.payloadFile,
    );
    await ctx.catalog().entity.addOrUpdateBusinessMetadata(input.guid, bm, {
      isOverwrite: input.isOverwrite,
      signal: ctx.signal,
    });
    return { guid: input.guid, businessMetadata: bm, overwritten: input.isOverwrite === true };
  },
});

/** The entity's business metadata, read for the delete commands given no payload. */
async function businessMetadataOf(
  ctx: OperationContext,
  entityGuid: string,
): Promise<Record<string, Record<string, unknown>>> {
  const found = await ctx.catalog().entity.get(entityGuid, {
    minExtInfo: true,
    ignoreRelationships: true,
    signal: ctx.signal,
  });
  const bm = found.entity?.businessAttributes;
  if (!isPlainObject(bm)) return {};
  return Object.fromEntries(Object.entries(bm).filter(([, attributes]) => isPlainObject(attributes)));
}

export const deleteBusinessMetadata = defineOperation({
  id: "entity.delete-business-metadata",
  group: "entity",
  command: "deleteBusinessMetadata",
  summary:
    "Remove business metadata from an entity: one group with --bm-name, or all of it without a payload file",
  input: z.object({
    guid,
    payloadFile: z.string().min(1).optional().describe(
      "JSON file: {bmName: {attribute: value}} naming what to remove; without it everything is removed",
    ),
    bmName: bmName.optional().describe("Remove only this group, with all its values (no payload file)"),
  }),
  annotations: DELETE,
  run: async (ctx, input) => {
    if (input.payloadFile && input.bmName) {
      throw new UsageError(
        "entity deleteBusinessMetadata takes --payloadFile or --bmName, not both; nothing was removed.",
      );
    }
    const bm = input.payloadFile
      ? asBusinessMetadata(await readJsonFile(ctx, input.payloadFile, "--payloadFile"), input.payloadFile)
      : await businessMetadataOf(ctx, input.guid);
    if (input.bmName) {
      const values = bm[input.bmName];
      if (!values || Object.keys(values).length === 0) {
        const carried = Object.keys(bm);
        throw new UsageError(
          `Asset ${input.guid} carries no business metadata group "${input.bmName}"; nothing was removed.`,
          carried.length ? `It carries: ${carried.join(", ")}.` : "It carries no business metadata.",
        );
      }
      await ctx.catalog().entity.removeBusinessMetadata(input.guid, { [input.bmName]: values }, ctx.signal);
      return { guid: input.guid, removed: { [input.bmName]: values } };
    }
    if (Object.keys(bm).length > 0) {
      await ctx.catalog().entity.removeBusinessMetadata(input.guid, bm, ctx.signal);
    }
    return { guid: input.guid, removed: bm };
  },
});

export const addOrUpdateBusinessAttribute = defineOperation({
  id: "entity.add-or-update-business-attribute",
  group: "entity",
  command: "addOrUpdateBusinessAttribute",
  summary: "Add or update attributes of one business metadata group on an entity",
  input: z.object({
    guid,
    payloadFile: z.string().min(1).describe('JSON file: {attribute: value}, e.g. {"dataOwner": "sales"}'),
    bmName,
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const attributes = attributesPayload(
      await readJsonFile(ctx, input.payloadFile, "--payloadFile"),
      input.payloadFile,
    );
    await ctx.catalog().entity.addOrUpdateBusinessMetadataAttributes(
      input.guid,
      input.bmName,
      attributes,
      ctx.signal,
    );
    return { guid: input.guid, bmName: input.bmName, attributes };
  },
});

function attributesPayload(value: unknown, path: string): Record<string, unknown> {
  const attributes = asObject(value, path, 'attributes of one group as {"<attribute>": <value>, …}');
  if (Object.keys(attributes).length === 0) {
    throw payloadError(path, 'attributes of one group as {"<attribute>": <value>, …}', "an empty object");
  }
  return attributes;
}

export const deleteBusinessAttribute = defineOperation({
  id: "entity.delete-business-attribute",
  group: "entity",
  command: "deleteBusinessAttribute",
  summary: "Remove attributes of one business metadata group from an entity, or the whole group",
  input: z.object({
    guid,
    bmName,
    payloadFile: z.string().min(1).optional().describe(
      'JSON file naming the attributes to remove: {"<attribute>": …} or ["<attribute>", …]; ' +
        "without it every attribute of the group is removed",
    ),
  }),
  annotations: DELETE,
  run: async (ctx, input) => {
    let attributes: Record<string, unknown>;
    if (input.payloadFile) {
      const value = await readJsonFile(ctx, input.payloadFile, "--payloadFile");
      attributes = Array.isArray(value) ? namesAsAttributes(value, input.payloadFile) : attributesPayload(
        value,
        input.payloadFile,
      );
    } else {
      attributes = (await businessMetadataOf(ctx, input.guid))[input.bmName] ?? {};
    }
    if (Object.keys(attributes).length > 0) {
      await ctx.catalog().entity.removeBusinessMetadataAttributes(
        input.guid,
        input.bmName,
        attributes,
        ctx.signal,
      );
    }
    return { guid: input.guid, bmName: input.bmName, removed: Object.keys(attributes) };
  },
});

function namesAsAttributes(names: unknown[], path: string): Record<string, unknown> {
  const expected = 'attribute names as ["<attribute>", …] or {"<attribute>": <value>, …}';
  if (names.length === 0) throw payloadError(path, expected, "an empty array");
  const attributes: Record<string, unknown> = {};
  names.forEach((name, i) => {
    if (typeof name !== "string" || name.trim() === "") {
      throw payloadError(path, expected, `${describeJson(name)} at index ${i}`);
    }
    attributes[name] = null;
  });
  return attributes;
}

export const addBusinessMetadata = defineOperation({
  id: "entity.add-business-metadata",
  group: "entity",
  command: "add-business-metadata",
  aliases: ["addBusinessMetadata"],
  summary: "Set one business metadata attribute on an entity",
  description: 'The value is read as JSON when it is valid JSON (42, true, ["a"]), else kept as text.',
  input: z.object({
    guid,
    bmName,
    attrName: z.string().min(1).describe("Attribute of the group, e.g. dataOwner"),
    attrValue: z.string().describe("Value; JSON when it parses as JSON, else text"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const attributes = { [input.attrName]: parseJsonValue(input.attrValue) };
    await ctx.catalog().entity.addOrUpdateBusinessMetadataAttributes(
      input.guid,
      input.bmName,
      attributes,
      ctx.signal,
    );
    return { guid: input.guid, bmName: input.bmName, attributes };
  },
});

export const BUSINESS_METADATA_OPERATIONS = [
  importBusinessMetadata,
  getBusinessMetadataTemplate,
  addOrUpdateBusinessMetadata,
  deleteBusinessMetadata,
  addOrUpdateBusinessAttribute,
  deleteBusinessAttribute,
  addBusinessMetadata,
];
