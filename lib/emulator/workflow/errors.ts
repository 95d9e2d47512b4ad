/**
 * The errors of the emulated workflow API, in its `{"error": {code, message, target}}` shape (the server
 * picks the shape for `/workflow` paths).
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";

/** 400: the request is malformed; `target` names the field. */
export function invalid(code: string, message: string, target?: string): EmulatorError {
  return new EmulatorError(400, code, message, { target });
}

/** 409: the request conflicts with the state (a closed task, a finished run). */
export function conflict(code: string, message: string): EmulatorError {
  return new EmulatorError(409, code, message);
}

/** 404: no such workflow, run or task. */
export function notFound(code: string, message: string): EmulatorError {
  return new EmulatorError(404, code, message);
}
