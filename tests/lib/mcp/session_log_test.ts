/**
 * A tool call's log lines (a line that could not be sent once livelocked the server): a line that cannot be sent stops the call's lines and
 * is reported on stderr only, a line logged while a line is being sent is not sent again, and a call that
 * has ended sends nothing, whatever is later logged in its async context.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createLogger } from "../../../lib/core/log.ts";
import {
  bridgeLogs,
  type CallExtra,
  callLog,
  callLogSender,
  type SessionLog,
} from "../../../lib/mcp/session_log.ts";
import type { ToolServices } from "../../../lib/mcp/tool.ts";

const DEBUG: SessionLog = { level: "debug", set: true };

/** Services with a logger that keeps what it writes; no catalog client can be built. */
function servicesWriting(lines: string[]): ToolServices {
  const noClient = () => {
    throw new Error("no catalog in this test");
  };
  const logger = createLogger("debug", { write: (line) => lines.push(line) });
  const services = { logger, catalog: noClient, unified: noClient } as unknown as ToolServices;
  bridgeLogs(services);
  return services;
}

/** What the SDK hands a call: `sendNotification` is `send`, and counts its calls. */
function extraSending(send: (notification: unknown) => Promise<void>): CallExtra {
  return { signal: new AbortController().signal, sendNotification: send } as unknown as CallExtra;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

Deno.test("session log: a line that cannot be sent stops the call's lines; the failure reaches stderr once, not the session", async () => {
  const written: string[] = [];
  const services = servicesWriting(written);
  let attempts = 0;
  // The stream is gone: sending fails, as the SDK's transport does for an answered request. It gives up
  // after 50 so that a regression counts attempts instead of spinning forever.
  const extra = extraSending(() => {
    attempts++;
    return attempts <= 50
      ? Promise.reject(new Error("No connection established for request ID: 1"))
      : Promise.resolve();
  });
  const sender = callLogSender(DEBUG, services, "some_tool", extra);
  await callLog.run(sender.send, async () => {
    services.logger.debug("first line");
    await settle();
    services.logger.info("second line");
    await settle();
  });
  await settle();
  assert.equal(attempts, 1, "one attempt; the failure and the later line are not sent");
  const reports = written.filter((line) => line.includes("log notifications stopped"));
  assert.equal(reports.length, 1, written.join("\n"));
  assert.match(reports[0], /some_tool: .*No connection established for request ID: 1/);
});

Deno.test("session log: a line logged while a line is being sent is not sent again", async () => {
  const services = servicesWriting([]);
  const sent: string[] = [];
  // A send that itself logs (as a transport's own diagnostics would); bounded so a regression ends.
  const extra = extraSending((notification) => {
    const data = (notification as { params: { data: string } }).params.data;
    sent.push(data);
    if (sent.length < 20) services.logger.debug(`sending: ${data}`);
    return Promise.resolve();
  });
  const sender = callLogSender(DEBUG, services, "some_tool", extra);
  await callLog.run(sender.send, () => services.logger.info("the call's line"));
  assert.deepEqual(sent, ["the call's line"]);
});

Deno.test("session log: after its call ends, a line logged in the call's async context goes nowhere", async () => {
  const services = servicesWriting([]);
  const sent: string[] = [];
  const extra = extraSending((notification) => {
    sent.push((notification as { params: { data: string } }).params.data);
    return Promise.resolve();
  });
  const sender = callLogSender(DEBUG, services, "some_tool", extra);
  let later!: Promise<void>;
  await callLog.run(sender.send, () => {
    services.logger.info("during the call");
    // Work the call leaves behind, still in its context when it runs.
    later = new Promise((resolve) => setTimeout(() => resolve(services.logger.info("after the call")), 10));
  });
  sender.end();
  await later;
  assert.deepEqual(sent, ["during the call"]);
});

Deno.test("session log: lines below the session's level are not sent", async () => {
  const services = servicesWriting([]);
  const sent: string[] = [];
  const extra = extraSending((notification) => {
    sent.push((notification as { params: { data: string } }).params.data);
    return Promise.resolve();
  });
  const sender = callLogSender({ level: "warning", set: true }, services, "some_tool", extra);
  await callLog.run(sender.send, () => {
    services.logger.debug("detail");
    services.logger.warn("a warning");
  });
  assert.deepEqual(sent, ["a warning"]);
});
