/**
 * Resumable streamable HTTP: a real SDK client whose tool-call stream is cut mid-import resumes it with
 * `Last-Event-ID` and gets the progress and the result it missed; then what a hostile client tries — an
 * event id of another session, forged and oversized ids, a flood of requests that would grow the store —
 * against a real server on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { type Harness, startHarness } from "../../support/mcp_harness.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../../support/asset_import.ts";

const ROWS = 3_000;
const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const ACCEPT = "application/json, text/event-stream";

interface SseEvent {
  id?: string;
  data?: string;
}

function parseEvents(text: string): SseEvent[] {
  return text.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    const event: SseEvent = {};
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) event.id = line.slice(4);
      if (line.startsWith("data: ")) event.data = line.slice(6);
    }
    return event;
  });
}

const sequenceOf = (id: string) => Number(id.split(":")[1]);

/** A session opened by hand: its id and the event ids of its initialize stream. */
async function openSession(url: string): Promise<{ session: string; eventIds: string[] }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify(INIT),
  });
  assert.equal(response.status, 200);
  const events = parseEvents(await response.text());
  return {
    session: response.headers.get("mcp-session-id")!,
    eventIds: events.flatMap((event) => event.id ? [event.id] : []),
  };
}

function resume(url: string, session: string, lastEventId: string): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
      "last-event-id": lastEventId,
    },
  });
}

async function ping(url: string, session: string, id: number): Promise<string[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }),
  });
  return parseEvents(await response.text()).flatMap((event) => event.id ? [event.id] : []);
}

/** The whole body of a resumed stream, failing if it does not end: a finished stream is closed after it. */
async function readToEnd(response: Response): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error("the resumed stream stayed open")), 10_000)
  );
  try {
    return await Promise.race([response.text(), late]);
  } finally {
    clearTimeout(timer);
    await response.body?.cancel().catch(() => {});
  }
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A fetch that cuts the first tool call's stream after two progress events, as a dropped connection
 * would (the real response body is cancelled), and holds the client's resumption until the server has
 * stored more events, so the resumed stream must carry events sent while no one listened.
 */
function cuttingFetch(events: () => number) {
  const seen = { post: [] as SseEvent[], resumed: [] as SseEvent[], resumeHeader: "", storedAtCut: 0 };
  let cut = false;
  const cuttingFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const lastEventId = headers.get("last-event-id");
    if (init?.method === "GET" && lastEventId !== null) {
      seen.resumeHeader = lastEventId;
      await waitFor(() => events() >= seen.storedAtCut + 3, "events stored after the cut");
      const response = await fetch(input, init);
      return new Response(tap(response.body!, (event) => seen.resumed.push(event)), response);
    }
    const response = await fetch(input, init);
    if (cut || init?.method !== "POST" || !String(init.body).includes('"tools/call"')) return response;
    cut = true;
    const reader = response.body!.getReader();
    let progressEvents = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (progressEvents >= 2) {
            seen.storedAtCut = events();
            await reader.cancel("network cut");
            controller.error(new TypeError("network connection lost"));
            return;
          }
          const read = await reader.read();
          if (read.done) return controller.close();
          for (const event of parseEvents(new TextDecoder().decode(read.value))) {
            seen.post.push(event);
            if (event.data?.includes("notifications/progress")) progressEvents++;
          }
          controller.enqueue(read.value);
        },
      }),
      response,
    );
  };
  return { fetch: cuttingFetch, seen };
}

/** `body` as it is, telling `onEvent` about each complete event that passes. */
function tap(body: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void) {
  let pending = "";
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += new TextDecoder().decode(chunk);
        const complete = pending.lastIndexOf("\n\n");
        if (complete >= 0) {
          parseEvents(pending.slice(0, complete)).forEach(onEvent);
          pending = pending.slice(complete + 2);
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

Deno.test("a tool call whose stream is cut mid-import resumes with Last-Event-ID: missed progress and result", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-resume-" }));
  const server: { harness?: Harness } = {};
  const cutting = cuttingFetch(() => server.harness!.app.events.eventCount);
  const harness = server.harness = await startHarness({
    env: { CATALOG_MCP_FILE_ROOT: root },
    fetch: cutting.fetch,
  });
  try {
    harness.emulator.faults.set({ latencyMs: 100 });
    await writeAssetsCsv(root, ROWS, "ds://resumed/");
    const progress: number[] = [];
    const result = await harness.client.callTool(
      ASSET_IMPORT,
      undefined,
      { onprogress: (p) => void progress.push(p.progress), timeout: 20_000 },
    );

    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { created: number }).created, ROWS);
    const { post, resumed, resumeHeader } = cutting.seen;
    const lastDelivered = post.findLast((event) => event.id)!.id!;
    assert.equal(resumeHeader, lastDelivered, "the client resumed after the last event it received");
    const resumedIds = resumed.flatMap((event) => event.id ? [sequenceOf(event.id)] : []);
    assert.equal(
      resumedIds[0],
      sequenceOf(lastDelivered) + 1,
      "the first event sent after the cut comes first",
    );
    assert.ok(
      resumed.filter((event) => event.data?.includes("notifications/progress")).length >= 2,
      "progress sent while the stream was down is delivered",
    );
    assert.ok(resumed.at(-1)?.data?.includes('"result"'), "the result comes on the resumed stream");
    assert.deepEqual(progress, [...new Set(progress)].sort((a, b) => a - b), "each progress once, in order");
    assert.equal(progress.at(-1), 2 * ROWS, "the last progress is the end of the import");
  } finally {
    await harness.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resumption refuses another session's event id, forged ids and evicted ones, with reasons", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const a = await openSession(url);
    const b = await openSession(url);
    const first = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT },
      body: JSON.stringify(INIT),
    });
    assert.match(
      await first.text(),
      /^id: [0-9a-f]{32}:0\nretry: 1000\n/,
      "a stream opens with its id and retry",
    );
    const [pingOfA] = await ping(url, a.session, 1);
    assert.match(pingOfA, /^[0-9a-f]{32}:\d+$/, "ids name no session");
    assert.ok(!pingOfA.includes(a.session));

    // B cannot read A's stream with A's event id.
    const stolen = await resume(url, b.session, a.eventIds[0]);
    assert.equal(stolen.status, 400);
    const stolenText = await stolen.text();
    assert.match(stolenText, /Last-Event-ID .* was not issued in this session/);
    assert.doesNotMatch(stolenText, /"result"/);

    for (const forged of ["0", "x:1", `${pingOfA.split(":")[0]}:999999`, "../../etc", "é".repeat(5_000)]) {
      const response = await resume(url, a.session, forged);
      assert.equal(response.status, 400, forged.slice(0, 20));
      const body = await response.json();
      assert.match(body.error.message, /was not issued in this session/);
      assert.ok(body.error.message.length < 500, "a long id is not echoed whole");
    }

    // The session's own id replays what followed it, the initialize answer, then the finished stream ends.
    const own = await resume(url, a.session, a.eventIds[0]);
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("content-type"), "text/event-stream");
    const replayed = parseEvents(await readToEnd(own));
    assert.deepEqual(replayed.map((event) => event.id), [a.eventIds[1]]);
    assert.equal(JSON.parse(replayed[0].data!).result.protocolVersion, "2025-11-25");
  } finally {
    await h.close();
  }
});

Deno.test("a flood of requests cannot grow the event store past its bounds; the oldest ids are then gone", async () => {
  const limits = { sessionBytes: 4_096, totalBytes: 10_000 };
  const h = await startHarness({ noClient: true, app: { eventStoreLimits: limits } });
  const url = `${h.baseUrl}/mcp`;
  try {
    const sessions = [await openSession(url), await openSession(url), await openSession(url)];
    let id = 1;
    for (let round = 0; round < 60; round++) {
      for (const { session } of sessions) await ping(url, session, id++);
      assert.ok(h.app.events.bytes <= limits.totalBytes, `store at ${h.app.events.bytes} bytes`);
    }
    assert.ok(h.app.events.eventCount > 0);
    const first = sessions[0];
    const evicted = await resume(url, first.session, first.eventIds[0]);
    assert.equal(evicted.status, 410);
    assert.match(
      (await evicted.json()).error.message,
      /is no longer held: this server keeps the latest 4096 bytes of events per session and 10000 in all/,
    );
    // A recent id still resumes.
    const recent = await ping(url, first.session, id++);
    const replay = await resume(url, first.session, recent[0]);
    assert.equal(replay.status, 200);
    const [answer] = parseEvents(await readToEnd(replay));
    assert.deepEqual(JSON.parse(answer.data!), { jsonrpc: "2.0", id: id - 1, result: {} });

    // Ending the sessions frees their events.
    for (const { session } of sessions) {
      const ended = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": session } });
      assert.equal(ended.status, 200);
    }
    assert.equal(h.app.events.eventCount, 0);
    assert.equal(h.app.events.bytes, 0);
  } finally {
    await h.close();
  }
});
