import assert from "node:assert/strict";
import {
  childPath,
  formatSchemaErrors,
  resolveRef,
  type Schema,
  type SchemaError,
  validateSchema,
} from "../support/contract/schema.ts";
import {
  bodyParameter,
  DATAMAP_CONTRACT_ERRATA,
  loadDataMapContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";

const ROOT = {
  definitions: {
    Status: { type: "string", enum: ["ACTIVE", "DELETED"] },
    Header: {
      type: "object",
      required: ["guid"],
      properties: {
        guid: { type: "string", format: "uuid" },
        status: { $ref: "#/definitions/Status" },
        version: { type: "integer", format: "int64" },
        score: { type: "number", format: "float" },
        labels: { type: "array", items: { type: "string" } },
        attributes: { type: "object", additionalProperties: {} },
      },
    },
    Entity: {
      type: "object",
      properties: {
        entity: { $ref: "#/definitions/Header" },
        referredEntities: { type: "object", additionalProperties: { $ref: "#/definitions/Header" } },
      },
    },
    Closed: {
      type: "object",
      additionalProperties: false,
      allOf: [{ $ref: "#/definitions/Named" }],
      properties: { count: { type: "integer", format: "int32" } },
    },
    Named: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    Nullable: { type: "string", "x-nullable": true },
    "a/b~c": { type: "boolean" },
    Loop: { $ref: "#/definitions/Loop" },
  },
};

const GUID = "5cf8a9e5-c9fd-4be0-8e8c-d40024263dcb";

function errorsOf(value: unknown, schema: Schema): SchemaError[] {
  return validateSchema(value, schema, { root: ROOT });
}

function ref(name: string): Schema {
  return { $ref: `#/definitions/${name}` };
}

Deno.test("a conforming value has no errors", () => {
  const value = {
    entity: {
      guid: GUID,
      status: "ACTIVE",
      version: 3,
      score: 1.5,
      labels: ["a"],
      attributes: { name: "x", size: 12, nested: { any: [1, null] } },
      extra: "allowed: the schema does not say additionalProperties: false",
    },
    referredEntities: { [GUID]: { guid: GUID } },
  };
  assert.deepEqual(errorsOf(value, ref("Entity")), []);
});

Deno.test("type mismatches are reported with JSON paths", () => {
  const errors = errorsOf(
    { entity: { guid: GUID, attributes: "nope", labels: ["a", 2], version: "3" }, referredEntities: [] },
    ref("Entity"),
  );
  assert.deepEqual(errors, [
    { path: "$.entity.version", message: "expected integer, got string" },
    { path: "$.entity.labels[1]", message: "expected string, got number" },
    { path: "$.entity.attributes", message: "expected object, got string" },
    { path: "$.referredEntities", message: "expected object, got array" },
  ]);
  assert.equal(
    formatSchemaErrors(errors.slice(0, 2)),
    "$.entity.version: expected integer, got string\n$.entity.labels[1]: expected string, got number",
  );
});

Deno.test("every primitive type is checked", () => {
  const cases: Array<[Schema, unknown, string | undefined]> = [
    [{ type: "string" }, "s", undefined],
    [{ type: "string" }, 1, "expected string, got number"],
    [{ type: "boolean" }, false, undefined],
    [{ type: "boolean" }, "false", "expected boolean, got string"],
    [{ type: "number" }, 1.25, undefined],
    [{ type: "number" }, "1", "expected number, got string"],
    [{ type: "integer" }, 7, undefined],
    [{ type: "integer" }, 7.5, "expected integer, got number 7.5"],
    [{ type: "array" }, {}, "expected array, got object"],
    [{ type: "object" }, [], "expected object, got array"],
    [{ type: "object" }, "x", "expected object, got string"],
    [{ type: "file" }, "any,csv,text", undefined],
    [{}, { anything: [1, "two", null] }, undefined],
  ];
  for (const [schema, value, message] of cases) {
    const errors = errorsOf(value, schema);
    assert.deepEqual(
      errors,
      message ? [{ path: "$", message }] : [],
      `${JSON.stringify(schema)} vs ${value}`,
    );
  }
});

Deno.test("integer formats: int32 and int64 ranges", () => {
  assert.deepEqual(errorsOf(2 ** 31 - 1, { type: "integer", format: "int32" }), []);
  assert.deepEqual(errorsOf(-(2 ** 31), { type: "integer", format: "int32" }), []);
  assert.deepEqual(errorsOf(2 ** 31, { type: "integer", format: "int32" }), [
    { path: "$", message: "2147483648 is out of range for int32" },
  ]);
  assert.deepEqual(errorsOf(1553072455110, { type: "integer", format: "int64" }), []);
  assert.equal(errorsOf(2 ** 63, { type: "integer", format: "int64" }).length, 1);
  // Atlas writes some int64 fields as 0.0; JSON.parse makes that the integer 0.
  assert.deepEqual(errorsOf(JSON.parse("0.0"), { type: "integer", format: "int64" }), []);
});

Deno.test("string formats: uuid and date-time", () => {
  assert.deepEqual(errorsOf(GUID, { type: "string", format: "uuid" }), []);
  assert.deepEqual(errorsOf("not-a-guid", { type: "string", format: "uuid" }), [
    { path: "$", message: 'expected a uuid, got "not-a-guid"' },
  ]);
  assert.deepEqual(errorsOf("2024-01-02T03:04:05.123Z", { type: "string", format: "date-time" }), []);
  assert.equal(errorsOf("yesterday", { type: "string", format: "date-time" }).length, 1);
  assert.deepEqual(errorsOf("abc", { type: "string", format: "byte" }), [], "other formats are not checked");
});

Deno.test("enum values, also through $ref", () => {
  assert.deepEqual(errorsOf("DELETED", ref("Status")), []);
  assert.deepEqual(errorsOf({ guid: GUID, status: "GONE" }, ref("Header")), [
    { path: "$.status", message: 'expected one of ["ACTIVE","DELETED"], got "GONE"' },
  ]);
  assert.deepEqual(errorsOf(2, { type: "integer", enum: [1, 2, 3] }), []);
  const extended = { root: ROOT, enumExtensions: { Status: ["PURGED"] } };
  assert.deepEqual(validateSchema("PURGED", ref("Status"), extended), [], "errata extend a named enum");
  assert.equal(validateSchema("OTHER", ref("Status"), extended).length, 1);
  assert.equal(validateSchema("PURGED", { type: "string", enum: ["A"] }, extended).length, 1);
});

Deno.test("required properties", () => {
  assert.deepEqual(errorsOf({ status: "ACTIVE" }, ref("Header")), [
    { path: "$.guid", message: "required property is missing" },
  ]);
  assert.deepEqual(errorsOf({ entity: {} }, ref("Entity")), [
    { path: "$.entity.guid", message: "required property is missing" },
  ]);
});

Deno.test("additionalProperties: a schema for map values, false to close, true or absent to allow", () => {
  const map = { type: "object", additionalProperties: { type: "array", items: { type: "string" } } };
  assert.deepEqual(errorsOf({ a: ["x"], b: [] }, map), []);
  assert.deepEqual(errorsOf({ a: ["x"], "b c": [1] }, map), [
    { path: '$["b c"][0]', message: "expected string, got number" },
  ]);
  assert.deepEqual(errorsOf({ name: "n", count: 2 }, ref("Closed")), []);
  assert.deepEqual(errorsOf({ name: "n", count: 2, other: true }, ref("Closed")), [
    { path: "$.other", message: "property is not allowed (additionalProperties: false)" },
  ]);
  assert.deepEqual(errorsOf({ x: 1 }, { type: "object", additionalProperties: true }), []);
  assert.deepEqual(errorsOf({ x: 1 }, { type: "object", properties: { y: { type: "string" } } }), []);
  // A map value's schema does not apply to the declared properties.
  const mixed = {
    type: "object",
    properties: { n: { type: "integer" } },
    additionalProperties: { type: "string" },
  };
  assert.deepEqual(errorsOf({ n: 1, s: "x" }, mixed), []);
  assert.deepEqual(errorsOf({ n: 1, s: 2 }, mixed), [{
    path: "$.s",
    message: "expected string, got number",
  }]);
});

Deno.test("allOf: every part applies, including inherited required properties", () => {
  assert.deepEqual(errorsOf({ count: 1 }, ref("Closed")), [
    { path: "$.name", message: "required property is missing" },
  ]);
  assert.deepEqual(errorsOf({ name: 3, count: 1.5 }, ref("Closed")), [
    { path: "$.name", message: "expected string, got number" },
    { path: "$.count", message: "expected integer, got number 1.5" },
  ]);
  const both = { allOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }] };
  assert.deepEqual(errorsOf({ a: 1 }, both), [{ path: "$.b", message: "required property is missing" }]);
});

Deno.test("null: allowed when x-nullable, for optional properties and map values, refused elsewhere", () => {
  assert.deepEqual(errorsOf(null, ref("Nullable")), []);
  assert.deepEqual(errorsOf(null, { type: "string", nullable: true }), []);
  assert.deepEqual(errorsOf(null, { type: "string" }), [{ path: "$", message: "expected string, got null" }]);
  assert.deepEqual(errorsOf({ guid: GUID, status: null, labels: null }, ref("Header")), []);
  assert.deepEqual(errorsOf({ guid: null }, ref("Header")), [
    { path: "$.guid", message: "expected string, got null" },
  ]);
  assert.deepEqual(errorsOf({ guid: GUID, labels: [null] }, ref("Header")), [
    { path: "$.labels[0]", message: "expected string, got null" },
  ]);
  assert.deepEqual(errorsOf({ guid: GUID, attributes: { owner: null } }, ref("Header")), []);
  const strict = { type: "object", properties: { a: { type: "string", "x-nullable": false } } };
  assert.deepEqual(errorsOf({ a: null }, strict), [{ path: "$.a", message: "expected string, got null" }]);
  const nullableRef = {
    type: "object",
    properties: { s: { $ref: "#/definitions/Status", "x-nullable": false } },
  };
  assert.equal(errorsOf({ s: null }, nullableRef).length, 1, "x-nullable next to a $ref is honoured");
});

Deno.test("$ref: JSON pointers with escapes, unresolvable and cyclic refs are errors, not crashes", () => {
  assert.deepEqual(errorsOf(true, { $ref: "#/definitions/a~1b~0c" }), []);
  assert.deepEqual(errorsOf(1, { $ref: "#/definitions/a~1b~0c" }), [
    { path: "$", message: "expected boolean, got number" },
  ]);
  assert.deepEqual(errorsOf({}, { $ref: "#/definitions/Missing" }), [
    { path: "$", message: "unresolvable $ref #/definitions/Missing" },
  ]);
  assert.deepEqual(errorsOf({}, { $ref: "other.json#/definitions/X" }), [
    { path: "$", message: "unresolvable $ref other.json#/definitions/X" },
  ]);
  assert.equal(errorsOf({}, ref("Loop"))[0].message, "$ref cycle at #/definitions/Loop");
  assert.equal(resolveRef(ROOT, "#/definitions/Status")?.type, "string");
  assert.equal(resolveRef(ROOT, "#/nothing/here"), undefined);
});

Deno.test("paths of odd keys and the start path option", () => {
  assert.equal(childPath("$", "name"), "$.name");
  assert.equal(childPath("$", "@search.count"), '$["@search.count"]');
  assert.equal(childPath("$.value", 3), "$.value[3]");
  assert.deepEqual(validateSchema(1, { type: "string" }, { path: "$body" }), [
    { path: "$body", message: "expected string, got number" },
  ]);
});

// The validator against the real contract: every example of the areas under test must validate against
// its own operation's request and response schemas. A failure here is a validator bug or a contract erratum.
Deno.test({
  name: "the contract's own examples validate against its schemas (Entity, Type, Relationship, Discovery)" +
    (referenceAvailable({ quiet: true }) ? "" : ` ${SKIPPED_SUFFIX}`),
  ignore: !referenceAvailable({ quiet: true }),
  fn: async () => {
    const contract = await loadDataMapContract();
    const failures: string[] = [];
    let checked = 0;
    for (const example of contract.examples.values()) {
      if (!/^(Entity|Type|Relationship|Discovery)_/.test(example.operationId)) continue;
      const operation = contract.operations.get(example.operationId)!;
      const body = bodyParameter(operation);
      if (body && example.parameters.body !== undefined) {
        const errors = validateSchema(example.parameters.body, body.schema ?? {}, {
          root: contract.document,
          path: "$body",
          ...DATAMAP_CONTRACT_ERRATA,
        });
        if (errors.length > 0) failures.push(`${example.file} request:\n${formatSchemaErrors(errors)}`);
      }
      for (const [status, response] of Object.entries(example.responses)) {
        const schema = operation.responses[status]?.schema;
        if (!schema || response.body === undefined) continue;
        const errors = validateSchema(response.body, schema, {
          root: contract.document,
          ...DATAMAP_CONTRACT_ERRATA,
        });
        if (errors.length > 0) failures.push(`${example.file} ${status}:\n${formatSchemaErrors(errors)}`);
      }
      checked++;
    }
    assert.ok(checked >= 80, `expected the examples of four areas, found ${checked}`);
    assert.deepEqual(failures, []);
  },
});
