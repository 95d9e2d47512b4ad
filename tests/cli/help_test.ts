/**
 * `--help` texts read from the registry: every option of every command is described, once, in its kebab
 * spelling, and "repeatable" comes from one place (the option's kind), not from descriptions.
 */
import assert from "node:assert/strict";
import { operationHelp } from "../../cli/help.ts";
import { inputFields } from "../../lib/operations/fields.ts";
import { createOperationRegistry } from "../../lib/operations/mod.ts";

const registry = createOperationRegistry();

Deno.test("help: every option of every operation has a description", () => {
  const empty = registry.all().flatMap((op) =>
    inputFields(op.input).filter((f) => !f.description?.trim()).map((f) => `${op.id} --${f.flag}`)
  );
  assert.deepEqual(empty, []);
});

Deno.test("help: an option says it is repeatable once, from its kind, never in its description", () => {
  const problems: string[] = [];
  for (const op of registry.all()) {
    const help = operationHelp(op);
    for (const field of inputFields(op.input)) {
      if (field.kind === "string-list" && /repeat/i.test(field.description ?? "")) {
        problems.push(`${op.id} --${field.flag}: the description says it (help adds "repeatable")`);
      }
      // The option's line (a long option name puts its text on the next line).
      const start = help.search(new RegExp(`^ {2}--${field.flag}[=\\s]`, "m"));
      assert.ok(start >= 0, `${op.id}: --${field.flag} is in the help`);
      const entry = help.slice(start).split(/\n(?= {2}--|\n)/)[0];
      const count = entry.match(/repeat/gi)?.length ?? 0;
      if (count !== (field.kind === "string-list" ? 1 : 0)) {
        problems.push(`${op.id} --${field.flag}: "repeat" ${count} times in ${JSON.stringify(entry)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("help: --payload-file of the uc commands is described", () => {
  const help = operationHelp(registry.get("uc.domain-create")!);
  assert.match(help, /--payload-file=<string>\s+JSON file \S+/);
});

Deno.test("help: an option's default is said once, by its description when that names it already", () => {
  const twice: string[] = [];
  let notedByHelp = 0;
  for (const op of registry.all()) {
    const help = operationHelp(op);
    for (const field of inputFields(op.input)) {
      if (field.default === undefined) continue;
      const line = help.split("\n").find((l) =>
        l.includes(`--${field.flag}=`) || l.includes(`--${field.flag} `)
      );
      if (!line) continue;
      const mentions = line.match(/\bdefault\b/gi)?.length ?? 0;
      if (mentions > 1 && !/\bdefault\b.*\bdefault\b/i.test(field.description ?? "")) {
        twice.push(`${op.id} --${field.flag}: ${line.trim()}`);
      }
      if (line.includes(`default ${JSON.stringify(field.default)}`)) notedByHelp++;
    }
  }
  assert.deepEqual(twice, []);
  // The note is still added where the description says nothing of the default.
  assert.ok(notedByHelp >= 10, `only ${notedByHelp} options carry the help's own default note`);
});
