/**
 * Property tests of the argument parser (`parseOperationArgs`): values of generated zod schemas, written
 * as an argument list in any of the accepted spellings and orders, come back as the values the schema
 * parses; for every operation of the real registry, parsing typed values agrees with the schema (accepted
 * with the same data, or refused with a UsageError); and no argument list whatever makes it throw anything
 * but a UsageError. Seeds are fixed (see tests/support/property.ts).
 */
import assert from "node:assert/strict";
import { parseOperationArgs } from "../../cli/args.ts";
import { z } from "../../lib/deps/zod.ts";
import { UsageError } from "../../lib/core/errors.ts";
import { type InputField, inputFields, toKebab } from "../../lib/operations/fields.ts";
import { createOperationRegistry } from "../../lib/operations/mod.ts";
import { defineOperation, type Operation, READ } from "../../lib/operations/types.ts";
import { fc, propertyRuns } from "../support/property.ts";

type Kind = "string" | "integer" | "number" | "boolean" | "enum" | "list" | "json" | "flagDefault";

interface FieldSpec {
  name: string;
  kind: Kind;
  optional: boolean;
  choices: string[];
}

/** camelCase names: `limit`, `glossaryGuid`, `bm2Name`; `output` and `help` now and then (they win over the globals). */
const fieldName = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.tuple(
      fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/),
      fc.array(fc.stringMatching(/^[A-Z][a-z0-9]{0,5}$/), { maxLength: 2 }),
    ).map(([head, tail]) => head + tail.join("")),
  },
  { weight: 1, arbitrary: fc.constantFrom("output", "help") },
);

const anyText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom(
    "",
    "-",
    "--",
    "-x",
    "--verbose",
    "--output=table",
    "a=b",
    " spaced ",
    "=",
    "\u202Eevil",
    "é",
  ),
);

const fieldSpec = fc.record({
  name: fieldName,
  kind: fc.constantFrom<Kind>(
    "string",
    "integer",
    "number",
    "boolean",
    "enum",
    "list",
    "json",
    "flagDefault",
  ),
  optional: fc.boolean(),
  choices: fc.uniqueArray(anyText, { minLength: 1, maxLength: 4 }),
});

function zodOf(spec: FieldSpec): z.ZodType {
  const base = (() => {
    switch (spec.kind) {
      case "string":
        return z.string();
      case "integer":
        return z.number().int();
      case "number":
        return z.number();
      case "boolean":
        return z.boolean();
      case "flagDefault":
        return z.boolean().default(false);
      case "enum":
        return z.enum(spec.choices as [string, ...string[]]);
      case "list":
        return z.array(z.string());
      case "json":
        return z.record(z.string(), z.unknown());
    }
  })();
  return spec.optional && spec.kind !== "flagDefault" ? base.optional() : base;
}

function valueOf(spec: FieldSpec): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case "string":
      return anyText;
    case "integer":
      return fc.maxSafeInteger();
    case "number":
      // -0 is written "0"; every other finite double survives String() and Number().
      return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0));
    case "boolean":
    case "flagDefault":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...spec.choices);
    case "list":
      return fc.array(anyText, { minLength: 1, maxLength: 4 });
    case "json":
      return fc.dictionary(anyText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  }
}

/** The argument words for one value, in a spelling picked by `style`. */
function words(field: InputField, spec: FieldSpec, value: unknown, style: number): string[] {
  const flag = `--${style % 2 === 0 ? field.flag : field.name}`;
  const inline = style % 3 !== 0;
  const one = (text: string) => (inline ? [`${flag}=${text}`] : [flag, text]);
  switch (spec.kind) {
    case "boolean":
    case "flagDefault": {
      if (value === true && style % 5 === 0) return [flag];
      const spellings = value ? ["true", "1", "yes", "TRUE", "Yes"] : ["false", "0", "no", "FALSE", "No"];
      return [`${flag}=${spellings[style % spellings.length]}`];
    }
    case "list":
      return (value as string[]).flatMap(one);
    case "json":
      return one(JSON.stringify(value));
    case "integer":
    case "number":
      return one(style % 7 === 0 ? ` ${String(value)} ` : String(value));
    default:
      return one(value as string);
  }
}

const generatedCase = fc.uniqueArray(fieldSpec, {
  minLength: 1,
  maxLength: 6,
  selector: (spec) => toKebab(spec.name),
}).chain((specs) =>
  fc.record({
    specs: fc.constant(specs),
    // `undefined` leaves an optional field out.
    values: fc.tuple(
      ...specs.map((spec) => spec.optional ? fc.option(valueOf(spec), { nil: undefined }) : valueOf(spec)),
    ),
    order: fc.shuffledSubarray(specs.map((_, i) => i), { minLength: specs.length, maxLength: specs.length }),
    styles: fc.array(fc.nat({ max: 1000 }), { minLength: specs.length, maxLength: specs.length }),
    verbose: fc.boolean(),
  })
);

Deno.test("property: values of generated schemas written as options parse back to the same values", () => {
  fc.assert(
    fc.property(generatedCase, ({ specs, values, order, styles, verbose }) => {
      const schema = z.object(Object.fromEntries(specs.map((spec) => [spec.name, zodOf(spec)])));
      const operation: Operation = defineOperation({
        id: "prop.test",
        group: "prop",
        command: "test",
        summary: "generated",
        input: schema,
        annotations: READ,
        run: () => Promise.resolve(null),
      });
      const fields = new Map(inputFields(schema).map((field) => [field.name, field]));
      const given: Record<string, unknown> = {};
      const argv: string[] = verbose ? ["-v"] : [];
      for (const i of order) {
        if (values[i] === undefined) continue;
        // A JSON option carries what JSON can: -0 inside it is written, and read back, as 0.
        given[specs[i].name] = specs[i].kind === "json" ? JSON.parse(JSON.stringify(values[i])) : values[i];
        argv.push(...words(fields.get(specs[i].name)!, specs[i], values[i], styles[i]));
      }
      const parsed = parseOperationArgs(operation, argv);
      assert.deepEqual(parsed.input, schema.parse(given));
      // A field named help or output is the operation's: the global flag is then never set by it.
      assert.equal(parsed.global.help, false);
      assert.equal(parsed.global.verbose, verbose);
    }),
    propertyRuns(400),
  );
});

const registry = createOperationRegistry();
const operations = registry.all();

/** A value of a field's command-line kind, biased to what real schemas accept. */
function typedValue(field: InputField): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.oneof(
        fc.integer({
          min: field.minimum ?? 0,
          max: Math.min(field.maximum ?? 100, (field.minimum ?? 0) + 100),
        }),
        fc.integer({ min: -5, max: 5000 }),
      );
    case "number":
      return fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: -5, max: 5000 }));
    case "string-list":
      return fc.array(field.enum ? fc.constantFrom(...field.enum) : anyText, { minLength: 1, maxLength: 3 });
    case "json":
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return field.enum
        ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...field.enum) }, {
          weight: 1,
          arbitrary: anyText,
        })
        : fc.oneof(anyText, fc.uuid(), fc.constantFrom("contoso", "Finance", "https://x.test/a"));
  }
}

function argvFor(field: InputField, value: unknown): string[] {
  const flag = `--${field.flag}`;
  switch (field.kind) {
    case "boolean":
      return [`${flag}=${value}`];
    case "string-list":
      return (value as string[]).flatMap((item) => [flag, item]);
    case "json":
      return [`${flag}=${JSON.stringify(value)}`];
    default:
      return [flag, String(value)];
  }
}

const registryCase = fc.constantFrom(...operations).chain((operation) => {
  const fields = inputFields(operation.input);
  return fc.record({
    operation: fc.constant(operation),
    values: fc.tuple(
      ...fields.map((field) =>
        fc.option(typedValue(field), { nil: undefined, freq: field.required ? 10 : 2 })
      ),
    ),
  });
});

Deno.test("property: for every registry operation, parsing typed options agrees with its schema", () => {
  fc.assert(
    fc.property(registryCase, ({ operation, values }) => {
      const fields = inputFields(operation.input);
      const given: Record<string, unknown> = {};
      const argv: string[] = [];
      fields.forEach((field, i) => {
        if (values[i] === undefined) return;
        given[field.name] = field.kind === "json" ? JSON.parse(JSON.stringify(values[i])) : values[i];
        argv.push(...argvFor(field, values[i]));
      });
      const expected = operation.input.safeParse(given);
      let parsed: ReturnType<typeof parseOperationArgs> | UsageError;
      try {
        parsed = parseOperationArgs(operation, argv);
      } catch (error) {
        assert.ok(error instanceof UsageError, `${operation.id}: ${error}`);
        parsed = error;
      }
      if (expected.success) {
        assert.ok(!(parsed instanceof UsageError), `${operation.id} ${argv.join(" ")}: ${parsed}`);
        assert.deepEqual(parsed.input, expected.data);
      } else {
        assert.ok(parsed instanceof UsageError, `${operation.id} accepted ${JSON.stringify(argv)}`);
        assert.match(parsed.message, new RegExp(`^${operation.group} ${operation.command}: `));
      }
    }),
    propertyRuns(500),
  );
});

/** Words that look like options, values, separators and junk. */
function junkWord(operation: Operation): fc.Arbitrary<string> {
  const flags = inputFields(operation.input).flatMap((field) => [field.flag, field.name]);
  const option = fc.constantFrom(
    ...flags,
    "output",
    "verbose",
    "help",
    "profile",
    "constructor",
    "__proto__",
  );
  return fc.oneof(
    option.map((flag) => `--${flag}`),
    fc.tuple(option, anyText).map(([flag, value]) => `--${flag}=${value}`),
    fc.constantFrom("-o", "-v", "-h", "-ovh", "-x", "--", "-", "--=", "---x", "--no-verbose", "-o=json"),
    anyText,
  );
}

Deno.test("property: any argument list parses or is a UsageError, for every registry operation", () => {
  const junk = fc.constantFrom(...operations).chain((operation) =>
    fc.tuple(fc.constant(operation), fc.array(junkWord(operation), { maxLength: 8 }))
  );
  fc.assert(
    fc.property(junk, ([operation, argv]) => {
      try {
        const { input, global } = parseOperationArgs(operation, argv);
        assert.equal(typeof input, "object");
        assert.ok(global.output === "json" || global.output === "table");
      } catch (error) {
        assert.ok(error instanceof UsageError, `${operation.id} ${JSON.stringify(argv)}: ${error}`);
        assert.ok(error.message.length > 0);
      }
    }),
    propertyRuns(500),
  );
});
