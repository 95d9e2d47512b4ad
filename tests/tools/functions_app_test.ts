import assert from "node:assert/strict";
import { functionsAppFiles } from "../../tools/functions_app.ts";

Deno.test("the Functions app runs govcat serve --hosted and routes /api/mcp and /api/health to it", () => {
  const files = functionsAppFiles();
  const host = JSON.parse(files["host.json"]);
  assert.equal(host.version, "2.0");
  assert.deepEqual(host.customHandler.description.arguments, ["serve", "--hosted"]);
  assert.equal(host.customHandler.description.defaultExecutablePath, "govcat");
  assert.equal(host.customHandler.enableForwardingHttpRequest, true, "requests reach govcat unchanged");
  assert.equal(host.extensions.http.routePrefix, "api");

  const mcp = JSON.parse(files["mcp/function.json"]);
  const trigger = mcp.bindings.find((b: { type: string }) => b.type === "httpTrigger");
  assert.equal(trigger.route, "mcp");
  assert.deepEqual(trigger.methods, ["get", "post", "delete"]);
  assert.equal(trigger.authLevel, "function");
  assert.ok(
    mcp.bindings.some((b: { type: string; direction: string }) => b.type === "http" && b.direction === "out"),
  );

  const health = JSON.parse(files["health/function.json"]).bindings[0];
  assert.equal(health.route, "health");
  assert.equal(health.authLevel, "anonymous");
  assert.equal(JSON.parse(files["local.settings.json"]).Values.FUNCTIONS_WORKER_RUNTIME, "custom");
});

Deno.test("deno task functions-app writes the files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = new URL("../../tools/functions_app.ts", import.meta.url).pathname;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", `--allow-write=${dir}`, script, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    for (const path of Object.keys(functionsAppFiles())) {
      assert.equal(await Deno.readTextFile(`${dir}/${path}`), functionsAppFiles()[path]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("with --sign-in the mcp function is anonymous (govcat checks the token) and serves the metadata", () => {
  const files = functionsAppFiles({ signIn: true });
  const mcp = JSON.parse(files["mcp/function.json"]).bindings[0];
  assert.equal(mcp.authLevel, "anonymous");
  const metadata = JSON.parse(files["oauth-protected-resource/function.json"]).bindings[0];
  assert.equal(metadata.route, "oauth-protected-resource");
  assert.deepEqual(metadata.methods, ["get"]);
  assert.equal(metadata.authLevel, "anonymous");
  assert.equal(functionsAppFiles()["oauth-protected-resource/function.json"], undefined);
});

Deno.test("deno task functions-app DIR --sign-in writes the sign-in variant", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const script = new URL("../../tools/functions_app.ts", import.meta.url).pathname;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", `--allow-write=${dir}`, script, dir, "--sign-in"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const files = functionsAppFiles({ signIn: true });
    assert.ok(files["oauth-protected-resource/function.json"]);
    for (const path of Object.keys(files)) {
      assert.equal(await Deno.readTextFile(`${dir}/${path}`), files[path]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
