/**
 * Real Purview traffic as a test bed: every session under `fixtures/recorded/` (answers Microsoft recorded
 * from live accounts for its SDK tests) is replayed, request by request in recorded order, against a fresh
 * seeded emulator, and each answer must have the status, the content type and the JSON shape the service
 * gave (tests/support/recorded/json_shape.ts says what "shape" compares).
 *
 * An exchange that differs fails its session's test unless {@link ACCEPTED_DIFFERENCES} lists it with the
 * reason; a listed exchange that no longer differs fails too, so the list only holds what still differs.
 * {@link RECORDED_ACCOUNT_STATE} creates, before a session, what the recorded account already had (the
 * data source a scan test ran against), so the session's own requests replay as recorded.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { RECORDED_ACCOUNT_STATE } from "../support/recorded/account_state.ts";
import { IdTranslation, replaySession } from "../support/recorded/replay.ts";
import { exchangeLabel, loadRecordedSessions, requestLine } from "../support/recorded/sessions.ts";

const sessions = loadRecordedSessions();

/**
 * Exchanges whose emulator answer differs from the recorded one, each with why the difference stays. Keys
 * are `session#n` (n counts the session's exchanges from 1).
 */
const POLL_ESCAPED = "the JS SDK's poller put `?api-version=…` into the path (`%3Fapi-version=`) and the " +
  "service failed with 500 InternalServerError; the emulator answers 404 (no import has that id), which a " +
  "client can act on. A 500 on demand is what fault injection is for";
const CREATE_OR_REPLACE = "the service answered 200 to a PUT the emulator answers 201 (created): the " +
  "recording cannot tell a create from a replace (the test PUTs the same name on every run), and the " +
  "contract's own examples answer 201 for a create and 200 for a replace, as the emulator does";
const ACCEPTED_DIFFERENCES: Record<string, string> = {
  "js/Catalog/should_work_with_lro_helper#2": POLL_ESCAPED,
  "js/Catalog/should_work_with_lro_helper#3": POLL_ESCAPED,
  "js/Catalog/should_work_with_lro_helper#4": POLL_ESCAPED,
  "js/Catalog/should_work_with_lro_helper#5": POLL_ESCAPED,
  "net/Scanning/FliterOperations#1": CREATE_OR_REPLACE,
  "net/Scanning/KeyVaultReferenceOperations#1": CREATE_OR_REPLACE,
};

const tally = { exchanges: 0, matching: 0, accepted: 0 };

Deno.test("recorded traffic: at least 60 exchanges from at least two SDK repositories", () => {
  const repositories = new Set(sessions.map((session) => session.source.repository));
  const exchanges = sessions.reduce((sum, session) => sum + session.exchanges.length, 0);
  assert.ok(repositories.size >= 2, `recorded sessions come from ${[...repositories].join(", ")}`);
  assert.ok(exchanges >= 60, `only ${exchanges} recorded exchanges`);
});

Deno.test("recorded traffic: every accepted difference names a recorded exchange", () => {
  const labels = new Set(
    sessions.flatMap((session) => session.exchanges.map((_, index) => exchangeLabel(session, index))),
  );
  const unknown = Object.keys(ACCEPTED_DIFFERENCES).filter((label) => !labels.has(label));
  assert.deepEqual(unknown, [], "accepted differences for exchanges that are not recorded");
  const unknownState = Object.keys(RECORDED_ACCOUNT_STATE).filter((name) =>
    !sessions.some((session) => session.name === name)
  );
  assert.deepEqual(unknownState, [], "account state for sessions that are not recorded");
});

for (const session of sessions) {
  Deno.test(`recorded traffic: ${session.name} replays as the service answered`, async () => {
    const emulator = await startEmulator({ seed: true });
    try {
      const ids = new IdTranslation();
      await RECORDED_ACCOUNT_STATE[session.name]?.(emulator.url, ids);
      const replayed = await replaySession(emulator.url, session, ids);
      const unexpected: string[] = [];
      const stale: string[] = [];
      replayed.forEach((answer, index) => {
        const label = exchangeLabel(session, index);
        const accepted = ACCEPTED_DIFFERENCES[label];
        tally.exchanges++;
        if (answer.differences.length === 0) {
          tally.matching++;
          if (accepted) {
            stale.push(`${label} (${requestLine(answer.exchange)}) now matches: remove it from the list`);
          }
        } else if (accepted) {
          tally.accepted++;
        } else {
          unexpected.push(
            `${label} ${requestLine(answer.exchange)}:\n    ${answer.differences.join("\n    ")}`,
          );
        }
      });
      assert.deepEqual(stale, [], "accepted differences that no longer occur");
      assert.equal(unexpected.length, 0, `answers unlike the service's:\n${unexpected.join("\n")}`);
    } finally {
      await emulator.close();
    }
  });
}

Deno.test("recorded traffic: the tally", () => {
  console.log(
    `recorded traffic: ${tally.matching} of ${tally.exchanges} exchanges answered as the service did, ` +
      `${tally.accepted} accepted differences`,
  );
  assert.equal(tally.matching + tally.accepted, tally.exchanges);
});
