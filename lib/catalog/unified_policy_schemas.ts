/**
 * zod schemas of the unified catalog's policies. The service's notes describe policies only loosely, so
 * both what it returns and what govcat sends are kept and sent as they are; the service checks them.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { Loose } from "./unified_schemas.ts";

/** A policy as returned. */
export interface Policy extends Loose {
  /** Id of the policy. */
  id: string;
  /** Name of the policy. */
  name?: string;
}

/** Policies are only loosely described by the notes; everything is kept. */
export const policySchema: z.ZodType<Policy, Policy> = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
});

/** A policy to update; sent as given. */
export type PolicyInput = Loose;

/** A policy update is sent as given; the service checks it. */
export const policyInputSchema: z.ZodType<PolicyInput, PolicyInput> = z.looseObject({});
