/**
 * The one module that imports zod. Every schema in govcat is built with the `z` exported here, so the
 * validation library can be swapped or upgraded in one place.
 *
 * @module
 */
export { z } from "npm:zod@4.6.7";
export type { ZodError, ZodObject, ZodRawShape, ZodType } from "npm:zod@4.6.7";
