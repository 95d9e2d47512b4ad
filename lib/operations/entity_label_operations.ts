/**
 * Label operations of the entity group: `addLabels`, `setLabels`, `deleteLabels` by GUID and
 * their `…ByUniqueAttribute` forms, built from the label calls the client sends
 * (`LABEL_CALLS` in `lib/catalog/entity_metadata_calls.ts`): one row per call, one operation per row and way
 * of naming the entity. Payload files hold a JSON array of label strings; the delete commands without one
 * remove every label the entity carries.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { LabelCall } from "../catalog/entity_metadata_calls.ts";
import type { AtlasEntityWithExtInfo } from "../catalog/atlas_model.ts";
import { asStringArray, readJsonFile } from "./payload_files.ts";
import { ENTITY_TARGETS, type EntityTarget } from "./entity_targets.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, UPSERT } from "./types.ts";

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

/** One label command: the call it makes and how it is named and described, per way of naming the entity. */
interface LabelCommand {
  call: LabelCall;
  /** The id's and command's stem: `entity.<stem>` / `<verb>Labels`. */
  stem: string;
  verb: string;
  summary: Record<EntityTarget["kind"], string>;
  description?: string;
  annotations: typeof UPSERT;
  /** The result's key for the labels sent. */
  resultKey: "added" | "labels" | "removed";
}

const LABEL_COMMANDS: readonly LabelCommand[] = [
  {
    call: "add",
    stem: "add-labels",
    verb: "add",
    summary: {
      guid: "Append labels to an entity",
      unique: "Append labels to the entity found by type name and qualified name",
    },
    annotations: UPSERT,
    resultKey: "added",
  },
  {
    call: "set",
    stem: "set-labels",
    verb: "set",
    summary: {
      guid: "Replace all labels of an entity with the given ones",
      unique: "Replace all labels of the entity found by type name and qualified name",
    },
    description: "An empty array ([]) removes every label.",
    annotations: OVERWRITE,
    resultKey: "labels",
  },
  {
    call: "remove",
    stem: "delete-labels",
    verb: "delete",
    summary: {
      guid: "Remove labels from an entity, or all of them without a payload file",
      unique: "Remove labels from the entity found by type name and qualified name, or all of them",
    },
    annotations: DELETE,
    resultKey: "removed",
  },
];

function labelOperation(command: LabelCommand, target: EntityTarget): Operation {
  const removing = command.call === "remove";
  return defineOperation({
    id: `entity.${command.stem}${target.idSuffix}`,
    group: "entity",
    command: `${command.verb}Labels${target.commandSuffix}`,
    summary: command.summary[target.kind],
    ...(command.description ? { description: command.description } : {}),
    input: z.object({ ...target.fields, payloadFile: removing ? optionalLabelsFile : labelsFile }),
    annotations: command.annotations,
    run: async (ctx, input) => {
      const ref = target.ref(input);
      const file = input.payloadFile as string | undefined;
      // Without a payload file, a delete removes every label the entity carries now.
      const labels = file ? await readLabels(ctx, file) : labelsOf(
        await target.read(ctx, ref, { minExtInfo: true, ignoreRelationships: true, signal: ctx.signal }),
      );
      if (!removing || labels.length > 0) {
        await ctx.catalog().entity.label(command.call, ref, labels, ctx.signal);
      }
      return { ...target.echo(input), [command.resultKey]: labels };
    },
  });
}

export const LABEL_OPERATIONS: Operation[] = ENTITY_TARGETS.flatMap((target) =>
  LABEL_COMMANDS.map((command) => labelOperation(command, target))
);
