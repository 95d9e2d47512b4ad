/**
 * Label operations of the entity group (spec §4.6): `addLabels`, `setLabels`, `deleteLabels` by GUID and
 * their `…ByUniqueAttribute` forms. Payload files hold a JSON array of label strings; the delete commands
 * without one remove every label the entity carries.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { AtlasEntityWithExtInfo } from "../catalog/types.ts";
import { guid, qualifiedName, typeName } from "./entity_operations.ts";
import { asStringArray, readJsonFile } from "./payload_files.ts";
import { defineOperation, DELETE, type OperationContext, UPSERT } from "./types.ts";

const labelsFile = z.string().min(1).describe(
  'JSON file holding an array of labels, e.g. ["finance","gold"]',
);
const optionalLabelsFile = z.string().min(1).optional().describe(
  "JSON file holding an array of labels to remove; without it every label is removed",
);
/** Overwriting labels loses the ones not in the new list. */
const OVERWRITE = { ...UPSERT, destructive: true };

async function readLabels(ctx: OperationContext, path: string): Promise<string[]> {
  return asStringArray(await readJsonFile(ctx, path, "--payloadFile"), path);
}

function labelsOf(found: AtlasEntityWithExtInfo): string[] {
  return Array.isArray(found.entity?.labels) ? found.entity.labels : [];
}

export const addLabels = defineOperation({
  id: "entity.add-labels",
  group: "entity",
  command: "addLabels",
  summary: "Append labels to an entity",
  input: z.object({ guid, payloadFile: labelsFile }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const labels = await readLabels(ctx, input.payloadFile);
    await ctx.catalog().entity.addLabels(input.guid, labels, ctx.signal);
    return { guid: input.guid, added: labels };
  },
});

export const setLabels = defineOperation({
  id: "entity.set-labels",
  group: "entity",
  command: "setLabels",
  summary: "Replace all labels of an entity with the given ones",
  description: "An empty array ([]) removes every label.",
  input: z.object({ guid, payloadFile: labelsFile }),
  annotations: OVERWRITE,
  run: async (ctx, input) => {
    const labels = await readLabels(ctx, input.payloadFile);
    await ctx.catalog().entity.setLabels(input.guid, labels, ctx.signal);
    return { guid: input.guid, labels };
  },
});

export const deleteLabels = defineOperation({
  id: "entity.delete-labels",
  group: "entity",
  command: "deleteLabels",
  summary: "Remove labels from an entity, or all of them without a payload file",
  input: z.object({ guid, payloadFile: optionalLabelsFile }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const labels = input.payloadFile ? await readLabels(ctx, input.payloadFile) : labelsOf(
      await ctx.catalog().entity.get(input.guid, {
        minExtInfo: true,
        ignoreRelationships: true,
        signal: ctx.signal,
      }),
    );
    if (labels.length > 0) await ctx.catalog().entity.removeLabels(input.guid, labels, ctx.signal);
    return { guid: input.guid, removed: labels };
  },
});

const byUnique = { typeName, qualifiedName };

export const addLabelsByUniqueAttribute = defineOperation({
  id: "entity.add-labels-by-unique-attribute",
  group: "entity",
  command: "addLabelsByUniqueAttribute",
  summary: "Append labels to the entity found by type name and qualified name",
  input: z.object({ ...byUnique, payloadFile: labelsFile }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const labels = await readLabels(ctx, input.payloadFile);
    await ctx.catalog().entity.addLabelsByUniqueAttribute(
      input.typeName,
      input.qualifiedName,
      labels,
      ctx.signal,
    );
    return { typeName: input.typeName, qualifiedName: input.qualifiedName, added: labels };
  },
});

export const setLabelsByUniqueAttribute = defineOperation({
  id: "entity.set-labels-by-unique-attribute",
  group: "entity",
  command: "setLabelsByUniqueAttribute",
  summary: "Replace all labels of the entity found by type name and qualified name",
  description: "An empty array ([]) removes every label.",
  input: z.object({ ...byUnique, payloadFile: labelsFile }),
  annotations: OVERWRITE,
  run: async (ctx, input) => {
    const labels = await readLabels(ctx, input.payloadFile);
    await ctx.catalog().entity.setLabelsByUniqueAttribute(
      input.typeName,
      input.qualifiedName,
      labels,
      ctx.signal,
    );
    return { typeName: input.typeName, qualifiedName: input.qualifiedName, labels };
  },
});

export const deleteLabelsByUniqueAttribute = defineOperation({
  id: "entity.delete-labels-by-unique-attribute",
  group: "entity",
  command: "deleteLabelsByUniqueAttribute",
  summary: "Remove labels from the entity found by type name and qualified name, or all of them",
  input: z.object({ ...byUnique, payloadFile: optionalLabelsFile }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const labels = input.payloadFile ? await readLabels(ctx, input.payloadFile) : labelsOf(
      await ctx.catalog().entity.getByUniqueAttribute(input.typeName, input.qualifiedName, {
        minExtInfo: true,
        ignoreRelationships: true,
        signal: ctx.signal,
      }),
    );
    if (labels.length > 0) {
      await ctx.catalog().entity.removeLabelsByUniqueAttribute(
        input.typeName,
        input.qualifiedName,
        labels,
        ctx.signal,
      );
    }
    return { typeName: input.typeName, qualifiedName: input.qualifiedName, removed: labels };
  },
});

export const LABEL_OPERATIONS = [
  addLabels,
  setLabels,
  deleteLabels,
  addLabelsByUniqueAttribute,
  setLabelsByUniqueAttribute,
  deleteLabelsByUniqueAttribute,
];
