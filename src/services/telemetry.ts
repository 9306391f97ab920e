// Figures the services count as they work, read by `GET /metrics` (src/http/metrics.ts)
// when it is on. Plain numbers in this process: counting costs an addition whether or
// not anyone reads them; durations go to a sink only while metrics are on.
export const telemetry = {
  /** Events committed to the event log by this process. */
  eventsAppended: 0,
  /** Event streams (SSE, `payctl listen`) open now. */
  sseClients: 0,
  /** Long jobs running in this process now. */
  jobs: { catch_up: 0, fork: 0 },
  /** Webhook attempts sent by this process, by outcome. */
  webhookAttempts: { delivered: 0, failed: 0 },
  /** Told each webhook attempt's duration in ms and whether it was delivered, while metrics are on. */
  webhookTimer: undefined as ((ms: number, delivered: boolean) => void) | undefined,
};

export type JobKind = keyof typeof telemetry.jobs;

/** Count `kind` as running while `work` runs. */
export async function counted<T>(kind: JobKind, work: () => Promise<T>): Promise<T> {
  telemetry.jobs[kind]++;
  try {
    return await work();
  } finally {
    telemetry.jobs[kind]--;
  }
}

/** A webhook attempt ended. */
export function webhookAttempted(ms: number, delivered: boolean): void {
  telemetry.webhookAttempts[delivered ? 'delivered' : 'failed']++;
  telemetry.webhookTimer?.(ms, delivered);
}
