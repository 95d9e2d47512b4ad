/**
 * The files of an Azure Functions custom-handler app that runs `govcat serve --hosted`: `host.json` and
 * one folder per function (`mcp` on `/api/mcp` for GET, POST and DELETE; `health` on `/api/health`). The
 * Functions host forwards each request unchanged (`enableForwardingHttpRequest`) to the port it passes in
 * `FUNCTIONS_CUSTOMHANDLER_PORT`, which puts govcat in hosted mode.
 *
 * `deno task functions-app [DIR] [--sign-in]` writes them (default `dist/functions-app`); copy the single
 * binary from `deno task compile` beside them as `govcat` (`govcat.exe` on Windows) and publish the folder.
 * With `--sign-in` (Entra ID sign-in, checked by govcat) the `mcp` function is anonymous, since an OAuth
 * client sends its bearer token, not a function key; `oauth-protected-resource` serves the metadata its
 * challenges point at.
 *
 * @module
 */

/** Relative path → file content. */
export function functionsAppFiles(
  options: { executable?: string; signIn?: boolean } = {},
): Record<string, string> {
  const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
  const httpFunction = (route: string, methods: string[], authLevel: "function" | "anonymous") =>
    json({
      bindings: [
        { type: "httpTrigger", direction: "in", name: "req", authLevel, methods, route },
        { type: "http", direction: "out", name: "res" },
      ],
    });
  return {
    "host.json": json({
      version: "2.0",
      logging: { logLevel: { default: "Information" } },
      extensionBundle: { id: "Microsoft.Azure.Functions.ExtensionBundle", version: "[4.*, 5.0.0)" },
      extensions: { http: { routePrefix: "api" } },
      customHandler: {
        description: {
          defaultExecutablePath: options.executable ?? "govcat",
          workingDirectory: "",
          arguments: ["serve", "--hosted"],
        },
        enableForwardingHttpRequest: true,
      },
    }),
    // A function key guards the tools, or with sign-in govcat checks each user's token; the liveness probe
    // and the sign-in metadata stay open.
    "mcp/function.json": httpFunction(
      "mcp",
      ["get", "post", "delete"],
      options.signIn ? "anonymous" : "function",
    ),
    "health/function.json": httpFunction("health", ["get"], "anonymous"),
    ...(options.signIn
      ? {
        "oauth-protected-resource/function.json": httpFunction(
          "oauth-protected-resource",
          ["get"],
          "anonymous",
        ),
      }
      : {}),
    "local.settings.json": json({
      IsEncrypted: false,
      Values: { FUNCTIONS_WORKER_RUNTIME: "custom", CATALOG_ACCOUNT_NAME: "<your-account-name>" },
    }),
  };
}

if (import.meta.main) {
  const signIn = Deno.args.includes("--sign-in");
  const target = Deno.args.find((arg) => arg !== "--sign-in") ?? "dist/functions-app";
  for (const [path, content] of Object.entries(functionsAppFiles({ signIn }))) {
    const file = `${target}/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(file, content);
    console.log(`wrote ${file}`);
  }
}
