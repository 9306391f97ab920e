// CLI start: wall time from spawn to exit of `payctl --version`, of
// `payctl report --type count --json` (a small database: this measures start-up, not
// the query) and of two other common commands (`group list --json`, and a `sale` that
// writes a transaction), interleaved with the floor `node -e 0` so all see the same
// machine; each is reported as a ratio to the floor of the same round. The CPU time
// (user + system) of each run is kept too: on a loaded machine it moves less than wall time.
// With BENCH_BASELINE (another built checkout) that build's `report --type count --json`
// (on a database its own `init --demo` made) runs in the same rounds: old and new side by side.
import path from 'node:path';
import { baselineBin, payctl, payctlBin, payctlJson, runNode, tempDir } from '../lib/processes.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

const BILL = ['--first-name', 'Ada', '--last-name', 'Lovelace', '--line1', '1 Main St', '--city', 'Springfield', '--state', 'IL', '--zip', '62701', '--country', 'US', '--email', 'ada@example.com'];

/** The baseline build (BENCH_BASELINE) and a demo database of its own schema, or undefined. */
async function baselineSide(): Promise<{ bin: string; db: string } | undefined> {
  const bin = baselineBin();
  if (!bin) return undefined;
  const db = path.join(await tempDir('cli-baseline'), 'payctl.db');
  await payctlJson(['init', '--demo'], db, bin);
  return { bin, db };
}

export async function cliScenarios(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('cli');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init', '--demo'], db);
  const probe = await payctl(['report', '--type', 'count', '--json'], db);
  const reportReady = probe.code === 0;
  if (!reportReady) log(`  payctl report not available yet (exit ${probe.code}: ${(probe.stderr || probe.stdout).trim().split('\n')[0]})`);

  const baseline = await baselineSide();
  const cases: Array<{ id: string; title: string; args: string[]; target?: number }> = [
    { id: 'cli-version', title: 'CLI start: payctl --version', args: [payctlBin, '--version'], target: 2 },
    ...(reportReady
      ? [{ id: 'cli-report', title: 'CLI start: payctl report --type count --json', args: [payctlBin, 'report', '--type', 'count', '--json', '--db', db], target: 3 }]
      : []),
    ...(baseline ? [{ id: 'cli-report-baseline', title: 'CLI start: payctl report --type count --json (baseline build)', args: [baseline.bin, 'report', '--type', 'count', '--json', '--db', baseline.db] }] : []),
    { id: 'cli-group-list', title: 'CLI start: payctl group list --json', args: [payctlBin, 'group', 'list', '--json', '--db', db] },
    { id: 'cli-sale', title: 'CLI: payctl sale --amount 1 --token tok_visa … --json (one written sale)', args: [payctlBin, 'sale', '--amount', '1', '--token', 'tok_visa', ...BILL, '--json', '--db', db] },
  ];
  // One unmeasured round warms the file cache.
  await runNode(['-e', '0']);
  for (const c of cases) await runNode(c.args);
  const floor: number[] = [];
  const floorCpu: number[] = [];
  const times = new Map<string, number[]>(cases.map((c) => [c.id, []]));
  const cpu = new Map<string, number[]>(cases.map((c) => [c.id, []]));
  for (let i = 0; i < cfg.cliRuns; i++) {
    const f = await runNode(['-e', '0'], {}, { cpu: true });
    floor.push(f.ms);
    floorCpu.push(f.cpuMs ?? Number.NaN);
    for (const c of cases) {
      const r = await runNode(c.args, {}, { cpu: true });
      if (r.code !== 0) throw new Error(`${c.title} exited ${r.code}: ${r.stderr}`);
      times.get(c.id)!.push(r.ms);
      cpu.get(c.id)!.push(r.cpuMs ?? Number.NaN);
    }
  }
  const outcomes: Outcome[] = cases.map((c) => {
    const t = times.get(c.id)!;
    const ratio = summarize(pairedRatios(t, floor));
    const c2 = cpu.get(c.id)!;
    const cpuRatio = c2.every(Number.isFinite) ? summarize(pairedRatios(c2, floorCpu)) : undefined;
    log(
      `  ${c.title}: median ${summarize(t).median.toFixed(0)} ms vs node -e 0 ${summarize(floor).median.toFixed(0)} ms (${ratio.median.toFixed(2)}×)` +
        (cpuRatio ? `; CPU ${summarize(c2).median.toFixed(0)} ms vs ${summarize(floorCpu).median.toFixed(0)} ms (${cpuRatio.median.toFixed(2)}×)` : ''),
    );
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
          ...(c.target === undefined ? {} : { target: `≤ ${c.target}× node -e 0`, met: ratio.median <= c.target }),
        },
        ...(cpuRatio
          ? [{ scenario: c.title, measure: 'CPU time (user+sys)', unit: 'ms', payctl: summarize(c2), floor: summarize(floorCpu), ratio: cpuRatio, ratioKind: 'time' as const }]
          : []),
      ],
      raw: { payctl_ms: t, floor_ms: floor, payctl_cpu_ms: c2, floor_cpu_ms: floorCpu },
    };
  });
  if (!reportReady) {
    outcomes.push({ id: 'cli-report', title: 'CLI start: payctl report --type count --json', status: 'skipped', note: 'not available yet (no payctl report command)', rows: [] });
  }
  return outcomes;
}
