/**
 * The two published data quality contracts (2025-09-01-preview) for the contract tests, both served by the
 * emulator below {@link QUALITY_PREFIX} (neither declares a host or base path; Microsoft Learn writes
 * `{endpoint}/purviewdataquality/api/...`):
 *
 * - the untyped one, in a folder misspelled as published (`Azure.Analaytics.Purview.DataQuality`): 84
 *   operations, most without an operationId (the loader names those `METHOD path`), and four examples in its
 *   `examples/` folder that no operation lists under `x-ms-examples`; {@link loadUntypedQualityContract}
 *   attaches them to the rule operations with the same method and path;
 * - the typed one (`Azure.Analytics.Purview.DataQuality`): the six global rule operations with RuleEntity
 *   and five examples.
 *
 * Its error shape is the azure one (`azureErrorSchema` of replay.ts), which the emulator chose since neither
 * contract declares one (see `lib/emulator/quality/errors.ts`).
 *
 * @module
 */
import { type Contract, type ContractExample, loadContract, REFERENCE_DIR } from "./reference.ts";
import { QUALITY_PREFIX } from "../../../lib/emulator/quality/area.ts";

export { QUALITY_PREFIX };

const DATA_PLANE = "rest-specs/specification/purview/data-plane/";

/** The untyped contract (84 operations), folder name misspelled as published. */
export const UNTYPED_QUALITY_CONTRACT_FILE: URL = new URL(
  `${DATA_PLANE}Azure.Analaytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`,
  REFERENCE_DIR,
);

/** The typed rule contract (6 operations). */
export const TYPED_QUALITY_CONTRACT_FILE: URL = new URL(
  `${DATA_PLANE}Azure.Analytics.Purview.DataQuality/preview/2025-09-01-preview/purviewDataQuality.json`,
  REFERENCE_DIR,
);

/** The api-version of both contracts. */
export const QUALITY_API_VERSION = "2025-09-01-preview";

const RULES =
  "/business-domains/{businessDomainId}/data-products/{dataProductId}/data-assets/{dataAssetId}/global-rules";

/**
 * Where each example of the untyped contract's folder belongs: its own `operationId` names an operation of
 * the typed contract, and the untyped one has the same method and path without an id.
 */
const UNTYPED_EXAMPLE_OPERATIONS: Record<string, string> = {
  "Rules_Create.json": `POST ${RULES}`,
  "Rules_Get.json": `GET ${RULES}`,
  "Rule_Get.json": `GET ${RULES}/{ruleId}`,
  "Rules_Delete.json": `DELETE ${RULES}/{ruleId}`,
};

/** Loads (once per process) the typed rule contract; its prefix is {@link QUALITY_PREFIX}. */
export async function loadTypedQualityContract(): Promise<Contract> {
  return { ...await loadContract(TYPED_QUALITY_CONTRACT_FILE), prefix: QUALITY_PREFIX };
}

/** Loads (once per process) the untyped contract with the examples of its folder attached. */
export async function loadUntypedQualityContract(): Promise<Contract> {
  const contract = await loadContract(UNTYPED_QUALITY_CONTRACT_FILE);
  const examples = new Map<string, ContractExample>();
  const operations = new Map(contract.operations);
  for (const [file, operationId] of Object.entries(UNTYPED_EXAMPLE_OPERATIONS)) {
    const operation = operations.get(operationId);
    if (!operation) throw new Error(`the untyped data quality contract has no operation ${operationId}`);
    const body = JSON.parse(await Deno.readTextFile(new URL(`examples/${file}`, contract.file))) as Record<
      string,
      unknown
    >;
    examples.set(file, {
      file,
      title: String(body.title ?? file),
      operationId,
      parameters: (body.parameters ?? {}) as Record<string, unknown>,
      responses: (body.responses ?? {}) as ContractExample["responses"],
    });
    operations.set(operationId, { ...operation, exampleFiles: [file] });
  }
  return { ...contract, prefix: QUALITY_PREFIX, operations, examples };
}

/** The example files of the untyped contract's folder (to check none is left unattached). */
export async function untypedExampleFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("examples/", UNTYPED_QUALITY_CONTRACT_FILE))) {
    if (entry.isFile && entry.name.endsWith(".json")) files.push(entry.name);
  }
  return files.sort();
}

/**
 * The error body the emulator answers on every data quality path (neither contract declares one):
 * `{"error": {code, message, target?, details}}`, code and message required.
 */
export const QUALITY_ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "details"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        target: { type: "string" },
        details: { type: "array" },
      },
    },
  },
};
