/**
 * Category commands of the `glossary` group: create one or many, read (one, a glossary's in full or as
 * headers, a category's parent and children, its terms), full update and delete.
 *
 * @module
 */
import type { AtlasGlossaryCategory } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import {
  anchorOf,
  categoryGuid,
  deleted,
  describedFields,
  type Fields,
  glossaryGuid,
  paging,
  payloadFile,
  readArrayPayload,
  readObjectPayload,
  requireNameAndAnchor,
  withOptions,
} from "./glossary_inputs.ts";
import { CREATE, defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";
import { guidField } from "./guid_fields.ts";

const categoryFields = {
  ...describedFields,
  description: z.string().optional().describe("Description of the category (its long description)"),
  parentCategoryGuid: guidField("GUID of the parent category").optional(),
};

function categoryOptions(input: {
  name?: string;
  shortDescription?: string;
  description?: string;
  parentCategoryGuid?: string;
}): Fields {
  return {
    name: input.name,
    shortDescription: input.shortDescription,
    longDescription: input.description,
    parentCategory: input.parentCategoryGuid ? { categoryGuid: input.parentCategoryGuid } : undefined,
  };
}

const pageOf = (input: { limit?: number; offset?: number; sort?: "ASC" | "DESC" }, signal?: AbortSignal) => ({
  limit: input.limit,
  offset: input.offset,
  sort: input.sort,
  signal,
});

export const createCategory = defineOperation({
  id: "glossary.create-category",
  group: "glossary",
  command: "create-category",
  summary: "Create a category in a glossary",
  description: "Give --glossary-guid and --name (optional --description, --short-description, " +
    "--parent-category-guid), or a --payload-file with an AtlasGlossaryCategory; options override the file.",
  input: z.object({
    glossaryGuid: glossaryGuid.optional(),
    ...categoryFields,
    payloadFile: payloadFile.describe("JSON file holding an AtlasGlossaryCategory"),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const base = input.payloadFile
      ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossaryCategory")
      : {};
    const category = withOptions(base, { ...categoryOptions(input), ...anchorOf(input.glossaryGuid) });
    requireNameAndAnchor(category, "create-category", input.payloadFile);
    return ctx.catalog().glossary.createCategory(category as AtlasGlossaryCategory, ctx.signal);
  },
});

export const createCategories = defineOperation({
  id: "glossary.create-categories",
  group: "glossary",
  command: "create-categories",
  summary: "Create many categories in one call",
  description: "The payload file holds a JSON array of AtlasGlossaryCategory; --glossary-guid is the " +
    "glossary of those that name none. All are created, or none.",
  input: z.object({
    payloadFile: z.string().min(1).describe("JSON file holding an array of AtlasGlossaryCategory"),
    glossaryGuid: glossaryGuid.optional(),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const items = await readArrayPayload(ctx, input.payloadFile, "AtlasGlossaryCategory objects");
    const categories = items.map((
      item,
    ) => (item.anchor ? item : withOptions(item, anchorOf(input.glossaryGuid))));
    categories.forEach((category) => requireNameAndAnchor(category, "create-categories", input.payloadFile));
    return ctx.catalog().glossary.createCategories(categories as AtlasGlossaryCategory[], ctx.signal);
  },
});

export const readCategories = defineOperation({
  id: "glossary.read-categories",
  group: "glossary",
  command: "read-categories",
  summary: "List the categories of a glossary, in full",
  input: z.object({ glossaryGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.listCategories(input.glossaryGuid, pageOf(input, ctx.signal)),
});

export const readCategoriesHeaders = defineOperation({
  id: "glossary.read-categories-headers",
  group: "glossary",
  command: "read-categories-headers",
  summary: "List the categories of a glossary as headers (GUID, parent, name)",
  input: z.object({ glossaryGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.listCategoryHeaders(input.glossaryGuid, pageOf(input, ctx.signal)),
});

export const readCategory = defineOperation({
  id: "glossary.read-category",
  group: "glossary",
  command: "read-category",
  summary: "Read a category with its parent, children and terms",
  input: z.object({ categoryGuid }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getCategory(input.categoryGuid, ctx.signal),
});

export const readCategoryRelated = defineOperation({
  id: "glossary.read-category-related",
  group: "glossary",
  command: "read-category-related",
  summary: "Read a category's parent and children",
  input: z.object({ categoryGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().glossary.getCategoryRelated(input.categoryGuid, pageOf(input, ctx.signal)),
});

export const readCategoryTerms = defineOperation({
  id: "glossary.read-category-terms",
  group: "glossary",
  command: "read-category-terms",
  summary: "List the terms of a category (headers)",
  input: z.object({ categoryGuid, ...paging }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().glossary.getCategoryTerms(input.categoryGuid, pageOf(input, ctx.signal)),
});

export const putCategory = defineOperation({
  id: "glossary.put-category",
  group: "glossary",
  command: "put-category",
  aliases: ["update-category"],
  summary: "Update a category (full update: fields, parent, children and terms)",
  description: "The category becomes --payload-file with the options laid over it; without a file, the " +
    "current category is read and the options are laid over it.",
  input: z.object({
    categoryGuid,
    ...categoryFields,
    payloadFile: payloadFile.describe("JSON file holding the AtlasGlossaryCategory to store"),
  }),
  // A full update: a parent, children or terms left out of the payload are removed.
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const glossary = ctx.catalog().glossary;
    const options = categoryOptions(input);
    if (!input.payloadFile && Object.values(options).every((v) => v === undefined)) {
      throw new UsageError(
        "glossary put-category needs --payload-file or at least one of --name, --description, " +
          "--short-description, --parent-category-guid.",
      );
    }
    const base = input.payloadFile
      ? await readObjectPayload(ctx, input.payloadFile, "an AtlasGlossaryCategory")
      : await glossary.getCategory(input.categoryGuid, ctx.signal);
    const category = withOptions(base, options) as AtlasGlossaryCategory;
    return glossary.updateCategory(input.categoryGuid, category, ctx.signal);
  },
});

export const deleteCategory = defineOperation({
  id: "glossary.delete-category",
  group: "glossary",
  command: "delete-category",
  summary: "Delete a category (its terms stay; its children move up a level)",
  input: z.object({ categoryGuid }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().glossary.deleteCategory(input.categoryGuid, ctx.signal);
    return deleted("category", input.categoryGuid);
  },
});

/** The category commands, in the order `govcat glossary --help` lists them. */
export const GLOSSARY_CATEGORY_OPERATIONS: Operation[] = [
  createCategory,
  createCategories,
  readCategories,
  readCategoriesHeaders,
  readCategory,
  readCategoryRelated,
  readCategoryTerms,
  putCategory,
  deleteCategory,
];
