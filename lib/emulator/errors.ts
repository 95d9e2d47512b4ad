/**
 * Error bodies as the service writes them. The Atlas data-map API (everything under `/catalog/api` and
 * `/datamap/api`) answers `{requestId, errorCode, errorMessage}`; account, scanning, unified catalog and the
 * emulator's own admin endpoints answer `{"error": {code, message, target, details}}`.
 *
 * Handlers throw {@link EmulatorError}; the server turns it into a response in the style of the path.
 *
 * @example
 * ```ts
 * import { EmulatorError, errorResponse } from "./errors.ts";
 * const err = EmulatorError.guidNotFound("1234");
 * const res = errorResponse("atlas", err, crypto.randomUUID());
 * console.log(res.status); // 404
 * ```
 *
 * @module
 */

/** Which error body shape a path uses. */
export type ErrorStyle = "atlas" | "azure";

/** An error a handler raises on purpose; carries everything the response needs. */
export class EmulatorError extends Error {
  readonly status: number;
  readonly code: string;
  /** The offending field or parameter, for azure-style bodies. */
  readonly target?: string;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { target?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "EmulatorError";
    this.status = status;
    this.code = code;
    this.target = options.target;
    this.headers = options.headers ?? {};
  }

  /** Atlas INVALID_PARAMETERS: a parameter or body field is missing or malformed. */
  static invalidParameters(detail: string, target?: string): EmulatorError {
    return new EmulatorError(400, "ATLAS-400-00-01A", `invalid parameters: ${detail}`, { target });
  }

  /** Atlas BAD_REQUEST: the request as a whole cannot be read. */
  static badRequest(message: string): EmulatorError {
    return new EmulatorError(400, "ATLAS-400-00-029", message);
  }

  /** Atlas MISSING_MANDATORY_ATTRIBUTE. */
  static missingAttribute(typeName: string, attribute: string): EmulatorError {
    return new EmulatorError(
      400,
      "ATLAS-400-00-02B",
      `Mandatory field ${typeName}.${attribute} has empty/null value`,
      { target: attribute },
    );
  }

  /** Atlas INSTANCE_GUID_NOT_FOUND. */
  static guidNotFound(guid: string): EmulatorError {
    return new EmulatorError(404, "ATLAS-404-00-005", `Given instance guid ${guid} is invalid/not found`);
  }

  /** Atlas INSTANCE_BY_UNIQUE_ATTRIBUTE_NOT_FOUND; `attributes` renders like Java's `Map.toString`. */
  static uniqueAttributeNotFound(typeName: string, attributes: Record<string, string>): EmulatorError {
    const rendered = Object.entries(attributes).map(([k, v]) => `${k}=${v}`).join(", ");
    return new EmulatorError(
      404,
      "ATLAS-404-00-009",
      `Instance ${typeName} with unique attribute {${rendered}} does not exist`,
    );
  }

  /** No route serves this path. */
  static routeNotFound(method: string, path: string): EmulatorError {
    return new EmulatorError(404, "NotFound", `No API is served at ${method} ${path}`);
  }

  /** The path exists but not for this method. */
  static methodNotAllowed(method: string, path: string, allowed: string[]): EmulatorError {
    return new EmulatorError(
      405,
      "MethodNotAllowed",
      `${method} is not supported on ${path}; allowed: ${allowed.join(", ")}`,
      { headers: { allow: allowed.join(", ") } },
    );
  }
}

const INJECTED = "(injected fault)";
const FAULTS: Record<number, [code: string, message: string]> = {
  400: ["ATLAS-400-00-029", `Bad request ${INJECTED}`],
  401: ["Unauthorized", `The request is not authenticated ${INJECTED}`],
  403: ["Forbidden", `The caller is not authorized to perform this action ${INJECTED}`],
  404: ["NotFound", `The resource was not found ${INJECTED}`],
  409: ["ATLAS-409-00-003", `failed to update entity: conflicting change ${INJECTED}`],
  429: ["TooManyRequests", `Rate limit is exceeded. Try again later. ${INJECTED}`],
  500: ["ATLAS-500-00-001", `Internal server error ${INJECTED}`],
  502: ["BadGateway", `Bad gateway ${INJECTED}`],
  503: ["ServiceUnavailable", `The service is temporarily unavailable; try again later. ${INJECTED}`],
  504: ["GatewayTimeout", `The gateway timed out ${INJECTED}`],
};

/** The error a fault injection answers with for `status`, coded like the real service's. */
export function faultError(status: number): EmulatorError {
  const [code, message] = FAULTS[status] ??
    [`HTTP${status}`, `Request failed with status ${status} ${INJECTED}`];
  return new EmulatorError(status, code, message);
}

const AZURE_STYLE_PATHS =
  /^\/(_emulator|account|collections|scan|datagovernance|policyStore|workflow|purviewdataquality)(\/|$)/;
/** The account API at the host's root (`GET /`, `POST /listkeys`, `POST /regeneratekeys`). */
const ACCOUNT_ROOT_PATHS = /^\/(listkeys|regeneratekeys)?\/?$/;

/**
 * Account (at the root too; collections under `/account/collections` and `/collections`), scanning, the
 * policy store, the unified catalog, workflows, data quality and the admin endpoints use azure-style bodies, routes that do not exist included; the
 * data-map API uses Atlas ones.
 */
export function errorStyleForPath(path: string): ErrorStyle {
  return AZURE_STYLE_PATHS.test(path) || ACCOUNT_ROOT_PATHS.test(path) ? "azure" : "atlas";
}

/** The JSON body of an error in the given style. */
export function errorBody(style: ErrorStyle, error: EmulatorError, requestId: string): unknown {
  if (style === "atlas") {
    return { requestId, errorCode: error.code, errorMessage: error.message };
  }
  const detail: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.target) detail.target = error.target;
  detail.details = [];
  return { error: detail };
}

/** A JSON response with the given status and headers. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** The complete response for an error: status, body in the path's style and the error's headers. */
export function errorResponse(style: ErrorStyle, error: EmulatorError, requestId: string): Response {
  return jsonResponse(errorBody(style, error, requestId), error.status, error.headers);
}
