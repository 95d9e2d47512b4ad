/**
 * The unified catalog's 2026-03-20-preview operations (data assets, data columns, the duplicate-name
 * counts) for the contract tests. No OpenAPI document is published for them: the reference is the contract
 * notes `../shared/reference/unified-catalog-2026.md`, whose operation lines (`  GET    dataAssets`,
 * `  POST terms/query/count   body …`) and the `query:` lines under them are read here into a
 * {@link Contract} with no examples, so the route coverage counts them like the other contracts.
 *
 * @module
 */
import { type Contract, type ContractOperation, type ContractParameter, REFERENCE_DIR } from "./reference.ts";

/** The contract notes. */
export const UNIFIED_2026_NOTES_FILE: URL = new URL("unified-catalog-2026.md", REFERENCE_DIR);

/** The api-version the notes give every operation. */
export const UNIFIED_2026_API_VERSION = "2026-03-20-preview";

/** Where the unified catalog is served: `{endpoint}/datagovernance/catalog`. */
export const UNIFIED_PREFIX = "/datagovernance/catalog";

const OPERATION_LINE = /^\s+(GET|POST|PUT|PATCH|DELETE)\s+([A-Za-z][\w/{}]*)(\s+.*)?$/;
const QUERY_LINE = /^\s+query:\s*(.*)$/;

/** The operations of the notes, by `METHOD path` (there is no operationId), in the notes' order. */
export function parseUnified2026Notes(text: string): Map<string, ContractOperation> {
  const operations = new Map<string, ContractOperation>();
  let current: ContractOperation | undefined;
  for (const line of text.split("\n")) {
    const operation = OPERATION_LINE.exec(line);
    if (operation) {
      const [, method, path, rest = ""] = operation;
      const parameters: ContractParameter[] = [...path.matchAll(/\{(\w+)\}/g)]
        .map((match) => ({ name: match[1], in: "path" as const, required: true, type: "string" }));
      // A body is named on the line (count) or on the next one (`body DataAssetRequest`); POST and PUT have one.
      if (method === "POST" || method === "PUT" || /\bbody\b/.test(rest)) {
        parameters.push({ name: "body", in: "body", required: true, schema: { type: "object" } });
      }
      current = {
        operationId: `${method} ${path}`,
        method,
        path: `/${path}`,
        parameters,
        responses: {},
        consumes: ["application/json"],
        produces: ["application/json"],
        exampleFiles: [],
      };
      operations.set(current.operationId, current);
      continue;
    }
    const query = QUERY_LINE.exec(line);
    if (query && current) {
      for (const match of query[1].matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
        const [, name, description] = match;
        current.parameters.push({
          name,
          in: "query",
          required: /REQUIRED/.test(description),
          type: /bool/.test(description) ? "boolean" : /int/.test(description) ? "integer" : "string",
        });
      }
    } else if (/^\S/.test(line)) {
      current = undefined;
    }
  }
  return operations;
}

/** Loads the notes as a contract with no examples; its prefix is {@link UNIFIED_PREFIX}. */
export async function loadUnified2026Contract(): Promise<Contract> {
  const operations = parseUnified2026Notes(await Deno.readTextFile(UNIFIED_2026_NOTES_FILE));
  if (operations.size === 0) throw new Error(`no operation lines found in ${UNIFIED_2026_NOTES_FILE}`);
  return {
    file: UNIFIED_2026_NOTES_FILE,
    document: {},
    prefix: UNIFIED_PREFIX,
    operations,
    examples: new Map(),
  };
}
