/**
 * MCP logging: the server declares `logging`, and a tool call's catalog throttling
 * wait reaches its client as a warning-level `notifications/message`, within the level the client set
 * with `logging/setLevel`. A real SDK client over streamable HTTP; the 429 is scripted in the emulator
 * through /_emulator/faults/script.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import { createLogger, onLogMessage } from "../../../lib/core/log.ts";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";

type LogParams = { level: string; logger?: string; data: unknown };

const MISSING_GUID = "00000000-0000-4000-8000-000000000000";

async function throttledCall(harness: Harness, level: "warning" | "error" | "debug"): Promise<LogParams[]> {
  const logs: LogParams[] = [];
  harness.client.fallbackNotificationHandler = (notification) => {
    if (notification.method === "notifications/message") logs.push(notification.params as LogParams);
    return Promise.resolve();
  };
  await harness.client.setLoggingLevel(level);
  const scripted = await fetch(new URL("/_emulator/faults/script", harness.emulator.url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify([{ status: 429, retryAfterMs: 150, method: "GET", path: MISSING_GUID }]),
  });
  assert.equal(scripted.status, 200, await scripted.text());
  // The retry meets a 404: the call fails, after the wait.
  await harness.client.callTool({ name: "get_entity", arguments: { guid: MISSING_GUID } });
  const pending = await (await fetch(new URL("/_emulator/faults/script", harness.emulator.url))).json();
  assert.deepEqual(pending.steps, [], "the scripted 429 was met");
  return logs;
}

Deno.test("logging: the server declares the capability", async () => {
  const harness = await startHarness();
  try {
    assert.deepEqual(harness.client.getServerCapabilities()?.logging, {});
  } finally {
    await harness.close();
  }
});

Deno.test("logging: setLevel(warning) sends the throttling wait as a warning; info lines stay back", async () => {
  const harness = await startHarness();
  try {
    const logs = await throttledCall(harness, "warning");
    const waits = logs.filter((log) => /throttling requests \(429\).*waits 150 ms/.test(String(log.data)));
    assert.equal(waits.length, 1, JSON.stringify(logs));
    assert.equal(waits[0].level, "warning");
    assert.equal(waits[0].logger, "govcat");
    assert.ok(logs.every((log) => !["debug", "info", "notice"].includes(log.level)), JSON.stringify(logs));
  } finally {
    await harness.close();
  }
});

Deno.test("logging: setLevel(error) suppresses the throttling warning", async () => {
  const harness = await startHarness();
  try {
    assert.deepEqual(await throttledCall(harness, "error"), []);
  } finally {
    await harness.close();
  }
});

Deno.test("logging: setLevel(debug) sends the retry line and the per-request lines too", async () => {
  const harness = await startHarness();
  try {
    const logs = await throttledCall(harness, "debug");
    assert.ok(
      logs.some((log) => log.level === "info" && /retry 1\/\d+ in \d+ ms/.test(String(log.data))),
      JSON.stringify(logs),
    );
    assert.ok(logs.some((log) => log.level === "debug"), JSON.stringify(logs));
  } finally {
    await harness.close();
  }
});

Deno.test("logging: what reaches a session is masked as the logger masks what it writes", () => {
  const written: string[] = [];
  const heard: string[] = [];
  const logger = createLogger("error", {
    secrets: ["super-secret-value-123"],
    write: (line) => written.push(line),
  });
  const stop = onLogMessage(logger, (level, message) => heard.push(`${level} ${message}`));
  logger.info("GET https://x/?sig=abc token super-secret-value-123 Bearer eyJhbGciOi");
  stop();
  logger.info("after stop");
  assert.deepEqual(written, [], "the logger's own level still decides what it writes");
  assert.deepEqual(heard, ["info GET https://x/?sig=*** token *** Bearer ***"]);
});

Deno.test("logging: a call's lines go to its own session only", async () => {
  const harness = await startHarness();
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const other = new Client({ name: "other-session", version: "1.0.0" });
  await other.connect(new StreamableHTTPClientTransport(new URL(harness.app.path, harness.baseUrl)));
  try {
    const heard: unknown[] = [];
    other.fallbackNotificationHandler = (notification) => {
      if (notification.method === "notifications/message") heard.push(notification.params);
      return Promise.resolve();
    };
    await other.setLoggingLevel("debug");
    const logs = await throttledCall(harness, "debug");
    assert.ok(logs.some((log) => log.level === "warning"), JSON.stringify(logs));
    assert.deepEqual(heard, [], "the other session heard nothing of the first one's call");
  } finally {
    await other.close();
    await harness.close();
  }
});
