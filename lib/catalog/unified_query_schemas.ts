/**
 * zod schemas the unified catalog's kinds share beyond their entities: relationships between entities (as
 * returned and as sent), the entity category a relationship names, and the body of the query, facets and
 * count searches, with enumerations in the service's spelling.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import {
  DATA_PRODUCT_TYPES,
  ENTITY_CATEGORIES,
  FILTER_STATUSES,
  TERM_RELATIONSHIP_TYPES,
} from "./unified_enums.ts";
import {
  caseInsensitiveEnum,
  type Loose,
  optionalNumber,
  requiredString,
  type SystemData,
  systemDataSchema,
} from "./unified_schemas.ts";

/** A relationship of an entity as returned. */
export interface Relationship extends Loose {
  /** Id of the related entity. */
  entityId: string;
  /** For terms: `Related`, `Synonym` or `Parent`. */
  relationshipType?: string;
  /** Why the entities are related. */
  description?: string;
  /** Audit fields kept by the service. */
  systemData?: SystemData;
}

/** Checks a relationship the service returned; unknown fields pass through. */
export const relationshipSchema: z.ZodType<Relationship, Relationship> = z.looseObject({
  entityId: z.string(),
  relationshipType: z.string().optional(),
  description: z.string().optional(),
  systemData: systemDataSchema.optional(),
});

/** A relationship to create (no other fields are allowed through). */
export interface RelationshipInput {
  /** Id of the entity to relate to. */
  entityId: string;
  /** For terms: `Related`, `Synonym` or `Parent`, in any letter case. */
  relationshipType?: string;
  /** Why the entities are related. */
  description?: string;
}

/** Checks a relationship before it is sent; fields other than the three named are refused. */
export const relationshipInputSchema: z.ZodType<RelationshipInput, RelationshipInput> = z.object({
  entityId: requiredString,
  relationshipType: caseInsensitiveEnum(TERM_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});

/** An entity category (`TERM`, `DATAPRODUCT`, ...) in any letter case, sent upper case. */
export const entityCategorySchema: z.ZodType<(typeof ENTITY_CATEGORIES)[number], string> =
  caseInsensitiveEnum(ENTITY_CATEGORIES);

/** A query, facet or count body. */
export interface QueryBody extends Loose {
  /** Results to skip before the first one returned. */
  skip?: number;
  /** Most results to return. */
  top?: number;
  /** Only these entity ids. */
  ids?: string[];
  /** Only entities of these governance domains. */
  domainIds?: string[];
  /** Only entities whose name contains this text (objectives: use `definition`). */
  nameKeyword?: string;
  /** Only entities with this status (`Draft`, `Published`, `Expired`; objectives `Closed`), any case. */
  status?: string;
  /** Only entities with one of these statuses. */
  multiStatus?: string[];
  /** For data products: only this type. */
  type?: string;
  /** For data products: only these types. */
  types?: string[];
}

/** A query, facet or count body; `status`/`multiStatus` are sent in the filter spelling. */
export function queryBodySchema(
  statuses: readonly string[] = FILTER_STATUSES,
): z.ZodType<QueryBody, QueryBody> {
  return z.looseObject({
    skip: optionalNumber,
    top: optionalNumber,
    ids: z.array(z.string()).optional(),
    domainIds: z.array(z.string()).optional(),
    nameKeyword: z.string().optional(),
    status: caseInsensitiveEnum(statuses).optional(),
    multiStatus: z.array(caseInsensitiveEnum(statuses)).optional(),
    type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
    types: z.array(caseInsensitiveEnum(DATA_PRODUCT_TYPES)).optional(),
  });
}
