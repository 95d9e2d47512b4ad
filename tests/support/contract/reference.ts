/**
 * Finds and loads the published REST contracts the contract tests check against. They live in
 * `../shared/reference` beside the repository on CI only; a user's clone has no such folder, so the tests
 * ask {@link referenceAvailable} and register themselves with `ignore: true` when it says no (one line on
 * stderr says so), except in CI (`CI=true`), where a missing folder fails the run. Nothing outside
 * `tests/contract` and `tests/support/contract` may depend on it.
 *
 * The contract is read at run time, never copied: {@link loadDataMapContract} parses the Swagger 2.0
 * document of the data-map API, its operations (method, path template, parameters with `$ref`s resolved,
 * responses) and the examples each operation lists under `x-ms-examples`.
 *
 * @example
 * ```ts
 * import { loadDataMapContract, referenceAvailable } from "./reference.ts";
 * if (referenceAvailable()) {
 *   const contract = await loadDataMapContract();
 *   console.log(contract.operations.get("Entity_Get")?.path); // "/atlas/v2/entity/guid/{guid}"
 * }
 * ```
 *
 * @module
 */
import { resolveRef, type Schema } from "./schema.ts";

/** The repository root (this file is `tests/support/contract/reference.ts`). */
export const REPO_ROOT: URL = new URL("../../../", import.meta.url);

/**
 * The reference folder: `../shared/reference` relative to the repository root. Test files in
 * `tests/contract/` reach the same folder as `new URL("../../../shared/reference/", import.meta.url)`.
 */
export const REFERENCE_DIR: URL = new URL("../shared/reference/", REPO_ROOT);

/** The folder of the 2023-09-01 data-map contract and its `examples/`. */
export const DATAMAP_CONTRACT_DIR: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.DataMap/stable/2023-09-01/",
  REFERENCE_DIR,
);

/** The data-map contract document. */
export const DATAMAP_CONTRACT_FILE: URL = new URL("purviewdatamap.json", DATAMAP_CONTRACT_DIR);

/** The api-version of the data-map contract, which the client sends on every data-map request. */
export const DATAMAP_API_VERSION = "2023-09-01";

/**
 * Where the data-map contract contradicts itself, and what the tests accept because of it. Each entry is
 * evidenced by the contract's own examples (`schema_test.ts` checks them all).
 *
 * - `TypeCategory` lists no `BUSINESS_METADATA`, yet `AtlasBusinessMetadataDef.category` is a
 *   `TypeCategory` and Type_GetBusinessMetadataDefByName/ByGuid and Type_BulkCreateBusinessMetadataDefs
 *   answer `"category": "BUSINESS_METADATA"` (the enum is `modelAsString`, i.e. open to new values).
 */
export const DATAMAP_CONTRACT_ERRATA: { enumExtensions: Record<string, readonly unknown[]> } = {
  enumExtensions: { TypeCategory: ["BUSINESS_METADATA"] },
};

/**
 * Query parameters the contract's own examples pass although the operation does not declare them, by
 * operationId. The example replay sends them (the service accepts them) instead of failing the example.
 *
 * - Lineage_Get and Lineage_GetByUniqueAttribute: `Lineage_Get.json` and `Lineage_GetByUniqueAttribute.json`
 *   pass `width`, which the 2023-09-01 contract declares for neither operation (only `depth` and
 *   `direction`); the Atlas lineage API takes it.
 * - Glossary_GetTerm: `Glossary_GetTermWithoutAssets.json` passes
 *   `excludeRelationshipTypes=AtlasGlossarySemanticAssignment`, which the operation does not declare.
 */
export const DATAMAP_REQUEST_ERRATA: Record<string, readonly string[]> = {
  Lineage_Get: ["width"],
  Lineage_GetByUniqueAttribute: ["width"],
  Glossary_GetTerm: ["excludeRelationshipTypes"],
};

/** The folder of the 2019-11-01-preview account contract (account properties, collections). */
export const ACCOUNT_CONTRACT_DIR: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Account/preview/2019-11-01-preview/",
  REFERENCE_DIR,
);

/** The account contract document. */
export const ACCOUNT_CONTRACT_FILE: URL = new URL("account.json", ACCOUNT_CONTRACT_DIR);

/** The api-version of the account contract. */
export const ACCOUNT_API_VERSION = "2019-11-01-preview";

/**
 * Where the account API is served: the contract's host is the whole `{endpoint}`, documented as
 * `https://{accountName}.purview.azure.com/account/`, so its paths (`/collections/{collectionName}`) sit
 * below `/account`, with no `/datamap/api` prefix.
 */
export const ACCOUNT_PREFIX = "/account";

/** The folder of the 2023-02-01-preview catalog contract (glossary term import, browse). */
export const CATALOG_CONTRACT_DIR: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Catalog/preview/2023-02-01-preview/",
  REFERENCE_DIR,
);

/** The catalog contract document (its prefix is `/catalog/api`). */
export const CATALOG_CONTRACT_FILE: URL = new URL("purviewcatalog.json", CATALOG_CONTRACT_DIR);

/** The api-version of the catalog contract. */
export const CATALOG_API_VERSION = "2023-02-01-preview";

/** The line printed once when the reference folder is missing outside CI. */
export const SKIP_MESSAGE =
  "contract tests skipped: ../shared/reference not found (it exists only beside CI's clone; " +
  "in CI, CI=true makes its absence a failure)";

/** Why a CI run stops when the reference folder is missing. */
export const CI_MISSING_MESSAGE =
  "../shared/reference not found, and CI is set: the contract tests cannot run. CI checks out the " +
  "reference contracts beside the repository (../shared/reference); restore that step instead of " +
  "skipping the contract tests.";

/** What the contract tests do: run, be skipped (outside CI, no reference) or fail (CI, no reference). */
export type ReferenceDecision = "run" | "skip" | "fail";

/** Whether an environment says it is CI: `CI` set to anything but empty, `0`, `false` or `no`. */
export function isCi(ci: string | undefined): boolean {
  return ci !== undefined && !["", "0", "false", "no"].includes(ci.trim().toLowerCase());
}

/**
 * The rule for a missing reference folder: present, the tests run; missing in CI (`CI=true`), the run
 * fails, since a CI without its contracts would otherwise pass with every contract test skipped; missing
 * anywhere else (a user's clone), the tests are skipped with one line saying why.
 */
export function referenceDecision(env: { CI?: string }, referenceExists: boolean): ReferenceDecision {
  if (referenceExists) return "run";
  return isCi(env.CI) ? "fail" : "skip";
}

let available: boolean | undefined;

/**
 * Whether the reference folder exists. Missing in CI ({@link referenceDecision} says "fail"), it throws
 * {@link CI_MISSING_MESSAGE}: every contract test file asks at load time, so the file, and the run, fail.
 * Missing elsewhere, the first call prints {@link SKIP_MESSAGE} to stderr unless `quiet`. Deno evaluates
 * each test file apart, so only `tests/contract/reference_test.ts` announces it (one line per run); the
 * other contract test files ask quietly and register one ignored test each, whose name says why
 * ({@link SKIPPED_SUFFIX}).
 */
export function referenceAvailable(options: { quiet?: boolean } = {}): boolean {
  available ??= applyReferenceDecision(
    referenceDecision({ CI: ciVariable() }, isDirectory(REFERENCE_DIR)),
    options.quiet ? () => {} : console.error,
  );
  return available;
}

/**
 * Acts on a {@link ReferenceDecision}: true to run, false to skip (after `say`ing {@link SKIP_MESSAGE}),
 * and for "fail" throws {@link CI_MISSING_MESSAGE}.
 */
export function applyReferenceDecision(decision: ReferenceDecision, say: (line: string) => void): boolean {
  if (decision === "fail") throw new Error(CI_MISSING_MESSAGE);
  if (decision === "skip") say(SKIP_MESSAGE);
  return decision === "run";
}

function ciVariable(): string | undefined {
  try {
    return Deno.env.get("CI");
  } catch {
    return undefined; // no env permission: not known to be CI
  }
}

/** Appended to the names of tests ignored because the reference folder is missing. */
export const SKIPPED_SUFFIX = "[skipped: ../shared/reference not found]";

function isDirectory(url: URL): boolean {
  try {
    return Deno.statSync(url).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** A Swagger 2.0 parameter, after resolving `$ref`s to `#/parameters/...`. */
export interface ContractParameter {
  name: string;
  in: "path" | "query" | "header" | "body" | "formData";
  required?: boolean;
  type?: string;
  format?: string;
  items?: Schema;
  collectionFormat?: string;
  enum?: unknown[];
  /** The body's schema (`in: body` only). */
  schema?: Schema;
}

/** One declared response of an operation. */
export interface ContractResponse {
  description?: string;
  schema?: Schema;
}

/** One operation of the contract. */
export interface ContractOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template below the API prefix, e.g. `/atlas/v2/entity/guid/{guid}`. */
  path: string;
  parameters: ContractParameter[];
  /** By status code (`"200"`, `"204"`) and `"default"`. */
  responses: Record<string, ContractResponse>;
  consumes: string[];
  produces: string[];
  /** File names (in `examples/`) of the operation's `x-ms-examples`. */
  exampleFiles: string[];
}

/** One example file: the request's parameters and the responses by status. */
export interface ContractExample {
  /** File name in `examples/`, e.g. `Entity_Get.json`. */
  file: string;
  title: string;
  /** The operation listing the example under `x-ms-examples`. */
  operationId: string;
  parameters: Record<string, unknown>;
  responses: Record<string, { body?: unknown; headers?: Record<string, unknown> }>;
}

/** A loaded contract. */
export interface Contract {
  file: URL;
  /** The whole document; schema `$ref`s resolve against it. */
  document: Record<string, unknown>;
  /** The API prefix from `x-ms-parameterized-host` (`/datamap/api`), or `basePath`. */
  prefix: string;
  operations: Map<string, ContractOperation>;
  /** By file name. */
  examples: Map<string, ContractExample>;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);
const cache = new Map<string, Promise<Contract>>();

/** Loads (once per process) the 2023-09-01 data-map contract and its examples. */
export function loadDataMapContract(): Promise<Contract> {
  return loadContract(DATAMAP_CONTRACT_FILE);
}

/** Loads (once per process) the account contract, its prefix set to {@link ACCOUNT_PREFIX}. */
export async function loadAccountContract(): Promise<Contract> {
  return { ...await loadContract(ACCOUNT_CONTRACT_FILE), prefix: ACCOUNT_PREFIX };
}

/** Loads (once per process) the 2023-02-01-preview catalog contract and its examples. */
export function loadCatalogContract(): Promise<Contract> {
  return loadContract(CATALOG_CONTRACT_FILE);
}

/** Loads (once per process) a Swagger 2.0 contract and the examples its operations list. */
export function loadContract(file: URL): Promise<Contract> {
  let loaded = cache.get(file.href);
  if (!loaded) {
    loaded = readContract(file);
    cache.set(file.href, loaded);
  }
  return loaded;
}

async function readContract(file: URL): Promise<Contract> {
  const document = JSON.parse(await Deno.readTextFile(file)) as Record<string, unknown>;
  const operations = new Map<string, ContractOperation>();
  const examples = new Map<string, ContractExample>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const [method, raw] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const op = raw as Record<string, unknown>;
      // Operations without an operationId (most of the untyped data quality contract) are named by method
      // and path, so each still counts once.
      const operationId = typeof op.operationId === "string"
        ? op.operationId
        : `${method.toUpperCase()} ${path}`;
      const parameters = mergeParameters(
        shared.map((p) => resolveParameter(document, p)),
        (Array.isArray(op.parameters) ? op.parameters : []).map((p) => resolveParameter(document, p)),
      );
      const exampleFiles: string[] = [];
      for (
        const [title, ref] of Object.entries((op["x-ms-examples"] ?? {}) as Record<string, { $ref: string }>)
      ) {
        const exampleUrl = new URL(ref.$ref, file);
        const name = exampleUrl.pathname.split("/").pop()!;
        exampleFiles.push(name);
        const body = JSON.parse(await Deno.readTextFile(exampleUrl)) as Record<string, unknown>;
        examples.set(name, {
          file: name,
          title: typeof body.title === "string" ? body.title : title,
          operationId,
          parameters: (body.parameters ?? {}) as Record<string, unknown>,
          responses: (body.responses ?? {}) as ContractExample["responses"],
        });
      }
      operations.set(operationId, {
        operationId,
        method: method.toUpperCase(),
        path,
        parameters,
        responses: (op.responses ?? {}) as Record<string, ContractResponse>,
        consumes: stringList(op.consumes ?? document.consumes),
        produces: stringList(op.produces ?? document.produces),
        exampleFiles,
      });
    }
  }
  return { file, document, prefix: apiPrefix(document), operations, examples };
}

function resolveParameter(document: unknown, parameter: unknown): ContractParameter {
  const p = parameter as Record<string, unknown>;
  if (typeof p.$ref === "string") {
    const target = resolveRef(document, p.$ref);
    if (!target) throw new Error(`unresolvable parameter $ref ${p.$ref}`);
    return target as unknown as ContractParameter;
  }
  return p as unknown as ContractParameter;
}

// Operation parameters override path-level ones with the same name and location.
function mergeParameters(shared: ContractParameter[], own: ContractParameter[]): ContractParameter[] {
  const key = (p: ContractParameter) => `${p.in}:${p.name}`;
  const ownKeys = new Set(own.map(key));
  return [...shared.filter((p) => !ownKeys.has(key(p))), ...own];
}

function apiPrefix(document: Record<string, unknown>): string {
  const host = document["x-ms-parameterized-host"] as { hostTemplate?: string } | undefined;
  const fromHost = host?.hostTemplate?.replace(/^\{[^}]+\}/, "") ?? "";
  const basePath = typeof document.basePath === "string" ? document.basePath : "";
  return (fromHost + basePath).replace(/\/+$/, "");
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The outcome of {@link matchOperation}. */
export type OperationMatch =
  | { kind: "found"; operation: ContractOperation; pathParams: Record<string, string> }
  | { kind: "method-not-declared"; path: string; declared: string[] }
  | { kind: "no-path"; reason: string };

/**
 * Finds the operation serving `method` and `pathname` (a full path, API prefix included). When several
 * templates match, the one with the most literal segments wins (`/entity/bulk` before `/entity/{x}`).
 */
export function matchOperation(contract: Contract, method: string, pathname: string): OperationMatch {
  if (!pathname.startsWith(contract.prefix + "/")) {
    return { kind: "no-path", reason: `path ${pathname} is not under the API prefix ${contract.prefix}` };
  }
  const actual = pathname.slice(contract.prefix.length).split("/").filter((s) => s !== "");
  let best: { template: string; params: Record<string, string>; literals: number } | undefined;
  const templates = new Set([...contract.operations.values()].map((op) => op.path));
  for (const template of templates) {
    const segments = template.split("/").filter((s) => s !== "");
    if (segments.length !== actual.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const expected = segments[i];
      if (expected.startsWith("{") && expected.endsWith("}")) {
        try {
          params[expected.slice(1, -1)] = decodeURIComponent(actual[i]);
        } catch {
          ok = false;
        }
      } else if (expected === actual[i]) {
        literals++;
      } else {
        ok = false;
      }
    }
    if (ok && (!best || literals > best.literals)) best = { template, params, literals };
  }
  if (!best) return { kind: "no-path", reason: `no path template of the contract matches ${pathname}` };
  const candidates = [...contract.operations.values()].filter((op) => op.path === best.template);
  const operation = candidates.find((op) => op.method === method.toUpperCase());
  if (!operation) {
    return { kind: "method-not-declared", path: best.template, declared: candidates.map((op) => op.method) };
  }
  return { kind: "found", operation, pathParams: best.params };
}

/** The operation's body parameter, if it takes one. */
export function bodyParameter(operation: ContractOperation): ContractParameter | undefined {
  return operation.parameters.find((p) => p.in === "body");
}

/**
 * The declared query parameter a name stands for. Atlas names repeated unique attributes `attr_1:qn`,
 * `attr_2:qn`, ...; the contract writes that family as `attr_N:qualifiedName`.
 */
export function queryParameter(operation: ContractOperation, name: string): ContractParameter | undefined {
  const query = operation.parameters.filter((p) => p.in === "query");
  return query.find((p) => p.name === name) ??
    query.find((p) =>
      p.name.startsWith("attr_N:") && new RegExp(`^attr_\\d+:${escape(p.name.slice(7))}$`).test(name)
    );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The response schema for a status: the declared status, else `default`. Undefined for none (204). */
export function responseFor(
  operation: ContractOperation,
  status: number,
): { declared: string; schema?: Schema } | undefined {
  const exact = operation.responses[String(status)];
  if (exact) return { declared: String(status), schema: exact.schema };
  const fallback = operation.responses.default;
  return fallback ? { declared: "default", schema: fallback.schema } : undefined;
}
