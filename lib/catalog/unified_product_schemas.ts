/**
 * zod schemas of the unified catalog's data products and critical data elements: each as the service
 * returns it (unknown fields kept) and as govcat sends it, with its enumerations in the service's spelling.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import {
  AUDIENCES,
  CDE_DATA_TYPES,
  DATA_PRODUCT_TYPES,
  ENTITY_STATUSES,
  UPDATE_FREQUENCIES,
} from "./unified_enums.ts";
import {
  caseInsensitiveEnum,
  type CommonInput,
  commonInput,
  type EntityBase,
  entityBase,
  type Loose,
  requiredString,
} from "./unified_schemas.ts";

/** A data product as returned. */
export interface DataProduct extends EntityBase {
  /** Kind of data product (`Analytical`, `Reference`, `MasterDataAndReferenceData`, ...). */
  type?: string;
  /** GUID of the governance domain that owns the data product. */
  domain?: string;
  /** What the business uses the data product for. */
  businessUse?: string;
  /** Links to the terms of use, each with a name, URL and optionally a data asset id. */
  termsOfUse?: Loose[];
  /** Links to documentation of the data product. */
  documentation?: Loose[];
  /** How often the data is refreshed: `Hourly`, `Daily`, `Weekly`, `Monthly`, `Quarterly`, `Yearly`. */
  updateFrequency?: string;
  /** Sensitivity label of the data product. */
  sensitivityLabel?: string;
  /** Whether the data product is endorsed for use. */
  endorsed?: boolean;
  /** Number of active subscriptions to the data product; set by the service. */
  activeSubscriberCount?: number;
  /** Who the data product is for (`DataAnalyst`, `BusinessUser`, `Executive`, ...). */
  audience?: string[];
  /** Figures the service adds, such as `assetCount` (data assets in the product). */
  additionalProperties?: { assetCount?: number; [key: string]: unknown };
}

/** Checks a data product the service returned; unknown fields pass through. */
export const dataProductSchema: z.ZodType<DataProduct, DataProduct> = z.looseObject({
  ...entityBase,
  type: z.string().optional(),
  domain: z.string().optional(),
  businessUse: z.string().optional(),
  termsOfUse: z.array(z.looseObject({})).optional(),
  documentation: z.array(z.looseObject({})).optional(),
  updateFrequency: z.string().optional(),
  sensitivityLabel: z.string().optional(),
  endorsed: z.boolean().optional(),
  activeSubscriberCount: z.number().optional(),
  audience: z.array(z.string()).optional(),
  additionalProperties: z.looseObject({ assetCount: z.number().optional() }).optional(),
});

/** A data product to create or update. */
export interface DataProductInput extends CommonInput {
  /** Name of the data product. */
  name: string;
  /** Kind of data product (`Analytical`, `Reference`, ...), any letter case. */
  type?: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status?: string;
  /** GUID of the governance domain that owns the data product. */
  domain?: string;
  /** `Hourly`, `Daily`, `Weekly`, `Monthly`, `Quarterly` or `Yearly`, any letter case. */
  updateFrequency?: string;
  /** Who the data product is for (`DataAnalyst`, `BusinessUser`, ...), any letter case. */
  audience?: string[];
}

/** Checks a data product before it is sent, with its enumerations normalised. */
export const dataProductInputSchema: z.ZodType<DataProductInput, DataProductInput> = z.looseObject({
  ...commonInput,
  name: requiredString,
  type: caseInsensitiveEnum(DATA_PRODUCT_TYPES).optional(),
  status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
  domain: z.string().optional(),
  updateFrequency: caseInsensitiveEnum(UPDATE_FREQUENCIES).optional(),
  audience: z.array(caseInsensitiveEnum(AUDIENCES)).optional(),
});

/** A critical data element as returned. */
export interface CriticalDataElement extends EntityBase {
  /** Data type of the element: `TEXT`, `NUMBER`, `DATETIME` or `BOOLEAN`. */
  dataType?: string;
  /** GUID of the governance domain that owns the element. */
  domain?: string;
}

/** Checks a critical data element the service returned; unknown fields pass through. */
export const criticalDataElementSchema: z.ZodType<CriticalDataElement, CriticalDataElement> = z.looseObject({
  ...entityBase,
  dataType: z.string().optional(),
  domain: z.string().optional(),
});

/** A critical data element to create or update. */
export interface CriticalDataElementInput extends CommonInput {
  /** Name of the critical data element. */
  name: string;
  /** `DRAFT`, `PUBLISHED` or `EXPIRED`, in any letter case. */
  status?: string;
  /** `TEXT`, `NUMBER`, `DATETIME` or `BOOLEAN`, any letter case. */
  dataType?: string;
  /** GUID of the governance domain that owns the element. */
  domain?: string;
}

/** Checks a critical data element before it is sent, with `status` and `dataType` normalised. */
export const criticalDataElementInputSchema: z.ZodType<CriticalDataElementInput, CriticalDataElementInput> = z
  .looseObject({
    ...commonInput,
    name: requiredString,
    status: caseInsensitiveEnum(ENTITY_STATUSES).optional(),
    dataType: caseInsensitiveEnum(CDE_DATA_TYPES).optional(),
    domain: z.string().optional(),
  });
