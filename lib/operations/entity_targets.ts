/**
 * The two ways an entity command names its entity: by GUID (`--guid`), or by type name and qualified name
 * (`--type-name --qualified-name`, the `…ByUniqueAttribute` commands). Commands built from one call
 * description per way (labels, classifications) take their input fields, ids and command names from here.
 *
 * @module
 */
import type { GetEntityOptions } from "../catalog/entity_api.ts";
import type { EntityRef } from "../catalog/entity_metadata_calls.ts";
import type { AtlasEntityWithExtInfo } from "../catalog/atlas_model.ts";
import type { z } from "../deps/zod.ts";
import { guid, qualifiedName, typeName } from "./entity_operations.ts";
import type { OperationContext } from "./types.ts";

/** One way of naming the entity a command acts on. */
export interface EntityTarget {
  kind: "guid" | "unique";
  /** Appended to the operation id's stem: `entity.add-labels-by-unique-attribute`. */
  idSuffix: string;
  /** Appended to the command: `addLabelsByUniqueAttribute`. */
  commandSuffix: string;
  /** The input fields that name the entity, first in the command's input. */
  fields: Record<string, z.ZodType>;
  /** The entity the validated input names. */
  ref(input: Record<string, unknown>): EntityRef;
  /** The naming fields, as the command's result repeats them. */
  echo(input: Record<string, unknown>): Record<string, string>;
  /** Reads the entity. */
  read(ctx: OperationContext, ref: EntityRef, options: GetEntityOptions): Promise<AtlasEntityWithExtInfo>;
}

const BY_GUID: EntityTarget = {
  kind: "guid",
  idSuffix: "",
  commandSuffix: "",
  fields: { guid },
  ref: (input) => ({ guid: String(input.guid) }),
  echo: (input) => ({ guid: String(input.guid) }),
  read: (ctx, ref, options) => ctx.catalog().entity.get((ref as { guid: string }).guid, options),
};

const BY_UNIQUE_ATTRIBUTE: EntityTarget = {
  kind: "unique",
  idSuffix: "-by-unique-attribute",
  commandSuffix: "ByUniqueAttribute",
  fields: { typeName, qualifiedName },
  ref: (input) => ({ typeName: String(input.typeName), qualifiedName: String(input.qualifiedName) }),
  echo: (input) => ({ typeName: String(input.typeName), qualifiedName: String(input.qualifiedName) }),
  read: (ctx, ref, options) => {
    const { typeName, qualifiedName } = ref as { typeName: string; qualifiedName: string };
    return ctx.catalog().entity.getByUniqueAttribute(typeName, qualifiedName, options);
  },
};

/** By GUID first: the order the commands are listed in. */
export const ENTITY_TARGETS: readonly EntityTarget[] = [BY_GUID, BY_UNIQUE_ATTRIBUTE];
