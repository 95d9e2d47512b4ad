/**
 * zod schemas of the unified catalog's objectives and key results (OKRs): each as the service returns it
 * (unknown fields kept) and as govcat sends it, with `status` in the service's spelling (`Draft`, `OnTrack`).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { KEY_RESULT_STATUSES, OBJECTIVE_STATUSES } from "./unified_enums.ts";
import {
  caseInsensitiveEnum,
  type ContactsMap,
  contactsMapSchema,
  type EntityBase,
  entityBase,
  type Loose,
  optionalNumber,
  requiredString,
  type SystemData,
  systemDataSchema,
} from "./unified_schemas.ts";

/** An objective (OKR) as returned. */
export interface Objective extends EntityBase {
  /** What the objective aims at; objectives have no name, this text stands for it. */
  definition?: string;
  /** GUID of the governance domain the objective belongs to. */
  domain?: string;
  /** When the objective should be met (an ISO 8601 date and time). */
  targetDate?: string;
  /**
   * Roll-up the service computes from the key results: `overallStatus`, `overallProgress`, `overallGoal`,
   * `overallMax`, `keyResultsCount`.
   */
  additionalProperties?: Loose;
}

/** Checks an objective the service returned; unknown fields pass through. */
export const objectiveSchema: z.ZodType<Objective, Objective> = z.looseObject({
  ...entityBase,
  definition: z.string().optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
  additionalProperties: z.looseObject({}).optional(),
});

/** An objective to create or update. */
export interface ObjectiveInput extends Loose {
  /** Contacts by role (`owner`, ...); each id must be an Entra ID object ID. */
  contacts?: ContactsMap;
  /** What the objective aims at. */
  definition: string;
  /** `Draft`, `Published` or `Closed`, in any letter case. */
  status?: string;
  /** GUID of the governance domain the objective belongs to. */
  domain?: string;
  /** When the objective should be met (an ISO 8601 date and time). */
  targetDate?: string;
}

/** Checks an objective before it is sent; `status` is sent as `Draft`, `Published`, `Closed`. */
export const objectiveInputSchema: z.ZodType<ObjectiveInput, ObjectiveInput> = z.looseObject({
  contacts: contactsMapSchema.optional(),
  definition: requiredString,
  status: caseInsensitiveEnum(OBJECTIVE_STATUSES).optional(),
  domain: z.string().optional(),
  targetDate: z.string().optional(),
});

/** A key result of an objective as returned. */
export interface KeyResult extends Loose {
  /** GUID of the key result. */
  id: string;
  /** What the key result measures. */
  definition?: string;
  /** GUID of the governance domain of its objective. */
  domainId?: string;
  /** Progress status: `NotTracked`, `OnTrack`, `Behind` or `AtRisk`. */
  status?: string;
  /** Value reached so far, in the unit of `goal`. */
  progress?: number;
  /** Value to reach. */
  goal?: number;
  /** Largest value the measure can take. */
  max?: number;
  /** Audit fields kept by the service. */
  systemData?: SystemData;
}

/** Checks a key result the service returned; unknown fields pass through. */
export const keyResultSchema: z.ZodType<KeyResult, KeyResult> = z.looseObject({
  id: z.string(),
  definition: z.string().optional(),
  domainId: z.string().optional(),
  status: z.string().optional(),
  progress: z.number().optional(),
  goal: z.number().optional(),
  max: z.number().optional(),
  systemData: systemDataSchema.optional(),
});

/** A key result to create or update. */
export interface KeyResultInput extends Loose {
  /** What the key result measures. */
  definition?: string;
  /** GUID of the governance domain of the objective. */
  domainId: string;
  /** `NotTracked`, `OnTrack`, `Behind` or `AtRisk`, in any letter case. */
  status: string;
  /** Value reached so far. */
  progress?: number;
  /** Value to reach. */
  goal?: number;
  /** Largest value the measure can take. */
  max?: number;
}

/** Checks a key result before it is sent; `status` is sent as `OnTrack`, `AtRisk`, ... */
export const keyResultInputSchema: z.ZodType<KeyResultInput, KeyResultInput> = z.looseObject({
  definition: z.string().optional(),
  domainId: requiredString,
  status: caseInsensitiveEnum(KEY_RESULT_STATUSES),
  progress: optionalNumber,
  goal: optionalNumber,
  max: optionalNumber,
});
