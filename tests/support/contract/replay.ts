/**
 * The shared machinery of the contract example replays (data map, account, catalog, scanning): build the
 * request an example describes from its operation's method, path template and declared parameters; check
 * the answer's status and body against the operation's response schema or the contract's error shape; run
 * each replay, and each error case, against a fresh seeded emulator.
 *
 * A {@link ReplayProfile} says what differs between contracts: the api-version sent when an example names
 * none, the enum errata of its schemas, the undeclared query parameters its own examples pass (request
 * errata) and the shape of its error bodies.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { EmulatorApi, excerpt, type Json, type Reply } from "./emulator_api.ts";
import type { Contract, ContractExample, ContractOperation } from "./reference.ts";
import { formatSchemaErrors, type Schema, validateSchema } from "./schema.ts";

/** What differs between the contracts replayed. */
export interface ReplayProfile {
  contract: Contract;
  /** Sent when the example has no `api-version` parameter. */
  apiVersion: string;
  /** Enum values accepted besides a definition's own (contract errata). */
  enumExtensions?: Record<string, readonly unknown[]>;
  /** Undeclared query parameters the contract's own examples pass, by operationId (contract errata). */
  requestErrata?: Record<string, readonly string[]>;
  /** The schema an error body must match. */
  errorSchema(operation: ContractOperation): Schema;
  /** File name of a `formData` file part. */
  formFileName?: string;
  /** Content type of a `formData` file part. */
  formFileType?: string;
}

/**
 * The error shape of the azure-style contracts (account, scanning): the operation's declared error (else
 * `ErrorResponseModel`), with the code and message every error carries made required.
 */
export function azureErrorSchema(operation: ContractOperation): Schema {
  const declared = operation.responses.default?.schema ?? { $ref: "#/definitions/ErrorResponseModel" };
  return {
    allOf: [declared, {
      type: "object",
      required: ["error"],
      properties: { error: { type: "object", required: ["code", "message"] } },
    }],
  };
}

/** A request built from an example. */
export interface BuiltRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  form?: FormData;
}

/** The request an example describes: the operation's method and path template, filled from `params`. */
export function buildRequest(
  profile: ReplayProfile,
  operation: ContractOperation,
  params: Json,
  file: string,
): BuiltRequest {
  const declared = new Set(operation.parameters.map((p) => p.name));
  const errata = new Set(profile.requestErrata?.[operation.operationId] ?? []);
  const ignored = new Set(["Endpoint", "endpoint", "api-version", "Content-Type"]);
  for (const name of Object.keys(params)) {
    if (!ignored.has(name) && !declared.has(name) && !errata.has(name)) {
      throw new Error(`${file}: parameter ${name} is not declared by ${operation.operationId}`);
    }
  }
  let path = operation.path;
  const query: Record<string, string | string[]> = {};
  let requestBody: unknown;
  let form: FormData | undefined;
  for (const parameter of operation.parameters) {
    const value = params[parameter.name];
    if (value === undefined) {
      if (parameter.required && parameter.name !== "api-version" && parameter.in !== "header") {
        throw new Error(`${file}: required parameter ${parameter.name} has no value`);
      }
      continue;
    }
    switch (parameter.in) {
      case "path":
        if (parameter.name === "endpoint" || parameter.name === "Endpoint") break;
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        break;
      case "query": {
        if (parameter.name === "api-version") break;
        const values = Array.isArray(value) ? value.map(String) : [String(value)];
        if (parameter.name.startsWith("attr_N:")) {
          values.forEach((item, i) => query[`attr_${i + 1}:${parameter.name.slice(7)}`] = item);
        } else {
          query[parameter.name] = values.length === 1 && !Array.isArray(value) ? values[0] : values;
        }
        break;
      }
      case "body":
        requestBody = value;
        break;
      case "formData":
        form ??= new FormData();
        form.append(
          parameter.name,
          new Blob([String(value)], { type: profile.formFileType ?? "text/csv" }),
          profile.formFileName ?? "business_metadata.csv",
        );
        break;
      case "header":
        break;
      default:
        throw new Error(`${file}: parameter location ${parameter.in} is not supported`);
    }
  }
  for (const name of errata) {
    const value = params[name];
    if (value !== undefined && !declared.has(name)) query[name] = String(value);
  }
  query["api-version"] = String(params["api-version"] ?? profile.apiVersion);
  return { method: operation.method, path, query, body: requestBody, form };
}

/** The request as one line (plus its body), for messages. */
export function describeRequest(prefix: string, request: BuiltRequest): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
  }
  const body = request.form
    ? " (multipart file)"
    : request.body === undefined
    ? ""
    : `\n  body: ${excerpt(JSON.stringify(request.body), 600)}`;
  return `${request.method} ${prefix}${request.path}?${search}${body}`;
}

/** Schema problems of `value`, as one block (empty when it conforms). */
export function validate(profile: ReplayProfile, value: unknown, schema: Schema): string[] {
  const errors = validateSchema(value, schema, {
    root: profile.contract.document,
    enumExtensions: profile.enumExtensions,
  });
  return errors.length === 0 ? [] : [formatSchemaErrors(errors)];
}

/** Problems with an error answer: not JSON, or not the contract's error shape. */
export function errorBodyProblems(
  profile: ReplayProfile,
  operation: ContractOperation,
  reply: Reply,
): string[] {
  if (reply.json === undefined) return [`error body is not JSON: ${excerpt(reply.text, 300)}`];
  return validate(profile, reply.json, profile.errorSchema(operation)).map((e) =>
    `error body does not match:\n${e}`
  );
}

/** Problems with an answer to an example: status, then body against the response or error schema. */
export function replyProblems(
  profile: ReplayProfile,
  operation: ContractOperation,
  expected: number,
  reply: Reply,
  recordedSchema?: Schema,
): string[] {
  const declared = Object.keys(operation.responses).join(", ");
  if (reply.status !== expected) {
    return [
      `status ${reply.status}, the example answers ${expected} (the contract declares ${declared})`,
      ...(reply.status >= 400 ? errorBodyProblems(profile, operation, reply) : []),
    ];
  }
  const schema = recordedSchema ?? operation.responses[String(expected)]?.schema;
  if (!schema) {
    return reply.text === "" ? [] : [`${expected} must have no body, got ${excerpt(reply.text, 300)}`];
  }
  if (schema.type === "file") return [];
  const problems: string[] = [];
  if (!/^application\/json/i.test(reply.headers.get("content-type") ?? "")) {
    problems.push(`content-type ${reply.headers.get("content-type")}, expected application/json`);
  }
  if (reply.json === undefined) return [...problems, `body is not JSON: ${excerpt(reply.text, 300)}`];
  return [
    ...problems,
    ...validate(profile, reply.json, schema).map((e) => `body does not match the contract:\n${e}`),
  ];
}

/** Runs `run` against a fresh seeded emulator, closed afterwards. */
export async function withEmulator<T>(run: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator({ seed: true });
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

/** Whether an environment flag is set (1, true, yes); false without env permission. */
export function envFlag(name: string): boolean {
  try {
    return ["1", "true", "yes"].includes((Deno.env.get(name) ?? "").toLowerCase());
  } catch {
    return false;
  }
}

/** Fails with a report a reader can act on: the problems, the request sent, the setup and the answer. */
export function assertConforms(report: {
  file: string;
  operationId: string;
  problems: string[];
  prefix: string;
  request: BuiltRequest;
  setup: string[] | undefined;
  reply: Reply;
}): void {
  if (report.problems.length === 0) return;
  assert.fail([
    `${report.file} (${report.operationId}) does not conform:`,
    ...report.problems.map((p) => `- ${p}`),
    `request: ${describeRequest(report.prefix, report.request)}`,
    `setup: ${report.setup ? report.setup.join("; ") : "none"}`,
    `answer: HTTP ${report.reply.status} ${excerpt(report.reply.text)}`,
  ].join("\n"));
}

/** What a scenario gets to arrange the emulator before its example is replayed. */
export interface ReplayContext {
  api: EmulatorApi;
  /** The example's parameters (a deep copy): rewrite them in place. */
  params: Json;
  example: ContractExample;
  contract: Contract;
}

/** The set-up an example needs, in words for the report and as code. */
export interface ReplayScenario {
  steps: string[];
  prepare(context: ReplayContext): void | Promise<void>;
}

/**
 * Every entry of a contract's scenario table names one of its examples, and every example has an entry: a
 * new example, or one renamed upstream, fails here instead of going unreplayed.
 */
export function assertScenariosCoverExamples(
  examples: readonly ContractExample[],
  scenarios: Readonly<Record<string, ReplayScenario>>,
): void {
  const files = new Set(examples.map((e) => e.file));
  const stale = Object.keys(scenarios).filter((file) => !files.has(file));
  assert.deepEqual(stale, [], "scenario entries naming no example of the contract");
  assert.deepEqual(
    examples.filter((e) => !scenarios[e.file]).map((e) => e.file),
    [],
    "examples with no setup",
  );
}

/**
 * Where Microsoft's recorded traffic shows the service answering otherwise than the contract's example:
 * the status and body schema the service answered, and the recording that shows it.
 */
export interface RecordedAnswer {
  status: number;
  schema: Schema;
  /** The recording: repository and path. */
  recording: string;
}

/**
 * Replays one example against a fresh seeded emulator: the scenario's set-up, the request the example
 * describes, and the answer checked against the contract (plus `extraProblems` when the status is the
 * expected one).
 *
 * The expected status is the example's only one, or `status` for an example that answers several. An
 * example answering both 201 and 200 replays its 200 onto what the same request created: the request is
 * sent once first, and must answer 201. With `recorded`, the answer is checked against what the service
 * was recorded answering instead.
 */
export async function replayExample(
  profile: ReplayProfile,
  example: ContractExample,
  scenario: ReplayScenario | undefined,
  extraProblems?: (operation: ContractOperation, reply: Reply) => string[],
  status?: number,
  recorded?: RecordedAnswer,
): Promise<void> {
  const contract = profile.contract;
  const operation = contract.operations.get(example.operationId)!;
  const statuses = Object.keys(example.responses).map(Number);
  if (recorded) {
    assert.ok(!statuses.includes(recorded.status), `${example.file} already answers ${recorded.status}`);
  } else if (status === undefined) {
    assert.equal(statuses.length, 1, `${example.file} should answer one status, has ${statuses.join(", ")}`);
  } else {
    assert.ok(statuses.includes(status), `${example.file} does not answer ${status}`);
  }
  const expected = recorded?.status ?? status ?? statuses[0];
  await withEmulator(async (emulator) => {
    const api = new EmulatorApi(emulator.url, contract, profile.apiVersion);
    const params = structuredClone(example.parameters);
    await scenario?.prepare({ api, params, example, contract });
    const request = buildRequest(profile, operation, params, example.file);
    const send = () =>
      api.send(request.method, request.path, {
        query: request.query,
        body: request.body,
        form: request.form,
      });
    const setup = scenario ? [...scenario.steps] : undefined;
    if (expected === 200 && statuses.includes(201)) {
      const first = await send();
      assert.equal(
        first.status,
        201,
        `the first ${example.file} request should create: ${excerpt(first.text)}`,
      );
      setup?.push("send the example's request once, creating what it names");
    }
    const reply = await send();
    const problems = replyProblems(profile, operation, expected, reply, recorded?.schema);
    if (extraProblems && reply.status === expected) problems.push(...extraProblems(operation, reply));
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

/** An error answer the emulator must give in the contract's error shape. */
export interface ErrorCase {
  name: string;
  operationId: string;
  status: number;
  send(api: EmulatorApi): Promise<Reply>;
}

/** Sends an error case to a fresh seeded emulator; its status and error body must be the contract's. */
export async function replayErrorCase(profile: ReplayProfile, errorCase: ErrorCase): Promise<void> {
  const operation = profile.contract.operations.get(errorCase.operationId)!;
  await withEmulator(async (emulator) => {
    const reply = await errorCase.send(new EmulatorApi(emulator.url, profile.contract, profile.apiVersion));
    const problems = [
      ...(reply.status === errorCase.status ? [] : [`status ${reply.status}, expected ${errorCase.status}`]),
      ...errorBodyProblems(profile, operation, reply),
    ];
    assert.deepEqual(problems, [], `answer: HTTP ${reply.status} ${excerpt(reply.text)}`);
  });
}
