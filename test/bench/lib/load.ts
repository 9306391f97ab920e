// One load run with autocannon, reduced to the figures the bench reports.
import autocannon, { type Options, type Result } from 'autocannon';

export interface LoadRun {
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  /** Responses with a 2xx status: acknowledged requests. */
  ok: number;
  /** Connection errors, timeouts and non-2xx responses. */
  errors: number;
  statuses: Record<string, number>;
  duration_s: number;
}

export async function load(opts: Options): Promise<LoadRun> {
  const r: Result = await autocannon({ timeout: 30, ...opts });
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = Number(s.count);
  return {
    // Acknowledged requests per second of the whole run (autocannon's per-second average
    // would also count non-2xx answers).
    requests_per_s: r['2xx'] / r.duration,
    latency_p50_ms: r.latency.p50,
    latency_p99_ms: r.latency.p99,
    ok: r['2xx'],
    errors: r.errors + r.timeouts + r.non2xx,
    statuses,
    duration_s: r.duration,
  };
}

export const jsonHeaders = (key?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(key ? { authorization: key } : {}),
});
