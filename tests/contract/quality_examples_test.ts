/**
 * Replays the examples of both published data quality contracts (2025-09-01-preview) against the emulator,
 * below `/purviewdataquality/api`: the typed rule contract's five (its Rules_Create.json is listed by both
 * CreateRules and CreateBulkRules, so it is replayed for each) and the four in the untyped contract's folder,
 * which no operation lists (the loader attaches them to the rule operation with the same method and path).
 * For each: prepare the rules it refers to, build the request from its parameters and the operation's
 * path template, send it to a fresh seeded emulator, and check that
 *   (a) the status is the example's own, except the ERRATA below,
 *   (b) a 2xx body validates against the typed contract's response schema for that method and path (the
 *       untyped contract declares no schema for the rule operations); 204: no body,
 *   (c) an error body has the azure error shape the emulator chose (QUALITY_ERROR_SCHEMA of
 *       quality.ts), for the ERROR_CASES at the end.
 *
 * The examples name no path parameters where a body says them (create, update): the scenario takes the
 * business domain, data product and asset from the rule's references, as a client would.
 *
 * The contracts live in ../shared/reference beside CI's clone only; without them every test here is ignored.
 */
import assert from "node:assert/strict";
import { EmulatorApi, type Json } from "../support/contract/emulator_api.ts";
import {
  type Contract,
  type ContractExample,
  type ContractOperation,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import {
  assertConforms,
  buildRequest,
  type ErrorCase,
  replayErrorCase,
  type ReplayProfile,
  replyProblems,
  withEmulator,
} from "../support/contract/replay.ts";
import {
  loadTypedQualityContract,
  loadUntypedQualityContract,
  QUALITY_API_VERSION,
  QUALITY_ERROR_SCHEMA,
  untypedExampleFiles,
} from "../support/contract/quality.ts";

/**
 * Where an example contradicts its own operation, and what the replay expects instead. The typed
 * contract's Rules_Update.json answers 204, while UpdateRule declares only 200 with the updated rule; the
 * emulator follows the declaration.
 */
const ERRATA: Record<string, { status: number; reason: string }> = {
  "typed:Rules_Update.json": {
    status: 200,
    reason: "UpdateRule declares 200 with the rule; the example says 204",
  },
};

/** The create example's rule: what the get, update and delete examples find. */
async function createExampleRule(api: EmulatorApi, typed: Contract, params: Json): Promise<void> {
  const rule = typed.examples.get("Rules_Create.json")!.parameters.body as Json;
  await api.ok("create the rule of Rules_Create.json", "POST", rulesPath(params), {
    query: { "api-version": QUALITY_API_VERSION },
    body: rule,
  });
}

function rulesPath(params: Json): string {
  return `/business-domains/${params.businessDomainId}/data-products/${params.dataProductId}/data-assets/` +
    `${params.dataAssetId}/global-rules`;
}

/** Fills the path's ids from the body's references when the example leaves them out. */
function fillScope(params: Json): void {
  const body = params.body as Json | undefined;
  for (
    const [param, field] of [["businessDomainId", "businessDomain"], ["dataProductId", "dataProduct"], [
      "dataAssetId",
      "dataAsset",
    ]]
  ) {
    params[param] ??= ((body?.[field] ?? {}) as Json).referenceId;
  }
}

/** Arranges the emulator for an example; answers the steps taken, for the report. */
async function prepare(
  api: EmulatorApi,
  typed: Contract,
  operation: ContractOperation,
  example: ContractExample,
  params: Json,
): Promise<string[]> {
  fillScope(params);
  const steps = ["take the path's ids from the rule's references where the example has none"];
  const key = `${operation.method} ${operation.path.endsWith("{ruleId}") ? "one" : "list"}`;
  if (example.file === "Rules_Delete.json") {
    delete params.createdAt; // not a parameter of the operation; the example names no rule
    params.ruleId = (typed.examples.get("Rules_Create.json")!.parameters.body as Json).id;
    steps.push("drop the undeclared createdAt, delete the rule of Rules_Create.json");
  }
  if (key === "GET list") {
    for (const rule of example.responses["200"].body as Json[]) {
      await api.ok(`create rule ${rule.id}`, "POST", rulesPath(params), {
        query: { "api-version": QUALITY_API_VERSION },
        body: rule,
      });
    }
    steps.push("create the rules the example lists");
  } else if (key.endsWith("one")) {
    if (operation.method === "PUT") params.ruleId ??= (params.body as Json).id;
    await createExampleRule(api, typed, params);
    steps.push("create the rule of Rules_Create.json");
  }
  return steps;
}

async function replay(
  label: "typed" | "untyped",
  contract: Contract,
  typed: Contract,
  operation: ContractOperation,
  example: ContractExample,
): Promise<void> {
  const profile: ReplayProfile = {
    contract,
    apiVersion: QUALITY_API_VERSION,
    errorSchema: () => QUALITY_ERROR_SCHEMA,
  };
  const schemaProfile: ReplayProfile = { ...profile, contract: typed };
  const typedOperation = [...typed.operations.values()].find((op) =>
    op.method === operation.method && op.path === operation.path
  );
  assert.ok(typedOperation, `the typed contract has no ${operation.method} ${operation.path}`);
  const statuses = Object.keys(example.responses).map(Number);
  assert.equal(statuses.length, 1, `${example.file} answers one status`);
  const expected = ERRATA[`${label}:${example.file}`]?.status ?? statuses[0];
  await withEmulator(async (emulator) => {
    const api = new EmulatorApi(emulator.url, contract, QUALITY_API_VERSION);
    const params = structuredClone(example.parameters) as Json;
    const setup = await prepare(api, typed, operation, example, params);
    const request = buildRequest(profile, operation, params, example.file);
    const reply = await api.send(request.method, request.path, { query: request.query, body: request.body });
    const problems = replyProblems(schemaProfile, typedOperation, expected, reply);
    if (reply.status === expected && request.method === "GET") {
      problems.push(...sameRules(example, reply.json));
    }
    assertConforms({
      file: example.file,
      operationId: operation.operationId,
      problems,
      prefix: contract.prefix,
      request,
      setup,
      reply,
    });
  });
}

/** A GET answers the rules the example shows (by id and name), not merely rule-shaped ones. */
function sameRules(example: ContractExample, answer: unknown): string[] {
  const pick = (value: unknown) =>
    (Array.isArray(value) ? value : [value]).map((r) => `${(r as Json).id}`).sort();
  const expected = pick(example.responses["200"].body);
  const actual = pick(answer);
  return JSON.stringify(expected) === JSON.stringify(actual)
    ? []
    : [`answers rules ${actual.join(", ")}, the example shows ${expected.join(", ")}`];
}

const RULE = "/business-domains/bd/data-products/dp/data-assets/asset/global-rules";
const V = { "api-version": QUALITY_API_VERSION };

const ERROR_CASES: ErrorCase[] = [
  {
    name: "CreateRules without the required name",
    operationId: "CreateRules",
    status: 400,
    send: (api) =>
      api.send("POST", RULE, {
        query: V,
        body: { id: "123e4567-e89b-12d3-a456-426614174000", type: "Completeness", status: "Active" },
      }),
  },
  {
    name: "GetRule of an unknown rule",
    operationId: "GetRule",
    status: 404,
    send: (api) => api.send("GET", `${RULE}/123e4567-e89b-12d3-a456-426614174000`, { query: V }),
  },
  {
    name: "UpdateRule of an unknown rule",
    operationId: "UpdateRule",
    status: 404,
    send: (api) =>
      api.send("PUT", `${RULE}/123e4567-e89b-12d3-a456-426614174000`, {
        query: V,
        body: { id: "123e4567-e89b-12d3-a456-426614174000", name: "n", type: "t", status: "Active" },
      }),
  },
  {
    name: "UpdateRule whose body names another rule",
    operationId: "UpdateRule",
    status: 400,
    send: async (api) => {
      const rule = { id: "123e4567-e89b-12d3-a456-426614174000", name: "n", type: "t", status: "Active" };
      await api.ok("create rule", "POST", RULE, { query: V, body: rule });
      return api.send("PUT", `${RULE}/${rule.id}`, {
        query: V,
        body: { ...rule, id: "223e4567-e89b-12d3-a456-426614174111" },
      });
    },
  },
  {
    name: "CreateBulkRules with one bad rule stores none",
    operationId: "CreateBulkRules",
    status: 400,
    send: async (api) => {
      const good = { id: "123e4567-e89b-12d3-a456-426614174000", name: "n", type: "t", status: "Active" };
      const reply = await api.send("POST", RULE.replace("/global-rules", "/bulk/global-rules"), {
        query: V,
        body: [good, { ...good, id: "223e4567-e89b-12d3-a456-426614174111", score: 101 }],
      });
      const after = await api.send("GET", RULE, { query: V });
      assert.deepEqual(after.json, [], "a refused bulk create stores nothing");
      return reply;
    },
  },
];

if (!referenceAvailable({ quiet: true })) {
  Deno.test({ name: `data quality contract examples ${SKIPPED_SUFFIX}`, ignore: true, fn() {} });
} else {
  const typed = await loadTypedQualityContract();
  const untyped = await loadUntypedQualityContract();
  for (const [label, contract] of [["typed", typed], ["untyped", untyped]] as const) {
    for (const operation of contract.operations.values()) {
      for (const file of operation.exampleFiles) {
        const example = contract.examples.get(file)!;
        const errata = ERRATA[`${label}:${file}`];
        Deno.test(
          `data quality ${label} contract example ${file} (${operation.operationId})` +
            (errata ? ` at ${errata.status}: ${errata.reason}` : ""),
          () => replay(label, contract, typed, operation, example),
        );
      }
    }
  }

  Deno.test("data quality untyped contract: every example of its folder is replayed", async () => {
    assert.deepEqual(await untypedExampleFiles(), [...untyped.examples.keys()].sort());
    assert.equal(untyped.operations.size, 84);
    assert.equal(typed.operations.size, 6);
  });

  for (const errorCase of ERROR_CASES) {
    Deno.test(`data quality contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(
        { contract: typed, apiVersion: QUALITY_API_VERSION, errorSchema: () => QUALITY_ERROR_SCHEMA },
        errorCase,
      ));
  }
}
