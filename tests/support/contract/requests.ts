/**
 * Checks an HTTP request (as a recording server saw it) against a contract: the path matches one of the
 * contract's path templates under its API prefix, the method is declared for it, every query parameter is
 * declared (with the right shape: booleans, integers, repeated only when the contract says `multi`), the
 * required ones are present, and the body validates against the body parameter's schema.
 *
 * `api-version` is special: the client sends it on every data-map request, and the service accepts it on
 * every operation, but the contract declares it only on some (optional on most Atlas operations, required
 * on search and `entity/moveTo`). So it is always allowed, must equal the expected version, and is required
 * unless `apiVersion: false`.
 *
 * @example
 * ```ts
 * import { checkRequest } from "./requests.ts";
 * import { loadDataMapContract } from "./reference.ts";
 * const contract = await loadDataMapContract();
 * const problems = checkRequest(contract, {
 *   method: "GET", path: "/datamap/api/atlas/v2/entity/guid/abc", search: "?api-version=2023-09-01", body: "",
 * });
 * console.log(problems); // []
 * ```
 *
 * @module
 */
import {
  bodyParameter,
  type Contract,
  type ContractOperation,
  matchOperation,
  queryParameter,
} from "./reference.ts";
import { formatSchemaErrors, validateSchema } from "./schema.ts";

/** What a request check needs of a recorded request. */
export interface RequestToCheck {
  method: string;
  path: string;
  /** `?a=b&c=d`, or empty. */
  search: string;
  headers?: Headers;
  body: string;
}

/** Options of {@link checkRequest}. */
export interface CheckRequestOptions {
  /** The operation the request is meant to call; a different match is a problem. */
  operationId?: string;
  /** The api-version every request must carry; `false` makes it optional. Default `2023-09-01`. */
  apiVersion?: string | false;
  /**
   * Query parameters allowed although the operation does not declare them, by operationId: contract errata
   * evidenced by the contract's own examples (e.g. `DATAMAP_REQUEST_ERRATA`).
   */
  queryErrata?: Record<string, readonly string[]>;
}

/** One contract a request may belong to: its API prefix, api-version and errata. */
export interface ContractTarget {
  contract: Contract;
  apiVersion: string | false;
  queryErrata?: Record<string, readonly string[]>;
}

/**
 * Checks a request against the contract whose API prefix it is under (the longest that matches:
 * `/datamap/api`, `/catalog/api`, `/account`), with that contract's api-version and errata.
 */
export function checkRequestAcross(
  targets: readonly ContractTarget[],
  request: RequestToCheck,
  options: { operationId?: string } = {},
): RequestCheck & { target?: ContractTarget } {
  const under = targets
    .filter(({ contract }) =>
      request.path === contract.prefix || request.path.startsWith(contract.prefix + "/")
    )
    .sort((a, b) => b.contract.prefix.length - a.contract.prefix.length);
  const target = under[0];
  if (!target) {
    const prefixes = targets.map((t) => t.contract.prefix).join(", ");
    return { problems: [`path ${request.path} is under none of the API prefixes ${prefixes}`] };
  }
  return {
    target,
    ...checkRequest(target.contract, request, {
      operationId: options.operationId,
      apiVersion: target.apiVersion,
      queryErrata: target.queryErrata,
    }),
  };
}

/** The outcome: the matched operation (if any) and every problem found. */
export interface RequestCheck {
  operation?: ContractOperation;
  problems: string[];
}

/** Checks one request against the contract. */
export function checkRequest(
  contract: Contract,
  request: RequestToCheck,
  options: CheckRequestOptions = {},
): RequestCheck {
  const problems: string[] = [];
  const match = matchOperation(contract, request.method, request.path);
  if (match.kind === "no-path") return { problems: [match.reason] };
  if (match.kind === "method-not-declared") {
    return {
      problems: [
        `${request.method} is not declared for ${match.path} (declared: ${match.declared.join(", ")})`,
      ],
    };
  }
  const { operation, pathParams } = match;
  if (options.operationId && operation.operationId !== options.operationId) {
    problems.push(
      `request matches ${operation.operationId} (${operation.method} ${operation.path}), not ${options.operationId}`,
    );
  }
  for (const [name, value] of Object.entries(pathParams)) {
    if (value === "") problems.push(`path parameter ${name} is empty`);
  }
  problems.push(
    ...checkQuery(
      operation,
      new URLSearchParams(request.search),
      options.apiVersion ?? "2023-09-01",
      new Set(options.queryErrata?.[operation.operationId] ?? []),
    ),
  );
  problems.push(...checkBody(contract, operation, request));
  return { operation, problems };
}

function checkQuery(
  operation: ContractOperation,
  query: URLSearchParams,
  apiVersion: string | false,
  errata: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  const names = new Set(query.keys());
  for (const name of names) {
    const values = query.getAll(name);
    if (name === "api-version") {
      if (values.length !== 1) problems.push(`api-version given ${values.length} times`);
      if (apiVersion !== false && values[0] !== apiVersion) {
        problems.push(`api-version is ${JSON.stringify(values[0])}, expected ${JSON.stringify(apiVersion)}`);
      }
      continue;
    }
    const declared = queryParameter(operation, name);
    if (!declared && errata.has(name)) {
      if (values.length > 1) problems.push(`query parameter ${name} given ${values.length} times`);
      continue;
    }
    if (!declared) {
      problems.push(`query parameter ${name} is not declared by ${operation.operationId}`);
      continue;
    }
    const repeated = declared.type === "array" && declared.collectionFormat === "multi";
    if (values.length > 1 && !repeated) problems.push(`query parameter ${name} given ${values.length} times`);
    const itemType = declared.type === "array"
      ? String((declared.items ?? {}).type ?? "string")
      : declared.type;
    for (const value of values) {
      const problem = scalarProblem(itemType, value, declared.enum);
      if (problem) problems.push(`query parameter ${name}: ${problem}`);
    }
  }
  for (const parameter of operation.parameters) {
    if (parameter.in !== "query" || !parameter.required) continue;
    const present = [...names].some((n) => queryParameter(operation, n) === parameter);
    if (!present) problems.push(`required query parameter ${parameter.name} is missing`);
  }
  if (apiVersion !== false && !names.has("api-version")) {
    problems.push(`api-version=${apiVersion} is missing`);
  }
  return problems;
}

function scalarProblem(type: string | undefined, value: string, allowed?: unknown[]): string | undefined {
  if (type === "boolean" && value !== "true" && value !== "false") {
    return `expected true or false, got ${value}`;
  }
  if (type === "integer" && !/^-?\d+$/.test(value)) return `expected an integer, got ${value}`;
  if (type === "number" && !Number.isFinite(Number(value))) return `expected a number, got ${value}`;
  if (Array.isArray(allowed) && !allowed.includes(value)) {
    return `expected one of ${allowed.join(", ")}, got ${value}`;
  }
  return undefined;
}

function checkBody(contract: Contract, operation: ContractOperation, request: RequestToCheck): string[] {
  const parameter = bodyParameter(operation);
  const formData = operation.parameters.some((p) => p.in === "formData");
  const contentType = request.headers?.get("content-type") ?? "";
  if (formData) {
    if (!/^multipart\/form-data/i.test(contentType)) {
      return [
        `${operation.operationId} takes multipart/form-data, sent content-type ${contentType || "(none)"}`,
      ];
    }
    return [];
  }
  if (!parameter) {
    return request.body === "" ? [] : [`${operation.operationId} takes no body, but one was sent`];
  }
  if (request.body === "") {
    return parameter.required ? [`${operation.operationId} requires a body, none was sent`] : [];
  }
  const problems: string[] = [];
  if (request.headers && !/^application\/json/i.test(contentType)) {
    problems.push(`body sent with content-type ${contentType || "(none)"}, expected application/json`);
  }
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch (error) {
    return [...problems, `body is not JSON: ${(error as Error).message}`];
  }
  const errors = validateSchema(body, parameter.schema ?? {}, { root: contract.document, path: "$body" });
  if (errors.length > 0) problems.push(`body does not match the contract:\n${formatSchemaErrors(errors)}`);
  return problems;
}
