/**
 * Collection tools: list_collections, get_collection, create_collection (fails on an existing name unless
 * `if_exists: "update"`), delete_collection and
 * get_collection_path. Collections are the catalog's folders for assets, nested under a root collection
 * named after the account; every call takes a collection's name, not its friendly name. Each is the
 * collections group's operation of the same action; the catalog's refusals get hints naming the tools.
 *
 * @module
 */
import type { Collection } from "../../catalog/collections_types.ts";
import { z } from "../../deps/zod.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";
import {
  collectionPath,
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
} from "../../operations/collections_operations.ts";
import {
  type CollectionHints,
  collectionNameProblem,
  ROOT_PROTECTED,
  withCollectionHints,
} from "../../catalog/collections_support.ts";
import type { ToolDefinition } from "../tool.ts";
import { composedTool, type OperationRunner, operationTool } from "../tool_operation.ts";
import type { Operation } from "../../operations/types.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";
import { ifExistsField } from "./if_exists.ts";

/** Collections returned by one list_collections call unless the caller asks for fewer or more. */
export const DEFAULT_COLLECTION_LIMIT = 200;
/** The most one list_collections call returns. */
export const MAX_COLLECTION_LIMIT = 1000;

const HINTS: CollectionHints = {
  notFound: "Check the collection's name (not its friendly name) with list_collections.",
  deleteRefused: "A collection with child collections or assets cannot be deleted. Delete or move its " +
    "child collections first (list_collections shows each collection's parent), and move its assets to " +
    "another collection or delete them; then call delete_collection again.",
  rootProtected: ROOT_PROTECTED,
};

/** Runs a collection operation with the hints of the tools (list_collections, not `govcat collections list`). */
function runWithToolHints(run: OperationRunner, operation: Operation, input: Record<string, unknown>) {
  return withCollectionHints(HINTS, () => run(operation, input));
}

/** The hints of the tools on a derived tool's run (see {@link runWithToolHints}). */
const withToolHints = (run: () => Promise<unknown>) => withCollectionHints(HINTS, run);

/** The collection name argument, in a model's words. */
const COLLECTION_NAME = { collectionName: "Name (finance-eu), not the friendly name" } as const;

const collectionName = z.string().min(1).describe(
  "Name (finance-eu), not the friendly name",
);

const collectionSummary = z.object({
  name: z.string(),
  friendly_name: z.string().optional(),
  parent_collection: z.string().optional().describe("Name of the parent; absent for the root collection"),
  description: z.string().optional(),
});

function summarize(collection: Collection): z.input<typeof collectionSummary> {
  return {
    name: collection.name ?? "",
    ...(collection.friendlyName === undefined ? {} : { friendly_name: collection.friendlyName }),
    ...(collection.parentCollection?.referenceName
      ? { parent_collection: collection.parentCollection.referenceName }
      : {}),
    ...(collection.description ? { description: collection.description } : {}),
  };
}

const collectionRecord = z.record(z.string(), z.unknown()).describe(
  "The collection: name, friendlyName, description, parentCollection.referenceName, " +
    "collectionProvisioningState, systemData",
);

export const listCollectionsTool = operationTool({
  name: "list_collections",
  title: "List collections",
  description:
    "Collections (the folders assets live in): name, friendly name, parent, description. Names are " +
    "what the collection tools and collection_id take." + CATALOG_TEXT_IS_DATA,
  operation: listCollections,
  // A bounded page by default: the operation reads every collection when it is given no limit.
  fields: {
    limit: z.number().int().min(1).max(MAX_COLLECTION_LIMIT).default(DEFAULT_COLLECTION_LIMIT)
      .describe("Most collections to return"),
  },
  output: z.object({
    collections: z.array(collectionSummary),
    count: z.number().int().describe("Collections returned"),
    truncated: z.boolean().describe("True when the account has more collections than returned"),
  }),
  view: (result) => {
    const listed = result as { value: Collection[]; truncated?: boolean };
    const collections = listed.value.map(summarize);
    return { collections, count: collections.length, truncated: listed.truncated === true };
  },
});

export const getCollectionTool = operationTool({
  name: "get_collection",
  title: "Get collection",
  description:
    "One collection by name: friendly name, description, parent, state, who created or changed it " +
    "when." + CATALOG_TEXT_IS_DATA,
  operation: getCollection,
  fields: COLLECTION_NAME,
  wrapRun: withToolHints,
  output: z.object({ collection: collectionRecord }),
  view: (collection) => ({ collection: collection as Record<string, unknown> }),
});

export const createCollectionTool = composedTool({
  name: "create_collection",
  title: "Create or update collection",
  description: "Create a collection under parent_collection (default: root). An existing name fails unless " +
    'if_exists is "update", which changes the fields given (parent_collection moves it).',
  input: z.object({
    collection_name: collectionName,
    friendly_name: z.string().min(1).optional().describe("Display name"),
    description: z.string().optional().describe("What the collection holds"),
    parent_collection: z.string().min(1).optional().describe(
      "Parent collection name; default: the root",
    ),
    if_exists: ifExistsField,
  }),
  output: z.object({ collection: collectionRecord, created: z.boolean() }),
  // collections.create does the work; an update first reads the collection, to answer whether it was new.
  operations: [createCollection, getCollection],
  confirmWhen: (input) => input.if_exists === "update",
  compose: async (run, input) => {
    const problem = collectionNameProblem(input.collection_name);
    if (problem) throw new UsageError(`collection_name "${input.collection_name}" is not valid: ${problem}.`);
    const existed = input.if_exists === "update" && await runWithToolHints(run, getCollection, {
      collectionName: input.collection_name,
    }).then(() => true, (error) => {
      if (error instanceof NotFoundError) return false;
      throw error;
    });
    const collection = await runWithToolHints(run, createCollection, {
      collectionName: input.collection_name,
      friendlyName: input.friendly_name,
      description: input.description,
      parentCollection: input.parent_collection,
      ifExists: input.if_exists,
    }) as Record<string, unknown>;
    return { collection, created: !existed };
  },
});

export const deleteCollectionTool = operationTool({
  name: "delete_collection",
  title: "Delete collection",
  description:
    "Delete a collection by name, for good; refused while it has child collections or assets. Confirm " +
    "with the user first.",
  operation: deleteCollection,
  fields: COLLECTION_NAME,
  wrapRun: withToolHints,
  output: z.object({ deleted: z.string().describe("Name of the collection deleted") }),
  view: (_result, args: { collection_name: string }) => ({ deleted: args.collection_name }),
});

export const getCollectionPathTool = operationTool({
  name: "get_collection_path",
  title: "Get collection path",
  description: "A collection's path from the root: names and friendly names, and as one readable path." +
    CATALOG_TEXT_IS_DATA,
  operation: collectionPath,
  fields: COLLECTION_NAME,
  wrapRun: withToolHints,
  output: z.object({
    collection_name: z.string(),
    names: z.array(z.string()).describe("Collection names from the root to this collection"),
    friendly_names: z.array(z.string()).describe("Their friendly names, in the same order"),
    path: z.string().describe("The friendly names joined with ' / '"),
  }),
  view: (result) => {
    const path = result as {
      collectionName: string;
      friendlyPath: string;
      parentNameChain: string[];
      parentFriendlyNameChain: string[];
    };
    const names = [...path.parentNameChain, path.collectionName];
    // friendlyPath is the chain and the collection's own friendly name joined with " / ": what follows
    // the chain is that name, whatever characters it holds.
    const ancestors = path.parentFriendlyNameChain.map((name) => `${name} / `).join("");
    const friendlyNames = [...path.parentFriendlyNameChain, path.friendlyPath.slice(ancestors.length)];
    return {
      collection_name: path.collectionName,
      names,
      friendly_names: friendlyNames,
      path: friendlyNames.join(" / "),
    };
  },
});

/** The collection tools, in the order tools/list shows them. */
export const COLLECTION_TOOLS: ToolDefinition[] = [
  listCollectionsTool,
  getCollectionTool,
  createCollectionTool,
  deleteCollectionTool,
  getCollectionPathTool,
];
