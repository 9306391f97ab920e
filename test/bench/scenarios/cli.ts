// CLI start: wall time from spawn to exit of `payctl --version` and of
// `payctl report --type count --json` (a small database: this measures start-up, not
// the query), interleaved with the floor `node -e 0` so all three see the same machine.
import path from 'node:path';
import { payctl, payctlBin, payctlJson, runNode, tempDir } from '../lib/processes.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

export async function cliScenarios(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('cli');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init', '--demo'], db);
  const probe = await payctl(['report', '--type', 'count', '--json'], db);
  const reportReady = probe.code === 0;
  if (!reportReady) log(`  payctl report not available yet (exit ${probe.code}: ${(probe.stderr || probe.stdout).trim().split('\n')[0]})`);

  const cases = [
    { id: 'cli-version', title: 'CLI start: payctl --version', args: [payctlBin, '--version'], target: 2 },
    ...(reportReady
      ? [{ id: 'cli-report', title: 'CLI start: payctl report --type count --json', args: [payctlBin, 'report', '--type', 'count', '--json', '--db', db], target: 3 }]
      : []),
  ];
  // One unmeasured round warms the file cache.
  await runNode(['-e', '0']);
  for (const c of cases) await runNode(c.args);
  const floor: number[] = [];
  const times = new Map<string, number[]>(cases.map((c) => [c.id, []]));
  for (let i = 0; i < cfg.cliRuns; i++) {
    floor.push((await runNode(['-e', '0'])).ms);
    for (const c of cases) {
      const r = await runNode(c.args);
      if (r.code !== 0) throw new Error(`${c.title} exited ${r.code}: ${r.stderr}`);
      times.get(c.id)!.push(r.ms);
    }
  }
  const outcomes: Outcome[] = cases.map((c) => {
    const t = times.get(c.id)!;
    const ratio = summarize(pairedRatios(t, floor));
    log(`  ${c.title}: median ${summarize(t).median.toFixed(0)} ms vs node -e 0 ${summarize(floor).median.toFixed(0)} ms (${ratio.median.toFixed(2)}×)`);
    return {
      id: c.id,
      title: c.title,
      status: 'ok',
      rows: [
        {
          scenario: c.title,
          measure: 'wall time',
          unit: 'ms',
          payctl: summarize(t),
          floor: summarize(floor),
          ratio,
          ratioKind: 'time',
          target: `≤ ${c.target}× node -e 0`,
          met: ratio.median <= c.target,
        },
      ],
      raw: { payctl_ms: t, floor_ms: floor },
    };
  });
  if (!reportReady) {
    outcomes.push({ id: 'cli-report', title: 'CLI start: payctl report --type count --json', status: 'skipped', note: 'not available yet (no payctl report command)', rows: [] });
  }
  return outcomes;
}
