/**
 * Operations of the `collections` group: create, delete, get, list, CSV import and export,
 * plus the path of a collection from the root and the names of its children. Collections are addressed by
 * their name (unique in the account), not their friendly name.
 *
 * @module
 */
import type { Collection } from "../catalog/collections_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { exportCollections } from "../imports/collections_export.ts";
import { importCollectionsOperation } from "./collections_import_operations.ts";
import {
  CLI_COLLECTION_HINTS,
  collectionNameProblem,
  getCollectionIfExists,
  upsertCollection,
  withCollectionHints,
} from "../catalog/collections_support.ts";
import { confirmOverwrite, ifExistsField, overwriteConfirmField, overwriteHint } from "./if_exists.ts";
import { describeJson, isPlainObject, readJsonFile } from "./payload_files.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

const collectionName = z.string().min(1).describe("Name of the collection (not its friendly name)");

const createInput = z.object({
  collectionName,
  friendlyName: z.string().min(1).optional().describe("Name people see; defaults to the collection name"),
  description: z.string().optional().describe("What the collection holds"),
  parentCollection: z.string().min(1).optional().describe(
    "Name of the parent collection; a new collection goes under the root when left out",
  ),
  payloadFile: z.string().optional().describe(
    'JSON file with {"friendlyName", "description", "parentCollection": {"referenceName"}}; options win',
  ),
  ifExists: ifExistsField,
  confirm: overwriteConfirmField,
});

export const createCollection = defineOperation({
  id: "collections.create",
  group: "collections",
  command: "create",
  aliases: ["create-or-update", "createOrUpdate"],
  summary: "Create a collection; with --if-exists=update, update the one with this name",
  description: "A new collection goes under --parent-collection, or under the root collection (named " +
    "after the account) when it is left out. When the collection exists, nothing is changed and the " +
    "command fails, unless --if-exists=update (confirmed: --confirm where nobody can be asked): then only " +
    "the options given change, and --parent-collection moves it. Names have 3 to 36 letters, digits or " +
    "hyphens.",
  input: createInput,
  annotations: UPSERT,
  run: async (ctx, input) => {
    const problem = collectionNameProblem(input.collectionName);
    if (problem) {
      throw new UsageError(`--collection-name "${input.collectionName}" is not a valid name: ${problem}.`);
    }
    const fromFile = input.payloadFile ? await readCollectionPayload(ctx, input) : {};
    const fields = {
      friendlyName: input.friendlyName ?? fromFile.friendlyName,
      description: input.description ?? fromFile.description,
      parentCollection: input.parentCollection ?? fromFile.parentCollection,
    };
    if (input.ifExists === "update") {
      await confirmOverwrite(
        ctx,
        `collections create --if-exists=update ${input.collectionName}`,
        input.confirm,
      );
    } else {
      const current = await getCollectionIfExists(ctx.catalog(), input.collectionName, ctx.signal);
      if (current) {
        const parent = current.parentCollection?.referenceName;
        throw new UsageError(
          `collection ${input.collectionName} exists already${parent ? ` (under ${parent})` : ""}; nothing ` +
            "was changed.",
          `Choose another name; or, to change or move it, ${overwriteHint(ctx)}.`,
        );
      }
    }
    const { collection } = await withCollectionHints(
      CLI_COLLECTION_HINTS,
      () =>
        upsertCollection(ctx.catalog(), input.collectionName, fields, {
          accountName: ctx.config().accountName,
          signal: ctx.signal,
        }),
    );
    return collection;
  },
});

export const deleteCollection = defineOperation({
  id: "collections.delete",
  group: "collections",
  command: "delete",
  summary: "Delete a collection; refused while it has child collections or assets",
  input: z.object({ collectionName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await withCollectionHints(
      CLI_COLLECTION_HINTS,
      () => ctx.catalog().collections.delete(input.collectionName, ctx.signal),
    );
    return { collectionName: input.collectionName, deleted: true };
  },
});

export const getCollection = defineOperation({
  id: "collections.get",
  group: "collections",
  command: "get",
  aliases: ["read"],
  summary: "Get a collection: friendly name, description, parent, provisioning state",
  input: z.object({ collectionName }),
  annotations: READ,
  run: (ctx, input) =>
    withCollectionHints(
      CLI_COLLECTION_HINTS,
      () => ctx.catalog().collections.get(input.collectionName, ctx.signal),
    ),
});

export const listCollections = defineOperation({
  id: "collections.list",
  group: "collections",
  command: "list",
  summary: "List every collection of the account (all pages), or the first --limit",
  input: z.object({
    limit: z.number().int().min(1).optional().describe(
      "Stop after this many collections (truncated: true says more exist); default all",
    ),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    if (input.limit === undefined) {
      const value = await ctx.catalog().collections.listAll({ signal: ctx.signal });
      return { count: value.length, value };
    }
    // Pages are read only as far as the limit needs, plus one collection to tell whether more exist.
    const value: Collection[] = [];
    for await (const collection of ctx.catalog().collections.list({ signal: ctx.signal })) {
      if (value.length === input.limit) return { count: value.length, value, truncated: true };
      value.push(collection);
    }
    return { count: value.length, value, truncated: false };
  },
});

export const collectionPath = defineOperation({
  id: "collections.path",
  group: "collections",
  command: "path",
  aliases: ["get-path", "getCollectionPath"],
  summary: "The full hierarchical path of a collection, from the root collection down",
  input: z.object({ collectionName }),
  annotations: READ,
  run: (ctx, input) =>
    withCollectionHints(CLI_COLLECTION_HINTS, async () => {
      const collections = ctx.catalog().collections;
      const [collection, path] = await Promise.all([
        collections.get(input.collectionName, ctx.signal),
        collections.path(input.collectionName, ctx.signal),
      ]);
      const names = [...path.parentNameChain ?? [], collection.name ?? input.collectionName];
      const friendlyNames = [
        ...path.parentFriendlyNameChain ?? [],
        collection.friendlyName ?? collection.name ?? input.collectionName,
      ];
      return {
        collectionName: collection.name ?? input.collectionName,
        parentNameChain: path.parentNameChain ?? [],
        parentFriendlyNameChain: path.parentFriendlyNameChain ?? [],
        path: names.join("/"),
        friendlyPath: friendlyNames.join(" / "),
      };
    }),
});

export const collectionChildren = defineOperation({
  id: "collections.children",
  group: "collections",
  command: "children",
  aliases: ["child-names", "getChildCollectionNames"],
  summary: "The names and friendly names of a collection's direct children",
  input: z.object({ collectionName }),
  annotations: READ,
  run: async (ctx, input) => {
    const value = await withCollectionHints(
      CLI_COLLECTION_HINTS,
      () => ctx.catalog().collections.childNames(input.collectionName, ctx.signal),
    );
    return { collectionName: input.collectionName, count: value.length, value };
  },
});

export const exportCollectionsOperation = defineOperation({
  id: "collections.export",
  group: "collections",
  command: "export",
  summary: "Write every collection to a CSV file, in hierarchy order",
  description: "Columns: collection_name, friendly_name; --include-hierarchy adds parent_collection and " +
    "path, --include-metadata adds description, provisioning_state and the system data columns. A file " +
    "written with --include-hierarchy and --include-metadata can be imported again. Cells starting with " +
    "=, +, -, @ get a leading ' so spreadsheets do not run them as formulas. The file is written whole or " +
    "not at all; an existing file is replaced only with --overwrite.",
  input: z.object({
    outputFile: z.string().min(1).describe("CSV file to write (an existing file only with overwrite)"),
    overwrite: z.boolean().optional().describe("Replace the file when it exists"),
    includeHierarchy: z.boolean().optional().describe("Add the parent_collection and path columns"),
    includeMetadata: z.boolean().optional().describe(
      "Add description, provisioning_state, created/last-modified at and by",
    ),
  }),
  // It reads the catalog only, but writes a local file: not read-only (read-only mode refuses it).
  annotations: { ...READ, readOnly: false, writesLocalFile: ["outputFile"] },
  run: (ctx, input) =>
    exportCollections(ctx, input.outputFile, {
      hierarchy: input.includeHierarchy ?? false,
      metadata: input.includeMetadata ?? false,
      overwrite: input.overwrite,
    }),
});

export { importCollectionsOperation };

/** Every operation of the `collections` group. */
export const COLLECTIONS_OPERATIONS: Operation[] = [
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  importCollectionsOperation,
  exportCollectionsOperation,
  collectionPath,
  collectionChildren,
];

/** The collection fields of a `--payload-file`: a collection object, such as `collections get` prints. */
export async function readCollectionPayload(
  ctx: OperationContext,
  input: { payloadFile?: string; collectionName?: string },
  option = "--payload-file",
): Promise<{ friendlyName?: string; description?: string; parentCollection?: string }> {
  const path = input.payloadFile!;
  const value = await readJsonFile(ctx, path, option);
  const expected =
    'a collection {"friendlyName": …, "description": …, "parentCollection": {"referenceName": …}}';
  if (!isPlainObject(value)) {
    throw new UsageError(`${path} has the wrong shape: expected ${expected}, found ${describeJson(value)}.`);
  }
  const collection = value as Collection;
  const text = (field: "friendlyName" | "description" | "name") => {
    const v = collection[field];
    if (v !== undefined && v !== null && typeof v !== "string") {
      throw new UsageError(`${path}: ${field} must be a string, found ${describeJson(v)}.`);
    }
    return v ?? undefined;
  };
  const name = text("name");
  if (name && input.collectionName && name.toLowerCase() !== input.collectionName.toLowerCase()) {
    throw new UsageError(
      `${path} describes collection "${name}", but the command names "${input.collectionName}".`,
      "Remove the name from the file or give the same name on the command line.",
    );
  }
  const parent = collection.parentCollection;
  if (parent !== undefined && parent !== null && typeof parent?.referenceName !== "string") {
    throw new UsageError(`${path}: parentCollection must be {"referenceName": "<parent name>"}.`);
  }
  return {
    friendlyName: text("friendlyName"),
    description: text("description"),
    parentCollection: parent?.referenceName,
  };
}
