/**
 * What the import plug-ins share: which service errors reject a row and which concern the whole batch,
 * the reason written like the engine's own, and settled units kept across the engine's retries.
 */
import assert from "node:assert/strict";
import {
  AuthorizationError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UsageError,
} from "../../../lib/core/errors.ts";
import {
  isRowRefusal,
  refusalOutcome,
  rejectedOutcome,
  SettledUnits,
  sharedLookup,
} from "../../../lib/imports/bulk_outcomes.ts";

Deno.test("isRowRefusal: answers about the rows reject them; trouble with the service does not", () => {
  const refusals = [
    new BadRequestError({ status: 400, message: "bad" }),
    new NotFoundError({ status: 404, message: "gone" }),
    new ConflictError({ status: 409, message: "taken" }),
    new ServerError({ status: 500, message: "broke on this row" }),
  ];
  for (const error of refusals) assert.equal(isRowRefusal(error), true, error.message);
  const batchWide = [
    new AuthorizationError({ status: 403, message: "no" }),
    new RateLimitError({ status: 429, message: "slow down" }),
    new ServerError({ status: 503, message: "unavailable" }),
    new NetworkError({ status: 0, message: "reset" }),
    new UsageError("not a service error"),
    new Error("a bug"),
  ];
  for (const error of batchWide) assert.equal(isRowRefusal(error), false, error.message);
});

Deno.test("refusalOutcome: status, code and message on one line, as the engine writes reasons", () => {
  const outcome = refusalOutcome(
    new NotFoundError({ status: 404, code: "ATLAS-404-00-005", message: "Given\n guid" }),
  );
  assert.deepEqual(outcome, {
    status: "rejected",
    reason: "404 ATLAS-404-00-005: Given guid",
    httpStatus: 404,
    code: "ATLAS-404-00-005",
  });
  assert.deepEqual(rejectedOutcome("no such term"), { status: "rejected", reason: "no such term" });
});

Deno.test("SettledUnits: a settled unit keeps its outcome and is not pending again", () => {
  const settled = new SettledUnits<string>();
  const [a, b] = [{ lines: [2], item: "a" }, { lines: [3], item: "b" }];
  assert.deepEqual(settled.pending([a, b]), [a, b]);
  settled.settle(a, { status: "created" });
  assert.deepEqual(settled.pending([a, b]), [b]);
  assert.throws(() => settled.outcomes([a, b]), /line 3 has no outcome/);
  settled.settle(b, { status: "skipped" });
  assert.deepEqual(settled.outcomes([b, a]), [{ status: "skipped" }, { status: "created" }]);
});

Deno.test("sharedLookup loads once, again when asked fresh, and forgets a failed load", async () => {
  let loads = 0;
  let fail = true;
  const lookup = sharedLookup(() => {
    loads++;
    return fail ? Promise.reject(new Error("unreachable")) : Promise.resolve(loads);
  });
  const signal = new AbortController().signal;
  await assert.rejects(lookup(signal), /unreachable/);
  fail = false;
  assert.equal(await lookup(signal), 2, "the failed load is not kept");
  assert.equal(await lookup(signal), 2, "a loaded answer is shared");
  assert.equal(await lookup(signal, true), 3, "fresh loads again");
  assert.equal(loads, 3);
});
