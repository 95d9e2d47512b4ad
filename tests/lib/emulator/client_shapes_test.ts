/**
 * Shapes real clients send that Purview accepts, each sent over HTTP to the emulator on
 * 127.0.0.1 and read back: numeric placeholder guids, object references with a top-level qualified name or
 * unique attributes, both path spellings of the Atlas v2 routes and of collections, CSV uploads whose part
 * has no `.csv` name, the default glossary of a new account, not-found bodies in the area's shape, and the
 * leniency of Atlas's JSON binding on entity writes.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../lib/emulator/mod.ts";
import { API_VERSION, call, CATALOG, DATAMAP, ok, withEmulator } from "./emulator_test_helpers.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMERS_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDERS_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Orders";

function table(name: string, guid: unknown): Record<string, unknown> {
  return {
    typeName: "azure_sql_table",
    guid,
    attributes: { qualifiedName: `mssql://shapes.database.windows.net/Db/dbo/${name}`, name },
  };
}

async function entity(emulator: RunningEmulator, guid: string) {
  return (await ok(emulator, "GET", `${DATAMAP}/atlas/v2/entity/guid/${guid}?${API_VERSION}`)).body.entity;
}

Deno.test("shapes: numeric placeholder guids in entities, Process inputs/outputs and relationship attributes", async () => {
  await withEmulator({}, async (emulator) => {
    const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?${API_VERSION}`, {
      entities: [
        table("Source", -1),
        table("Target", -2),
        {
          typeName: "Process",
          guid: -3,
          attributes: {
            qualifiedName: "shapes://process/copy",
            name: "copy",
            inputs: [{ typeName: "azure_sql_table", guid: -1 }],
            outputs: [{ typeName: "azure_sql_table", guid: -2 }],
          },
        },
        {
          typeName: "azure_sql_column",
          guid: -4,
          attributes: { qualifiedName: "mssql://shapes.database.windows.net/Db/dbo/Source#id", name: "id" },
          relationshipAttributes: { table: { typeName: "azure_sql_table", guid: -1 } },
        },
      ],
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const assigned = reply.body.guidAssignments;
    assert.deepEqual(
      Object.keys(assigned).sort(),
      ["-1", "-2", "-3", "-4"],
      "guidAssignments keys stay strings",
    );
    const process = await entity(emulator, assigned["-3"]);
    assert.equal(process.attributes.inputs[0].guid, assigned["-1"]);
    assert.equal(process.attributes.outputs[0].guid, assigned["-2"]);
    const column = await entity(emulator, assigned["-4"]);
    assert.equal(column.relationshipAttributes.table.guid, assigned["-1"]);
    // The table sees its column through the relationship instance the write made.
    const source = await entity(emulator, assigned["-1"]);
    assert.deepEqual(source.relationshipAttributes.columns.map((c: { guid: string }) => c.guid), [
      assigned["-4"],
    ]);
  });
});

Deno.test("shapes: a single entity with a numeric guid is created; its assignment is keyed by the text", async () => {
  await withEmulator({}, async (emulator) => {
    const reply = await call(emulator, "POST", `${CATALOG}/atlas/v2/entity?${API_VERSION}`, {
      entity: table("Single", -1000),
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const guid = reply.body.guidAssignments["-1000"];
    assert.equal((await entity(emulator, guid)).attributes.name, "Single");
  });
});

Deno.test("shapes: object references by {typeName, guid, qualifiedName} and by uniqueAttributes resolve", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
      entity: {
        typeName: "Process",
        guid: -1,
        attributes: {
          qualifiedName: "shapes://process/by-name",
          name: "by-name",
          // pyapacheatlas's minimal JSON: a placeholder guid not in this request, the name at the top level.
          inputs: [{ typeName: "azure_sql_table", guid: -99, qualifiedName: CUSTOMERS_QN }],
          outputs: [{ typeName: "azure_sql_table", uniqueAttributes: { qualifiedName: ORDERS_QN } }],
        },
      },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const process = await entity(emulator, reply.body.guidAssignments["-1"]);
    assert.equal(process.attributes.inputs[0].guid, CUSTOMERS);
    assert.equal(process.attributes.outputs[0].guid, ORDERS);
    // Lineage sees both ends, so the references are real ones.
    const lineage = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/lineage/${CUSTOMERS}?direction=OUTPUT`);
    assert.ok(lineage.body.guidEntityMap[ORDERS], "the output is reached from the input");
  });
});

Deno.test("shapes: relationship ends written as {typeName, guid: <number>, qualifiedName} resolve", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const column = await ok(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
      entity: {
        typeName: "azure_sql_column",
        attributes: { qualifiedName: `${CUSTOMERS_QN}#Loyalty`, name: "Loyalty" },
      },
    });
    const columnGuid = column.body.mutatedEntities.CREATE[0].guid;
    const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/relationship?${API_VERSION}`, {
      typeName: "azure_sql_table_columns",
      end1: { typeName: "azure_sql_table", guid: -7, qualifiedName: CUSTOMERS_QN },
      end2: { typeName: "azure_sql_column", uniqueAttributes: { qualifiedName: `${CUSTOMERS_QN}#Loyalty` } },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const read = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/relationship/guid/${reply.body.guid}`);
    assert.equal(read.body.relationship.end1.guid, CUSTOMERS);
    assert.equal(read.body.relationship.end2.guid, columnGuid);
  });
});

Deno.test("shapes: every Atlas v2 route under both prefixes, with and without /atlas/v2", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    for (const prefix of [CATALOG, DATAMAP]) {
      for (const base of [prefix, `${prefix}/atlas/v2`]) {
        const next = await call(
          emulator,
          "GET",
          `${base}/lineage/${CUSTOMERS}/next?direction=BOTH&offset=0&limit=5&${API_VERSION}`,
        );
        assert.equal(next.status, 200, `${base}/lineage/{guid}/next: ${JSON.stringify(next.body)}`);
        assert.equal(next.body.baseEntityGuid, CUSTOMERS);

        const form = new FormData();
        form.append("file", new Blob(["Name,Status\nRevenue,Approved\n"], { type: "text/csv" }), "terms.csv");
        const started = await fetch(
          `${emulator.url}${base}/glossary/name/Glossary/terms/import?${API_VERSION}`,
          {
            method: "POST",
            body: form,
          },
        );
        await started.body?.cancel();
        assert.equal(started.status, 202, `${base}/glossary/name/{name}/terms/import`);
        const id = new URL(started.headers.get("operation-location")!).pathname.split("/").pop();
        for (const statusBase of [prefix, `${prefix}/atlas/v2`]) {
          const status = await call(
            emulator,
            "GET",
            `${statusBase}/glossary/terms/import/${id}?${API_VERSION}`,
          );
          assert.equal(status.status, 200, `${statusBase}/glossary/terms/import/{id}`);
          assert.equal(status.body.id, id);
        }
      }
    }
  });
});

Deno.test("shapes: collections under /collections and /account/collections are the same collections", async () => {
  await withEmulator({}, async (emulator) => {
    const version = "api-version=2019-11-01-preview";
    const created = await call(emulator, "PUT", `/collections/shapes?${version}`, {
      friendlyName: "Shapes",
      parentCollection: { referenceName: "emulator" },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const read = await call(emulator, "GET", `/account/collections/shapes?${version}`);
    assert.equal(read.body.friendlyName, "Shapes");
    const listed = await call(emulator, "GET", `/collections?${version}`);
    assert.ok(listed.body.value.some((c: { name: string }) => c.name === "shapes"));
    const path = await call(emulator, "GET", `/collections/shapes/getCollectionPath?${version}`);
    assert.equal(path.status, 200);
    assert.equal((await call(emulator, "DELETE", `/collections/shapes?${version}`)).status, 204);
    assert.equal((await call(emulator, "GET", `/account/collections/shapes?${version}`)).status, 404);
  });
});

Deno.test("shapes: a CSV upload whose part is named without .csv is imported", async () => {
  await withEmulator({}, async (emulator) => {
    const form = new FormData();
    form.append(
      "file",
      new Blob(["Name,Status\nMargin,Approved\n"], { type: "application/octet-stream" }),
      "file",
    );
    const started = await fetch(
      `${emulator.url}${DATAMAP}/glossary/name/Glossary/terms/import?${API_VERSION}`,
      {
        method: "POST",
        body: form,
      },
    );
    const text = await started.text();
    assert.equal(started.status, 202, text);
    let operation = { status: "NotStarted" };
    for (let i = 0; i < 100 && !["Succeeded", "Failed"].includes(operation.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      operation = await (await fetch(started.headers.get("operation-location")!)).json();
    }
    assert.equal(operation.status, "Succeeded", JSON.stringify(operation));
    const terms = await ok(emulator, "GET", `${DATAMAP}/glossary/name/Glossary/terms?${API_VERSION}`);
    assert.deepEqual(terms.body.map((t: { name: string }) => t.name), ["Margin"]);

    // Binary content under such a name is still refused, as is a name with another extension.
    const binary = new FormData();
    binary.append("file", new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff])]), "file");
    const refused = await fetch(`${emulator.url}${DATAMAP}/glossary/name/Glossary/terms/import`, {
      method: "POST",
      body: binary,
    });
    assert.equal(refused.status, 400);
    assert.equal((await refused.json()).errorCode, "ATLAS-400-00-098");
  });
});

Deno.test("shapes: business metadata import reads a part named without .csv", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const form = new FormData();
    form.append(
      "file",
      new Blob(["EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue\n"]),
      "file",
    );
    const reply = await fetch(`${emulator.url}${DATAMAP}/atlas/v2/entity/businessmetadata/import`, {
      method: "POST",
      body: form,
    });
    const body = await reply.json();
    // A header without rows: the file was read (no data), not refused for its name.
    assert.equal(body.errorCode, "ATLAS-400-00-09B", JSON.stringify(body));
  });
});

Deno.test("shapes: a new account, seeded or not, has a glossary named Glossary; deleting it sticks", async () => {
  for (const seed of [false, true]) {
    const dir = await Deno.makeTempDir();
    const dataFile = `${dir}/catalog.db`;
    try {
      let guid = "";
      await withEmulator({ seed, dataFile }, async (emulator) => {
        const glossaries = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/glossary?${API_VERSION}`);
        // The seed adds a glossary of its own beside it.
        const names = seed ? ["Glossary", "Retail Glossary"] : ["Glossary"];
        assert.deepEqual(glossaries.body.map((g: { name: string }) => g.name), names, `seed: ${seed}`);
        guid = glossaries.body[0].guid;
        const byName = await ok(emulator, "GET", `${DATAMAP}/glossary/name/Glossary/terms?${API_VERSION}`);
        assert.deepEqual(byName.body, []);
        assert.equal((await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/glossary/${guid}`)).status, 204);
      });
      await withEmulator({ seed, dataFile }, async (emulator) => {
        const glossaries = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/glossary?${API_VERSION}`);
        const names = glossaries.body.map((g: { name: string }) => g.name);
        assert.deepEqual(
          names,
          seed ? ["Retail Glossary"] : [],
          "a deleted default glossary does not come back",
        );
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("shapes: routes that do not exist answer in the area's error shape", async () => {
  await withEmulator({}, async (emulator) => {
    for (
      const path of ["/account/nothing", "/collections/a/b/c", "/scan/nothing", "/scan/datasources/x/y/z/w"]
    ) {
      const reply = await call(emulator, "GET", path);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.body.error?.code, "NotFound", `${path}: ${JSON.stringify(reply.body)}`);
    }
    for (const path of [`${DATAMAP}/atlas/v2/nothing`, `${CATALOG}/atlas/v2/nothing`]) {
      const reply = await call(emulator, "GET", path);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.body.errorCode, "NotFound", path);
      assert.equal(reply.body.error, undefined);
    }
  });
});

Deno.test("shapes: Atlas's binding leniency on entity writes (numbers for strings, nulls, unknown fields)", async () => {
  await withEmulator({}, async (emulator) => {
    const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity?${API_VERSION}`, {
      entity: {
        typeName: "azure_sql_table",
        guid: -1,
        attributes: {
          qualifiedName: "mssql://shapes.database.windows.net/Db/dbo/Lenient",
          name: 2024,
          description: 7,
        },
        classifications: null,
        labels: null,
        meanings: null,
        relationshipAttributes: null,
        clientVersion: "1.2.3",
      },
      requestSource: "a client",
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const stored = await entity(emulator, reply.body.guidAssignments["-1"]);
    assert.equal(stored.attributes.name, "2024", "a number for a string attribute is stored as its text");
    assert.equal(stored.attributes.description, "7");
    assert.equal(stored.classifications, undefined);
    assert.equal(stored.labels, undefined);
    assert.equal(stored.clientVersion, undefined, "an unknown field is ignored, as Jackson drops it");

    // A null attributes object is read as none: the mandatory qualifiedName is missing, as on the service.
    const noAttributes = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, {
      entity: { typeName: "azure_sql_table", attributes: null },
    });
    assert.equal(noAttributes.status, 400);
    assert.equal(noAttributes.body.errorCode, "ATLAS-400-00-02B");
  });
});

Deno.test("shapes: deeply nested attribute values are refused as before, not a crash of the leniency pass", async () => {
  await withEmulator({}, async (emulator) => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const body =
      `{"entity":{"typeName":"DataSet","guid":-1,"attributes":{"qualifiedName":"q://deep","name":"deep",` +
      `"x":${deep}}}}`;
    const reply = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity`, undefined, { rawBody: body });
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.errorCode, "ATLAS-400-00-023", "attribute x is not DataSet's");
  });
});
