/**
 * The CSV term import of `client.glossary`: against the emulator, polled to the end with progress, its
 * failures and its time limit; and against a scripted server, the two ways the service names an accepted
 * import.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import type { ImportCsvOperation } from "../../../lib/catalog/glossary_types.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { BadRequestError, NotFoundError, TimeoutError } from "../../../lib/core/errors.ts";
import { withClient } from "../../support/glossary_client.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

Deno.test("glossary client: the CSV import, polled to the end with progress, and its failures", async () => {
  await withClient(async (client, emulator) => {
    const api = client.glossary;
    const glossaryGuid = (await api.create({ name: "Finance" })).guid!;
    const seen: ImportCsvOperation[] = [];
    const done = await api.importTermsAndWait(
      glossaryGuid,
      new TextEncoder().encode("Name,Status,Definition\nRevenue,Approved,Money in\nCost,,\n"),
      "terms.csv",
      { pollMs: 30, onProgress: (op) => seen.push(op) },
    );
    assert.equal(done.status, "Succeeded");
    assert.equal(done.properties?.importedTerms, "2");
    assert.equal(seen[0].status, "Running", "the 202 body, as the service answers");
    assert.ok(seen.length >= 2);
    assert.equal((await api.getImportStatus(done.id)).status, "Succeeded");
    assert.equal((await api.listTermHeaders(glossaryGuid)).length, 2);
    const requests = emulator.faults.stats().log.filter((r) => r.path.includes("/terms/import"));
    assert.ok(requests.every((r) => r.path.startsWith("/catalog/api/glossary/")), "the catalog API's paths");

    const failed = await api.importTermsAndWait(glossaryGuid, "Name,Status\nX,Bogus\n", "terms.csv", {
      pollMs: 30,
    });
    assert.equal(failed.status, "Failed");
    assert.match(String(failed.error?.errorMessage), /line 2/);

    const started = await api.importTerms(glossaryGuid, "Name\nLate\n", "late.csv");
    assert.equal(started.status, "Running");
    await assert.rejects(
      api.importTermsAndWait(glossaryGuid, "Name\nSlow\n", "slow.csv", { pollMs: 20, timeoutMs: 30 }),
      (error: unknown) =>
        error instanceof TimeoutError && /read-terms-import --operation-id=/.test(String(error.hint)),
    );
    await assert.rejects(api.getImportStatus(UNKNOWN), NotFoundError);
    await assert.rejects(api.importTerms(glossaryGuid, "Definition\nx\n", "terms.csv"), BadRequestError);
  });
});

/**
 * The two ways the service has named an accepted import (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/{node,browsers}/purview_catalog_glossary_test/recording_should_work_with_lro_helper.json):
 * the operation in the 202 body, and an Operation-Location whose query is escaped into the path
 * (`…/{id}%3Fapi-version=…`). The client follows either to the end.
 */
Deno.test("glossary client: follows an import named by its 202 body or by an escaped Operation-Location", async () => {
  const id = "e01a8dc9-4e8c-46a3-b8de-44af690609ac";
  const operation = (status: string) => ({
    id,
    status,
    createTime: "2023-03-14T08:03:32.774+0000",
    taskPickUpTime: null,
    lastUpdateTime: "2023-03-14T08:03:32.774+0000",
    properties: { importedTerms: "0", totalTermsDetected: status === "Running" ? "-1" : "0" },
    error: { errorCode: 0, errorMessage: "" },
    progress: { status: null, statistics: null },
  });
  for (const named of ["body", "header"]) {
    let polls = 0;
    const server = startLocalServer((request) => {
      if (request.method === "POST") {
        const location =
          `${server.url}/catalog/api/glossary/terms/import/${id}%3Fapi-version=2022-03-01-preview`;
        const headers = { "operation-location": location };
        return named === "body" ? json(202, operation("Running"), headers) : new Response(null, {
          status: 202,
          headers,
        });
      }
      polls++;
      return json(200, operation(polls < 2 ? "Running" : "Succeeded"));
    });
    try {
      const client = CatalogClient.fromConfig(
        loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: server.url }),
        { retryBaseMs: 5 },
      );
      const done = await client.glossary.importTermsAndWait(UNKNOWN, "Name\nA\n", "terms.csv", { pollMs: 5 });
      assert.equal(done.status, "Succeeded", named);
      const statusReads = server.requests.filter((r) => r.method === "GET");
      assert.ok(statusReads.length >= 1, named);
      assert.ok(statusReads.every((r) => r.path === `/catalog/api/glossary/terms/import/${id}`), named);
    } finally {
      await server.close();
    }
  }
});
