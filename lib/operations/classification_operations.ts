/**
 * Classification operations of the entity group: list, get, add, update and remove the classifications
 * of an entity, by GUID or by type name and qualified name, add one classification to many entities, and
 * set the classifications of many entities at once. Classifications come from `--classification NAME`
 * (repeatable where several make sense) or from a JSON `--payloadFile`.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { AtlasClassification, AtlasEntityHeader } from "../catalog/atlas_model.ts";
import { UsageError } from "../core/errors.ts";
import type { ClassificationCall } from "../catalog/entity_metadata_calls.ts";
import { guid } from "./entity_operations.ts";
import { ENTITY_TARGETS, type EntityTarget } from "./entity_targets.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationAnnotations,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";
import { guidListField } from "./guid_fields.ts";

const classificationName = z.string().min(1).describe("Classification name, e.g. MICROSOFT.PERSONAL.EMAIL");
const classificationInput = {
  classification: z.array(z.string().min(1)).optional().describe(
    "Classification name, e.g. MICROSOFT.PERSONAL.EMAIL",
  ),
  payloadFile: z.string().min(1).optional().describe(
    'JSON file: an array of classifications, e.g. [{"typeName": "…", "attributes": {…}}]',
  ),
};

const LIST_EXPECTED = 'classifications as [{"typeName": "<name>", "attributes": {…}}, …] or ["<name>", …]';

/** One classification from a payload: an object with a `typeName`, or a bare name. */
function asClassification(value: unknown, path: string, where: string): AtlasClassification {
  if (typeof value === "string" && value.trim() !== "") return { typeName: value };
  if (isPlainObject(value) && typeof value.typeName === "string" && value.typeName.trim() !== "") {
    if (value.attributes !== undefined && !isPlainObject(value.attributes)) {
      throw payloadError(
        path,
        LIST_EXPECTED,
        `attributes that are ${describeJson(value.attributes)}${where}`,
      );
    }
    return value as AtlasClassification;
  }
  throw payloadError(path, LIST_EXPECTED, `${describeJson(value)}${where} without a typeName`);
}

/** The classifications of a command: from `--classification` names or from the payload file. */
async function classificationsFrom(
  ctx: OperationContext,
  input: { classification?: string[]; payloadFile?: string },
  command: string,
): Promise<AtlasClassification[]> {
  if (input.classification?.length && input.payloadFile) {
    throw new UsageError(`entity ${command}: give --classification or --payloadFile, not both.`);
  }
  if (input.payloadFile) {
    const path = input.payloadFile;
    const value = await readJsonFile(ctx, path, "--payloadFile");
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) throw payloadError(path, LIST_EXPECTED, "an empty array");
    return list.map((item, i) => asClassification(item, path, Array.isArray(value) ? ` at index ${i}` : ""));
  }
  if (input.classification?.length) return input.classification.map((name) => ({ typeName: name }));
  throw new UsageError(
    `entity ${command} needs --classification=<name> or --payloadFile.`,
    "E.g. --classification=MICROSOFT.PERSONAL.EMAIL.",
  );
}

export const listClassifications = defineOperation({
  id: "entity.list-classifications",
  group: "entity",
  command: "list-classifications",
  aliases: ["classifications", "getClassifications"],
  summary: "List the classifications of an entity",
  input: z.object({ guid }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().entity.getClassifications(input.guid, ctx.signal),
});

export const getClassification = defineOperation({
  id: "entity.get-classification",
  group: "entity",
  command: "get-classification",
  aliases: ["getClassification"],
  summary: "Get one classification of an entity, with its attributes",
  input: z.object({ guid, classification: classificationName }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().entity.getClassification(input.guid, input.classification, ctx.signal),
});

/** One classification command: the call it makes, and how it is named and described per way of naming the entity. */
interface ClassificationCommand {
  call: ClassificationCall;
  /** The command (`add-classifications`) and id stem (`entity.add-classifications`). */
  stem: string;
  aliases: Record<EntityTarget["kind"], string[]>;
  summary: Record<EntityTarget["kind"], string>;
  description?: Partial<Record<EntityTarget["kind"], string>>;
  annotations: OperationAnnotations;
  /** The result's key for the classification names. */
  resultKey: "added" | "updated" | "removed";
}

const CLASSIFICATION_COMMANDS: readonly ClassificationCommand[] = [
  {
    call: "add",
    stem: "add-classifications",
    aliases: {
      guid: ["addClassifications", "add-classification"],
      unique: ["addClassificationsByUniqueAttribute"],
    },
    summary: {
      guid: "Add classifications to an entity",
      unique: "Add classifications to the entity found by type name and qualified name",
    },
    description: {
      guid: "The service refuses a classification the entity carries already; update-classifications " +
        "changes its attributes.",
    },
    annotations: CREATE,
    resultKey: "added",
  },
  {
    call: "update",
    stem: "update-classifications",
    aliases: { guid: ["updateClassifications"], unique: ["updateClassificationsByUniqueAttribute"] },
    summary: {
      guid: "Update the attributes of classifications an entity carries",
      unique: "Update classifications of the entity found by type name and qualified name",
    },
    annotations: UPSERT,
    resultKey: "updated",
  },
  {
    call: "remove",
    stem: "remove-classification",
    aliases: {
      guid: ["removeClassification", "delete-classification"],
      unique: ["removeClassificationByUniqueAttribute", "delete-classification-by-unique-attribute"],
    },
    summary: {
      guid: "Remove a classification from an entity",
      unique: "Remove a classification from the entity found by type name and qualified name",
    },
    annotations: DELETE,
    resultKey: "removed",
  },
];

function classificationOperation(command: ClassificationCommand, target: EntityTarget): Operation {
  const name = `${command.stem}${target.idSuffix}`;
  const description = command.description?.[target.kind];
  const removing = command.call === "remove";
  return defineOperation({
    id: `entity.${name}`,
    group: "entity",
    command: name,
    aliases: command.aliases[target.kind],
    summary: command.summary[target.kind],
    ...(description ? { description } : {}),
    input: z.object({
      ...target.fields,
      ...(removing ? { classification: classificationName } : classificationInput),
    }),
    annotations: command.annotations,
    run: async (ctx, given) => {
      // The input's shape depends on the row (a name to remove, or classifications to send).
      const input = given as Record<string, unknown> & {
        classification?: string | string[];
        payloadFile?: string;
      };
      const ref = target.ref(input);
      const entity = ctx.catalog().entity;
      if (command.call === "remove") {
        const classification = String(input.classification);
        await entity.removeClassification(ref, classification, ctx.signal);
        return { ...target.echo(input), removed: classification };
      }
      const list = await classificationsFrom(
        ctx,
        { classification: input.classification as string[] | undefined, payloadFile: input.payloadFile },
        name,
      );
      await entity.classify(command.call, ref, list, ctx.signal);
      return { ...target.echo(input), [command.resultKey]: list.map((c) => c.typeName) };
    },
  });
}

export const addClassificationToEntities = defineOperation({
  id: "entity.add-classification-to-entities",
  group: "entity",
  command: "add-classification-to-entities",
  aliases: ["addClassificationToEntities"],
  summary: "Add one classification to many entities",
  input: z.object({
    guid: guidListField("GUID of an entity").min(1),
    classification: classificationName.optional(),
    payloadFile: z.string().min(1).optional().describe(
      'JSON file holding one classification, e.g. {"typeName": "…", "attributes": {…}}',
    ),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const list = await classificationsFrom(
      ctx,
      {
        classification: input.classification ? [input.classification] : undefined,
        payloadFile: input.payloadFile,
      },
      "add-classification-to-entities",
    );
    if (list.length !== 1) {
      throw payloadError(input.payloadFile!, "one classification", `${list.length} classifications`);
    }
    await ctx.catalog().entity.addClassificationToEntities(list[0], input.guid, ctx.signal);
    return { classification: list[0].typeName, entityGuids: input.guid };
  },
});

export const setClassifications = defineOperation({
  id: "entity.set-classifications",
  group: "entity",
  command: "set-classifications",
  aliases: ["setClassifications"],
  summary: "Set the classifications of many entities at once",
  description: "The payload file maps entity GUIDs to headers listing their classifications: " +
    '{"guidHeaderMap": {"<guid>": {"typeName": "…", "classifications": [{"typeName": "…"}]}}} (the ' +
    "guidHeaderMap wrapper may be left out).",
  input: z.object({
    payloadFile: z.string().min(1).describe("JSON file: {guidHeaderMap: {guid: entity header}}"),
  }),
  // Classifications missing from a header are taken off its entity.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const path = input.payloadFile;
    const value = await readJsonFile(ctx, path, "--payloadFile");
    const expected = '{"guidHeaderMap": {"<guid>": {"typeName": …, "classifications": [{"typeName": …}]}}}';
    const map = isPlainObject(value) && isPlainObject(value.guidHeaderMap) ? value.guidHeaderMap : value;
    if (!isPlainObject(map)) throw payloadError(path, expected, describeJson(value));
    if (Object.keys(map).length === 0) throw payloadError(path, expected, "no entities");
    const headers: Record<string, AtlasEntityHeader> = {};
    for (const [key, header] of Object.entries(map)) {
      if (!isPlainObject(header) || !Array.isArray(header.classifications)) {
        throw payloadError(
          path,
          expected,
          `${describeJson(header)} without a classifications array for ${key}`,
        );
      }
      const classifications = header.classifications.map((c, i) =>
        asClassification(c, path, ` at ${key}.classifications[${i}]`)
      );
      headers[key] = { ...header, classifications };
    }
    return { results: await ctx.catalog().entity.setClassifications(headers, ctx.signal) };
  },
});

export const CLASSIFICATION_OPERATIONS: Operation[] = [
  listClassifications,
  getClassification,
  ...ENTITY_TARGETS.flatMap((target) =>
    CLASSIFICATION_COMMANDS.map((command) => classificationOperation(command, target))
  ),
  addClassificationToEntities,
  setClassifications,
];
