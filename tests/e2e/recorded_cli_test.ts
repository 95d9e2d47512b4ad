/**
 * govcat's own commands against what the real service answered: a loopback replay server
 * (tests/support/recorded/replay_server.ts) gives each command the answers Microsoft recorded from live
 * Purview accounts (`fixtures/recorded/`), and the command must exit as expected and show the real values.
 * Where a command sends a payload, it is the payload Microsoft's SDK sent, so the client must accept what
 * the service accepted.
 *
 * Each case (tests/support/recorded/cli_cases.ts) names the recorded exchanges the command is answered
 * from; the command must ask for exactly
 * those (a request nothing recorded answers gets a `NotRecorded` 404 and fails the case).
 *
 * @module
 */
import assert from "node:assert/strict";
import { runGovcat } from "../support/govcat_process.ts";
import { startReplayServer } from "../support/recorded/replay_server.ts";
import { CLI_CASES as CASES, type CliCase } from "../support/recorded/cli_cases.ts";
import { loadRecordedSessions, type RecordedSession } from "../support/recorded/sessions.ts";

const sessions = new Map(loadRecordedSessions().map((session) => [session.name, session]));

function sessionOf(name: string): RecordedSession {
  const session = sessions.get(name);
  if (!session) throw new Error(`no recorded session ${name} under fixtures/recorded/`);
  return session;
}

async function payloadFile(dir: string, session: RecordedSession, testCase: CliCase): Promise<string> {
  const path = `${dir}/payload${testCase.payloadText === undefined ? ".json" : ".csv"}`;
  const body = testCase.payloadText ?? session.exchanges[testCase.payloadFrom! - 1].requestBody;
  await Deno.writeTextFile(path, typeof body === "string" ? body : JSON.stringify(body, null, 2));
  return path;
}

async function runCase(testCase: CliCase): Promise<void> {
  const session = sessionOf(testCase.session);
  const exchanges = testCase.exchanges.map((number) => session.exchanges[number - 1]).map((exchange) =>
    testCase.servedAt
      ? {
        ...exchange,
        host: "account" as const,
        method: testCase.servedAt.method,
        url: testCase.servedAt.path,
      }
      : exchange
  );
  const server = startReplayServer(exchanges);
  const dir = await Deno.makeTempDir({ prefix: "govcat-recorded-" });
  try {
    const needsPayload = testCase.payloadFrom !== undefined || testCase.payloadText !== undefined;
    const payload = needsPayload ? await payloadFile(dir, session, testCase) : "";
    const args = testCase.args.map((arg) => arg.replace("{payload}", payload));
    const run = await runGovcat(args, {
      CATALOG_ACCOUNT_NAME: "recorded",
      CATALOG_ENDPOINT: server.url,
      CATALOG_MAX_RETRIES: "0",
    });
    const seen = server.requests.map((request) => `${request.method} ${request.path}${request.search}`);
    const what = `govcat ${testCase.args.join(" ")} (${testCase.session})\nrequests: ${seen.join(", ")}\n` +
      `stdout: ${run.stdout.slice(0, 1500)}\nstderr: ${run.stderr.slice(0, 1500)}`;
    assert.equal(run.code, testCase.exitCode ?? 0, `exit code of ${what}`);
    for (const value of testCase.shows) {
      assert.ok(run.stdout.includes(value), `${value} not shown by ${what}`);
    }
    assert.equal(
      server.answered.length,
      server.requests.length,
      `a request nothing recorded answers: ${what}`,
    );
    for (const exchange of exchanges) {
      assert.ok(
        server.answered.includes(exchange),
        `${exchange.method} ${exchange.url} never asked for: ${what}`,
      );
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("recorded answers: every case names recorded exchanges", () => {
  for (const testCase of CASES) {
    const session = sessionOf(testCase.session);
    for (const number of [...testCase.exchanges, testCase.payloadFrom ?? 1]) {
      assert.ok(number >= 1 && number <= session.exchanges.length, `${testCase.session}#${number}`);
    }
  }
});

for (const testCase of CASES) {
  Deno.test(`recorded answers: govcat ${testCase.args.slice(0, 2).join(" ")} (${testCase.session})`, () =>
    runCase(testCase));
}
