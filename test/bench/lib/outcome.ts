// What a scenario hands back: rows for the printed table (and latest.json) plus the raw
// per-run numbers behind them.
import type { Summary } from './stats.js';

export interface Row {
  scenario: string;
  measure: string;
  unit: string;
  payctl?: Summary;
  floor?: Summary;
  /** payctl ÷ floor for each pair of side-by-side runs (or floor ÷ payctl for times: always "payctl's share"). */
  ratio?: Summary;
  ratioKind?: 'throughput' | 'time';
  target?: string;
  met?: boolean;
}

export interface Outcome {
  id: string;
  title: string;
  status: 'ok' | 'skipped' | 'failed';
  note?: string;
  rows: Row[];
  raw?: Record<string, unknown>;
}

export interface BenchConfig {
  quick: boolean;
  /** Side-by-side repetitions of each HTTP scenario. */
  runs: number;
  /** Seconds per load run. */
  durationS: number;
  warmupS: number;
  /**
   * pg-scale: sales each server serves before the measured runs. V8 compiles a process's
   * hot code as that process runs it, so a server warms by the requests it serves, and
   * three servers sharing a load take three times as long as one.
   */
  warmSalesPerServer: number;
  connections: number;
  seedTransactions: number;
  subscriptions: number;
  cliRuns: number;
  reportRequests: number;
  pdfSeconds: number;
  only: string[] | undefined;
  keep: boolean;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const num = (name: string, normal: number, short: number) => {
    const v = env[name];
    return v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : quick ? short : normal;
  };
  return {
    quick,
    runs: num('BENCH_RUNS', 3, 2),
    durationS: num('BENCH_DURATION', 8, 3),
    warmupS: num('BENCH_WARMUP', 2, 1),
    warmSalesPerServer: num('BENCH_WARM_SALES', 20_000, 2_000),
    connections: num('BENCH_CONNECTIONS', 50, 50),
    seedTransactions: num('BENCH_TRANSACTIONS', 1_000_000, 50_000),
    subscriptions: num('BENCH_SUBSCRIPTIONS', 100_000, 5_000),
    cliRuns: num('BENCH_CLI_RUNS', 10, 3),
    reportRequests: num('BENCH_REPORT_REQUESTS', 30, 8),
    pdfSeconds: num('BENCH_PDF_DURATION', 5, 2),
    only: env.BENCH_ONLY ? env.BENCH_ONLY.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    keep: env.BENCH_KEEP === '1',
  };
}

export const skipped = (id: string, title: string, note: string): Outcome => ({ id, title, status: 'skipped', note, rows: [] });
