/**
 * The CSV term import of the emulator: 202 with the operation in its body and its status URL in Location
 * and Operation-Location, as the service answers (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json),
 * Running → Succeeded or Failed by elapsed time, per-row errors by line, updates of existing terms, related
 * terms and hierarchy by name, uploads shaped as the service accepted them, and the 400s for unusable files.
 */
import assert from "node:assert/strict";
import { IMPORT_RUN_MS } from "../../../../lib/emulator/glossary/import.ts";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { call, CATALOG, DATAMAP, type JsonReply, withEmulator } from "../emulator_test_helpers.ts";

const GLOSSARY = `${DATAMAP}/atlas/v2/glossary`;
const VERSION = "api-version=2023-02-01-preview";

async function upload(
  emulator: RunningEmulator,
  path: string,
  csv: string,
  fileName = "terms.csv",
): Promise<JsonReply> {
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), fileName);
  const response = await fetch(`${emulator.url}${path}`, { method: "POST", body: form });
  const text = await response.text();
  if (response.status !== 202) {
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }
  // As the service answers: the operation in the body, and where to read it in Operation-Location.
  const body = JSON.parse(text);
  const location = response.headers.get("operation-location");
  assert.ok(location, "the 202 names its operation in Operation-Location");
  assert.equal(response.headers.get("location"), location);
  assert.ok(location.includes(`/terms/import/${body.id}?`), location);
  return { status: response.status, headers: response.headers, body };
}

async function finished(emulator: RunningEmulator, id: string): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  for (let i = 0; i < 100; i++) {
    const reply = await call(emulator, "GET", `${CATALOG}/glossary/terms/import/${id}?${VERSION}`);
    assert.equal(reply.status, 200);
    seen.push(reply.body);
    if (reply.body.status === "Succeeded" || reply.body.status === "Failed") return seen;
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  throw new Error(`import ${id} did not finish`);
}

async function glossary(emulator: RunningEmulator, name = "Finance"): Promise<string> {
  return (await call(emulator, "POST", GLOSSARY, { name })).body.guid;
}

const TEMPLATE_CSV = [
  "Nick Name,Name,Status,Definition,Acronym,Resources,Related Terms,Synonyms,Stewards,Experts,Parent Term Name",
  ',Revenue,Approved,"Money in, from sales",REV,Wiki:https://wiki/revenue,,,ana@contoso.com:Finance lead,,',
  "Turnover,Income,draft,All income,,,Revenue,Revenue,,bo@contoso.com,",
  ",Net revenue,Alert,,,,,,,,Revenue",
].join("\n");

Deno.test("import: 202 with the operation, Running, then Succeeded; terms are created", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator);
    const accepted = await upload(
      emulator,
      `${CATALOG}/glossary/${finance}/terms/import?${VERSION}&includeTermHierarchy=true`,
      TEMPLATE_CSV,
    );
    assert.equal(accepted.status, 202);
    const operation = accepted.body;
    assert.match(operation.id, /^[0-9a-f-]{36}$/);
    assert.equal(operation.status, "Running");
    assert.match(operation.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
    // The keys and value types of the service's 202 body (recording cited above).
    assert.deepEqual(Object.keys(operation), [
      "id",
      "status",
      "createTime",
      "taskPickUpTime",
      "lastUpdateTime",
      "properties",
      "error",
      "progress",
    ]);
    assert.equal(operation.taskPickUpTime, null);
    assert.deepEqual(operation.properties, { importedTerms: "0", totalTermsDetected: "-1" });
    assert.deepEqual(operation.error, { errorCode: 0, errorMessage: "" });
    assert.deepEqual(operation.progress, { status: null, statistics: null });
    assert.equal(
      accepted.headers.get("operation-location"),
      `${emulator.url}${CATALOG}/glossary/terms/import/${operation.id}?api-version=2023-02-01-preview`,
    );
    const seen = await finished(emulator, operation.id);
    const statuses = [...new Set(seen.map((op) => op.status))];
    assert.deepEqual(statuses.at(-1), "Succeeded");
    assert.ok(statuses.every((status) => status === "Running" || status === "Succeeded"), statuses.join(" "));
    const done = seen.at(-1)!;
    assert.deepEqual(done.properties, { importedTerms: "3", totalTermsDetected: "3" });
    assert.deepEqual(done.error, { errorCode: 0, errorMessage: "" });

    const terms =
      (await call(emulator, "GET", `${GLOSSARY}/${finance}/terms?includeTermHierarchy=true`)).body;
    const byName = Object.fromEntries(terms.map((t: { name: string }) => [t.name, t]));
    assert.equal(byName.Revenue.status, "Approved");
    assert.equal(byName.Revenue.longDescription, "Money in, from sales");
    assert.equal(byName.Revenue.abbreviation, "REV");
    assert.deepEqual(byName.Revenue.resources, [{ displayName: "Wiki", url: "https://wiki/revenue" }]);
    assert.deepEqual(byName.Revenue.contacts.Steward, [{ id: "ana@contoso.com", info: "Finance lead" }]);
    assert.equal(byName.Income.status, "Draft", "statuses match case-insensitively");
    assert.equal(byName.Income.nickName, "Turnover");
    assert.equal(byName.Income.synonyms[0].displayText, "Revenue");
    assert.equal(byName.Revenue.seeAlso[0].displayText, "Income");
    assert.equal(byName["Net revenue"].hierarchyInfo[0].name, "Revenue");
  });
});

Deno.test("import: a row error fails the operation with every error by line and imports nothing", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator);
    const csv =
      "name,status,definition\nGood,Approved,ok\n,Draft,no name\nOdd,Pending,bad status\nGood,,twice\n";
    const accepted = await upload(emulator, `${DATAMAP}/glossary/${finance}/terms/import`, csv);
    assert.equal(accepted.status, 202);
    const done = (await finished(emulator, accepted.body.id)).at(-1)!;
    assert.equal(done.status, "Failed");
    const error = done.error as { errorCode: number; errorMessage: string };
    assert.equal(error.errorCode, 400);
    assert.deepEqual([...error.errorMessage.matchAll(/line (\d+):/g)].map((m) => m[1]), ["3", "4", "5"]);
    assert.match(error.errorMessage, /line 3: Name is empty/);
    assert.match(error.errorMessage, /line 4: Status "Pending"/);
    assert.match(error.errorMessage, /line 5: term "Good" is also on line 2/);
    assert.deepEqual((done.properties as Record<string, string>).importedTerms, "0");
    assert.deepEqual((await call(emulator, "GET", `${GLOSSARY}/${finance}/terms`)).body, []);

    const unknownSynonym = await upload(
      emulator,
      `${DATAMAP}/glossary/${finance}/terms/import`,
      "Name,Synonyms\nA,Nope\n",
    );
    const failed = (await finished(emulator, unknownSynonym.body.id)).at(-1)!;
    assert.match(
      String((failed.error as { errorMessage: string }).errorMessage),
      /synonyms names an unknown term "Nope"/,
    );
  });
});

Deno.test("import: existing terms are updated; by glossary name; under /atlas/v2 as the spec writes it", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator);
    await call(emulator, "POST", `${GLOSSARY}/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: finance },
      abbreviation: "REV",
    });
    const byName = await upload(
      emulator,
      `${CATALOG}/glossary/name/Finance/terms/import`,
      "Name,Definition\nRevenue,Money in\n",
    );
    assert.equal(byName.status, 202);
    assert.equal((await finished(emulator, byName.body.id)).at(-1)!.status, "Succeeded");
    const revenue = (await call(emulator, "GET", `${GLOSSARY}/${finance}/terms`)).body[0];
    assert.equal(revenue.longDescription, "Money in");
    assert.equal(revenue.abbreviation, "REV", "cells left empty keep the term's values");
    assert.equal(revenue.lastModifiedTS, "2");

    const spec = await upload(
      emulator,
      `${CATALOG}/atlas/v2/glossary/${finance}/terms/import`,
      "Name\nCost\n",
    );
    assert.equal(spec.status, 202);
    assert.match(String(spec.headers.get("operation-location")), /\/catalog\/api\/glossary\/terms\/import\//);
    await finished(emulator, spec.body.id);
    // A read of the glossary after the import time sees the terms without polling the operation.
    const late = await upload(emulator, `${CATALOG}/glossary/${finance}/terms/import`, "Name\nMargin\n");
    await new Promise((resolve) => setTimeout(resolve, IMPORT_RUN_MS + 50));
    const names = (await call(emulator, "GET", `${GLOSSARY}/${finance}/terms/headers`)).body
      .map((h: { displayText: string }) => h.displayText);
    assert.deepEqual(names, ["Cost", "Margin", "Revenue"]);
    assert.equal(
      (await call(emulator, "GET", `${CATALOG}/glossary/terms/import/${late.body.id}`)).body.status,
      "Succeeded",
    );
  });
});

Deno.test("import: unusable files and unknown glossaries or operations are refused at once", async () => {
  await withEmulator({}, async (emulator) => {
    const finance = await glossary(emulator);
    const path = `${CATALOG}/glossary/${finance}/terms/import`;
    const noName = await upload(emulator, path, "Definition,Status\nx,Draft\n");
    assert.equal(noName.status, 400);
    assert.match(noName.body.errorMessage, /no Name column/);
    assert.equal(
      (await upload(emulator, path, "Name\nA\n", "terms.xlsx")).body.errorCode,
      "ATLAS-400-00-098",
    );
    assert.equal((await upload(emulator, path, 'Name\n"unclosed\n')).body.errorCode, "ATLAS-400-00-09C");
    const json = await call(emulator, "POST", path, { name: "x" });
    assert.equal(json.status, 400, "the import takes multipart/form-data");
    const unknown = await upload(
      emulator,
      `${CATALOG}/glossary/00000000-0000-4000-8000-00000000dead/terms/import`,
      "Name\nA\n",
    );
    assert.equal(unknown.status, 404);
    assert.equal(
      (await upload(emulator, `${CATALOG}/glossary/name/Nope/terms/import`, "Name\nA\n")).status,
      404,
    );
    const noOperation = await call(
      emulator,
      "GET",
      `${CATALOG}/glossary/terms/import/00000000-0000-4000-8000-00000000dead`,
    );
    assert.equal(noOperation.status, 404);
    assert.ok(noOperation.body.errorCode, "Atlas error shape");
  });
});

/**
 * The request of Microsoft's JS SDK test as recorded (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json):
 * no Content-Type header, a `file` part without a filename, one line of text. The service answered 202
 * Running and the import succeeded with no term.
 */
const RECORDED_BOUNDARY = "--------------------------091137944480562899771720";
const RECORDED_BODY = `--${RECORDED_BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n\r\n` +
  `random content\r\n--${RECORDED_BOUNDARY}--\r\n`;

Deno.test("import: a part without a filename, sent without a Content-Type, is imported as the service did", async () => {
  await withEmulator({}, async (emulator) => {
    await glossary(emulator, "jsLROTesting-2");
    const response = await fetch(
      `${emulator.url}${CATALOG}/glossary/name/jsLROTesting-2/terms/import?api-version=2022-03-01-preview`,
      { method: "POST", body: new TextEncoder().encode(RECORDED_BODY) },
    );
    const body = await response.json();
    assert.equal(response.status, 202, JSON.stringify(body));
    assert.equal(body.status, "Running");
    const done = (await finished(emulator, body.id)).at(-1)!;
    assert.equal(done.status, "Succeeded", JSON.stringify(done));
    assert.deepEqual(done.properties, { importedTerms: "0", totalTermsDetected: "0" });

    // A filename-less part holding real rows imports them, under a multipart Content-Type too.
    const form = new FormData();
    form.append("file", "Name,Status\nMargin,Approved\n");
    const named = await fetch(`${emulator.url}${CATALOG}/glossary/name/jsLROTesting-2/terms/import`, {
      method: "POST",
      body: form,
    });
    const operation = await named.json();
    assert.equal(named.status, 202, JSON.stringify(operation));
    const imported = (await finished(emulator, operation.id)).at(-1)!.properties as Record<string, string>;
    assert.equal(imported.importedTerms, "1");

    // A body that is neither declared nor shaped as multipart is still refused.
    const plain = await fetch(`${emulator.url}${CATALOG}/glossary/name/jsLROTesting-2/terms/import`, {
      method: "POST",
      body: new TextEncoder().encode("Name\nA\n"),
    });
    assert.equal(plain.status, 400);
    assert.match((await plain.json()).errorMessage, /multipart\/form-data/);
  });
});
