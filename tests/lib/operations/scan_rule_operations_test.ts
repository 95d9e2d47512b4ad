/**
 * The classification rule operations of the `scan` group against the emulator: a rule from the shipped
 * template (its placeholder filled in) is put, replaced (its version raised), read, listed and deleted;
 * 404s carry the hint that lists rules; a payload left with its placeholder, without a kind or with an
 * unknown kind, and an invalid rule name are refused before anything is sent; the service's own refusal
 * (a custom rule without patterns) comes back as a 400.
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError, UsageError } from "../../../lib/core/errors.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import {
  deleteClassificationRule,
  getClassificationRule,
  listClassificationRules,
  putClassificationRule,
} from "../../../lib/operations/scan_rule_operations.ts";
import { scanTemplate } from "../../../lib/templates/scan_templates.ts";
import { rejection, withScanSetup } from "./scan_harness.ts";

const template = () => JSON.stringify(scanTemplate("classification-rule")!.payload);

Deno.test("scan operations: a classification rule is put, replaced, read, listed and deleted", async () => {
  await withScanSetup({}, async ({ run, file }) => {
    const payloadFile = await file(
      "rule.json",
      template().replaceAll("<classification-name>", "CONTOSO.EMPLOYEE_ID"),
    );
    const created = await run(putClassificationRule, { classificationRuleName: "employee-id", payloadFile });
    assert.equal(created.created, true);
    assert.equal(created.classificationRule.name, "employee-id");
    assert.equal(created.classificationRule.properties.version, 1);
    const replaced = await run(putClassificationRule, { classificationRuleName: "employee-id", payloadFile });
    assert.equal(replaced.created, false);
    assert.equal(replaced.classificationRule.properties.version, 2);
    await run(putClassificationRule, { classificationRuleName: "badge-id", payloadFile });

    const got = await run(getClassificationRule, { classificationRuleName: "employee-id" });
    assert.equal(got.properties.classificationName, "CONTOSO.EMPLOYEE_ID");
    assert.deepEqual(got.properties.dataPatterns, [{ kind: "Regex", pattern: "^E[0-9]{6}$" }]);
    const list = await run(listClassificationRules, {});
    assert.equal(list.count, 2);
    assert.deepEqual(list.value.map((r: { name: string }) => r.name).sort(), ["badge-id", "employee-id"]);

    const deleted = await run(deleteClassificationRule, { classificationRuleName: "badge-id" });
    assert.equal(deleted.deleted, "badge-id");
    assert.equal(deleted.classificationRule.name, "badge-id", "the deleted rule, as answered");
    for (const operation of [getClassificationRule, deleteClassificationRule]) {
      const error = await rejection(() => run(operation, { classificationRuleName: "badge-id" }));
      assert.ok(error instanceof NotFoundError, operation.command);
      assert.match(error.hint ?? "", /govcat scan listClassificationRules/);
    }
    assert.equal((await run(listClassificationRules, {})).count, 1);
  });
});

Deno.test("scan operations: bad classification rule payloads are refused before anything is sent", async () => {
  await withScanSetup({}, async ({ run, file, requests }) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { payloadFile: await file("template.json", template()) },
        /template\.json still has the template placeholder <classification-name> at properties\.classificationName/,
      ],
      [{ payloadFile: await file("nokind.json", { properties: {} }) }, /nokind\.json has no kind/],
      [
        { payloadFile: await file("kind.json", { kind: "custom" }) },
        /kind\.json has the unknown classification rule kind "custom"\. Did you mean "Custom"\?/,
      ],
      [
        { payloadFile: await file("text.json", '"Custom"') },
        /text\.json has the wrong shape: expected a classification rule object/,
      ],
      [
        { payloadFile: await file("ok.json", { kind: "Custom" }), classificationRuleName: "employee/id" },
        /--classification-rule-name "employee\/id" is not a valid classification rule name: it holds a \//,
      ],
    ];
    for (const [input, pattern] of cases) {
      const error = await rejection(() =>
        run(putClassificationRule, { classificationRuleName: "employee-id", ...input })
      );
      assert.ok(error instanceof UsageError, `${JSON.stringify(input)}: ${error}`);
      assert.equal(error.exitCode, 2);
      assert.match(error.message, pattern);
    }
    assert.equal(requests(), 0, "nothing was sent");

    const noPattern = await file("nopattern.json", {
      kind: "Custom",
      properties: { classificationName: "X" },
    });
    const refused = await rejection(() =>
      run(putClassificationRule, { classificationRuleName: "employee-id", payloadFile: noPattern })
    );
    assert.ok(refused instanceof BadRequestError);
    assert.equal(refused.exitCode, 1);
    assert.match(refused.message, /at least one pattern/);
  });
});

Deno.test("scan operations: classification rule commands, aliases and annotations", () => {
  const registry = createOperationRegistry();
  const spellings: [string, { id: string }][] = [
    ["putClassificationRule", putClassificationRule],
    ["put-classification-rule", putClassificationRule],
    ["readClassificationRule", getClassificationRule],
    ["get-classification-rule", getClassificationRule],
    ["listClassificationRules", listClassificationRules],
    ["readClassificationRules", listClassificationRules],
    ["delete-classification-rule", deleteClassificationRule],
  ];
  // By id: the registry holds a destructive operation with its confirmation, another value.
  for (const [name, operation] of spellings) {
    assert.equal(registry.find("scan", name)?.id, operation.id, name);
  }
  assert.equal(getClassificationRule.annotations.readOnly, true);
  assert.equal(listClassificationRules.annotations.readOnly, true);
  assert.equal(putClassificationRule.annotations.idempotent, true);
  assert.equal(putClassificationRule.annotations.destructive, false);
  assert.equal(deleteClassificationRule.annotations.destructive, true);
});
