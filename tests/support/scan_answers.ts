/**
 * What the scanning service answers for what was sent, where it adds fields: a trigger's recurrence comes
 * back with every recurrence and schedule field, null when not set (recorded: Azure/azure-sdk-for-net
 * sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanClientTest/ScanTriggerOperations.json).
 *
 * @module
 */

/** The recurrence a trigger's answer carries for the `sent` one. */
export function answeredRecurrence(sent: unknown): Record<string, unknown> {
  const recurrence = sent as Record<string, unknown>;
  const schedule = recurrence.schedule as Record<string, unknown> | undefined;
  return {
    endTime: null,
    ...recurrence,
    ...(schedule
      ? {
        schedule: {
          minutes: null,
          hours: null,
          weekDays: null,
          monthDays: null,
          monthlyOccurrences: null,
          ...schedule,
        },
      }
      : {}),
  };
}
