/**
 * The start-up log's file root line says what the server will really use: over an HTTP transport that
 * authenticates no one, the roots clients declare are not used.
 *
 * @module
 */
import assert from "node:assert/strict";
import { describeFileRoot } from "../../cli/serve_services.ts";
import { loadConfig } from "../../lib/config/config.ts";

const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" });

Deno.test("file root line: declared roots are named only where they are used", () => {
  assert.equal(describeFileRoot(config, "/samples"), "the roots each MCP client declares, else /samples");
  const unauthenticated = describeFileRoot(config, "/samples", false);
  assert.match(unauthenticated, /^\/samples \(roots MCP clients declare are not used/);
  assert.match(unauthenticated, /CATALOG_MCP_AUTH_TOKEN or --file-root/);
  assert.match(describeFileRoot(config, undefined, false), /^no file access /);
});
