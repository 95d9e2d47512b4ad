/**
 * Operations on the trigger of a scan, in the `scan` group: the schedule that runs it. A scan has at most
 * one trigger (the service names it `default`): `putTrigger` creates or replaces it from a JSON payload
 * file (`govcat scan template --name=scan-trigger` prints one), `getTrigger` reads it, `deleteTrigger`
 * removes it, and `enableTrigger` / `disableTrigger` switch it on and off while keeping its schedule.
 *
 * The payload is checked before anything is sent: it must be a JSON object with `properties` an object,
 * and no `<placeholder>` left from a template.
 *
 * @module
 */
import type { ScanTrigger } from "../catalog/scan_types.ts";
import { z } from "../deps/zod.ts";
import { isPlainObject, payloadError } from "./payload_files.ts";
import {
  checkName,
  dataSourceName,
  deletedOutput,
  hinted,
  NOT_FOUND_HINT,
  payloadFile,
  readPayload,
  scanName,
} from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const TRIGGER_SHAPE = 'a scan trigger object {"properties": {"recurrence": {…}, "scanLevel": …}}';

export const putTrigger = defineOperation({
  id: "scan.put-trigger",
  group: "scan",
  command: "putTrigger",
  aliases: ["put-trigger"],
  summary: "Schedule a scan: create its trigger, or replace the one it has, from a JSON payload file",
  description:
    'The payload is a trigger: {"properties": {"recurrence": {"frequency": "Week|Month|Day|Hour", ' +
    '"interval": 1, "startTime": …, "schedule": {…}}, "scanLevel": "Incremental", "state": "Enabled"}}; ' +
    "`govcat scan template --name=scan-trigger` prints one.",
  input: z.object({ dataSourceName, scanName, payloadFile: payloadFile("scan trigger") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkName("--data-source-name", input.dataSourceName);
    checkName("--scan-name", input.scanName);
    const body = await readPayload(ctx, input.payloadFile, TRIGGER_SHAPE);
    if (!isPlainObject(body.properties)) {
      throw payloadError(
        input.payloadFile,
        TRIGGER_SHAPE,
        "no properties",
        "Start from `govcat scan template --name=scan-trigger`.",
      );
    }
    const result = await hinted(
      NOT_FOUND_HINT.scan,
      () =>
        ctx.catalog().scan.putTrigger(input.dataSourceName, input.scanName, body as ScanTrigger, ctx.signal),
    );
    return { created: result.created, trigger: result.value };
  },
});

export const getTrigger = defineOperation({
  id: "scan.get-trigger",
  group: "scan",
  command: "getTrigger",
  aliases: ["get-trigger", "readTrigger"],
  summary: "Get the trigger of a scan: its schedule, state and scan level",
  input: z.object({ dataSourceName, scanName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.trigger,
      () => ctx.catalog().scan.getTrigger(input.dataSourceName, input.scanName, ctx.signal),
    ),
});

export const deleteTrigger = defineOperation({
  id: "scan.delete-trigger",
  group: "scan",
  command: "deleteTrigger",
  aliases: ["delete-trigger"],
  summary: "Delete the trigger of a scan; the scan then runs only when started with `scan run`",
  input: z.object({ dataSourceName, scanName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const deleted = await hinted(
      NOT_FOUND_HINT.trigger,
      () => ctx.catalog().scan.deleteTrigger(input.dataSourceName, input.scanName, ctx.signal),
    );
    return deletedOutput("trigger", "trigger", deleted, {
      dataSourceName: input.dataSourceName,
      scanName: input.scanName,
    });
  },
});

export const enableTrigger = defineOperation({
  id: "scan.enable-trigger",
  group: "scan",
  command: "enableTrigger",
  aliases: ["enable-trigger"],
  summary: "Switch the trigger of a scan on, so its schedule runs the scan again; prints the trigger",
  input: z.object({ dataSourceName, scanName }),
  annotations: UPSERT,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.trigger,
      () => ctx.catalog().scan.enableTrigger(input.dataSourceName, input.scanName, ctx.signal),
    ),
});

export const disableTrigger = defineOperation({
  id: "scan.disable-trigger",
  group: "scan",
  command: "disableTrigger",
  aliases: ["disable-trigger"],
  summary: "Switch the trigger of a scan off, keeping its schedule for `enableTrigger`; prints the trigger",
  input: z.object({ dataSourceName, scanName }),
  annotations: UPSERT,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.trigger,
      () => ctx.catalog().scan.disableTrigger(input.dataSourceName, input.scanName, ctx.signal),
    ),
});

/** The trigger operations, in the order `scan --help` lists them. */
export const SCAN_TRIGGER_OPERATIONS: Operation[] = [
  putTrigger,
  getTrigger,
  deleteTrigger,
  enableTrigger,
  disableTrigger,
];
