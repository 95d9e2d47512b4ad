/**
 * A module's import graph as `deno info --json` reads it: what loading the module loads, following static
 * imports only (a dynamic import loads on use).
 *
 * @module
 */
import assert from "node:assert/strict";
import { runToEnd } from "../../tools/distribution/smoke.ts";

const ROOT = new URL("../../", import.meta.url);

interface ModuleGraph {
  roots: string[];
  modules: Array<{
    specifier: string;
    dependencies?: Array<
      { isDynamic?: boolean; code?: { specifier?: string }; type?: { specifier?: string } }
    >;
  }>;
}

/**
 * Specifiers reached from `entry` (a path from the project root) through static imports, `node:` built-ins
 * included; with `typesToo`, type-only imports are followed as well (what type checking reads).
 */
export async function staticGraph(entry: string, { typesToo = true } = {}): Promise<Set<string>> {
  const result = await runToEnd(Deno.execPath(), ["info", "--json", entry], {
    cwd: ROOT.pathname,
    timeoutMs: 60_000,
    env: { NO_COLOR: "1" },
  });
  assert.equal(result.code, 0, result.stderr);
  const graph = JSON.parse(result.stdout) as ModuleGraph;
  const bySpecifier = new Map(graph.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const pending = [...graph.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic) continue;
      for (const target of [dependency.code?.specifier, typesToo ? dependency.type?.specifier : undefined]) {
        if (target) pending.push(target);
      }
    }
  }
  return reached;
}
