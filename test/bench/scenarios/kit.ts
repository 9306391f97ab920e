// payctl/testing at suite scale: 200 tests at once on one `payctl serve` (the kit's own),
// each with its own sandbox, sale, clock move and settled webhook (test/kit/concurrent.ts).
// Reports the latency from the sandbox request to its first verified webhook, the wall
// time, and the server's resident memory after the run.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { summarize } from '../lib/stats.js';
import { startPayctl } from '../../../src/testing/index.js';
import { oneTest } from '../../kit/concurrent.js';

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export async function kitScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome> {
  const tests = cfg.quick ? 50 : 200;
  const payctl = await startPayctl();
  try {
    const before = rssMiB(payctl.pid!);
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: tests }, () => oneTest(payctl, 300_000)));
    const wallMs = performance.now() - started;
    const after = rssMiB(payctl.pid!);
    const first = summarize(runs.map((r) => r.firstWebhookMs));
    const total = summarize(runs.map((r) => r.totalMs));
    log(`  ${tests} concurrent tests: wall ${Math.round(wallMs)} ms; sandbox → first verified webhook median ${first.median.toFixed(0)} ms, p99 ${first.p99.toFixed(0)} ms; server RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB`);
    const scenario = `payctl/testing: ${tests} concurrent tests on one server`;
    return {
      id: 'kit',
      title: scenario,
      status: 'ok',
      rows: [
        { scenario, measure: 'sandbox → first verified webhook', unit: 'ms', payctl: first, target: 'report' },
        { scenario, measure: 'whole test (sandbox, sale, clock move, settled webhook, drop)', unit: 'ms', payctl: total, target: 'report' },
        { scenario, measure: 'wall time of the run', unit: 'ms', payctl: summarize([wallMs]), target: 'report' },
        { scenario, measure: 'server RSS after the run', unit: 'MiB', payctl: summarize([after]), target: 'report' },
      ],
      raw: { tests, wall_ms: wallMs, rss_before_mib: before, rss_after_mib: after },
    };
  } finally {
    await payctl.stop();
  }
}
