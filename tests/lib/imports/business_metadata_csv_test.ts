/**
 * Which header form of the business metadata import file was read: the service's template names, Apache
 * Atlas's names (as Microsoft's SDK test file has them), with or without the optional last column, or a mix.
 */
import assert from "node:assert/strict";
import { headerForm } from "../../../lib/imports/business_metadata_csv.ts";

Deno.test("headerForm: the template's names, Apache Atlas's, and a mix of both", () => {
  assert.match(
    headerForm([
      "EntityType",
      "EntityUniqueAttributeValue",
      "BusinessAttributeName",
      "BusinessAttributeValue",
      "EntityUniqueAttributeName[optional]",
    ]),
    /^the service's template header: EntityType,/,
  );
  assert.match(
    headerForm([
      "entity type",
      "EntityUniqueAttributeValue",
      "BusinessAttributeName",
      "BusinessAttributeValue",
    ]),
    /^the service's template header/,
    "names compare as the checker compares them; the optional column may be left out",
  );
  assert.match(
    headerForm([
      "TypeName",
      "UniqueAttributeValue",
      "BusinessAttributeName",
      "BusinessAttributeValue",
      "UniqueAttributeName",
    ]),
    /^Apache Atlas's header \(as Microsoft's SDK tests write it\): TypeName,/,
  );
  assert.match(
    headerForm(["TypeName", "EntityUniqueAttributeValue", "BusinessAttributeName", "BusinessAttributeValue"]),
    /^a mix of the template's and Apache Atlas's column names: TypeName,EntityUniqueAttributeValue,/,
  );
});
