// The request journal's cost (docs/journal.md "Cost", docs/benchmarks/journal.md):
// - journal-sale: server CPU per sale with the journal on and off (PAYCTL_JOURNAL=off),
//   runs alternated on/off so a slow spell of the shared machine hits both sides; the
//   goal is at most 10 % more CPU per sale with it on; with BENCH_BASELINE (a checkout of
//   an earlier commit, built) that build's on and off run in the same rotation, so a change
//   is measured against the build before it in the same minutes of the shared machine;
// - journal-recording-read: a recording at its cap (the journal's 8 MiB of a sandbox,
//   bodies of ~200 KiB), read whole as JSON and as a scenario file: the server's RSS
//   growth and the time per read.
import path from 'node:path';
import { load, jsonHeaders } from '../lib/load.js';
import { baselineBin, payctlBin, payctlJson, startPayctl, tempDir, type Served } from '../lib/processes.js';
import { benchSaleJson } from '../lib/sale.js';
import { pairedRatios, round, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

interface Demo {
  group_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

const MiB = 2 ** 20;
const ADMIN = 'padm_bench_journal_admin_token';

interface SaleRun {
  cpuMsPerSale: number;
  salesPerS: number;
  /** CPU per sale of the main thread and of the others (the SQLite thread pool, GC), ms. */
  mainMsPerSale: number;
  otherMsPerSale: number;
  /** The writer's statements and its time with a transaction open, per sale; its batches (commits) per second. */
  statementsPerSale?: number;
  writerBusyMsPerSale?: number;
  batchesPerS?: number;
}

/**
 * Sales at a fixed rate (BENCH_JOURNAL_RATE, sales/s of the whole run) beside the saturating
 * runs: at saturation the server's writer is busy all the time, so anything that slows it
 * lowers throughput, and CPU per sale rises as throughput falls (fixed costs shared by fewer
 * sales: the off side's own runs show it); at one rate both sides serve the same load, and
 * CPU per sale is the work a sale costs.
 */
const FIXED_RATE = Number(process.env.BENCH_JOURNAL_RATE ?? 800);

async function cpuPerSale(server: Served, demo: Demo, durationS: number, overallRate?: number): Promise<SaleRun> {
  const url = `${server.url}/api/v1/groups/${demo.group_id}/transaction`;
  const spec = { url, method: 'POST' as const, headers: jsonHeaders(demo.keys.manage_transactions!), body: benchSaleJson(demo.processor_id), connections: 10 };
  // Warm-up: JIT, caches, a full journal (its trims run from here on).
  if (overallRate === undefined) await load({ ...spec, duration: 2 });
  const before = { cpu: server.cpuMs(), threads: server.threadCpuMs(), stats: await server.stats() };
  const run = await load({ ...spec, duration: durationS, ...(overallRate !== undefined ? { overallRate } : {}) });
  const after = { cpu: server.cpuMs(), threads: server.threadCpuMs(), stats: await server.stats() };
  const out: SaleRun = {
    cpuMsPerSale: (after.cpu - before.cpu) / run.ok,
    salesPerS: run.requests_per_s,
    mainMsPerSale: (after.threads.main - before.threads.main) / run.ok,
    otherMsPerSale: (after.threads.others - before.threads.others) / run.ok,
  };
  const [w0, w1] = [before.stats?.writer, after.stats?.writer];
  if (w0 && w1) {
    out.statementsPerSale = (w1.statements - w0.statements) / run.ok;
    out.writerBusyMsPerSale = (w1.busy_ms - w0.busy_ms) / run.ok;
    out.batchesPerS = (w1.batches - w0.batches) / durationS;
  }
  return out;
}

type Side = 'on' | 'off' | 'base-on' | 'base-off';

/** A side's journal setting, and its build: this one, or BENCH_BASELINE's (a checkout built before a change). */
const journalOf = (side: Side): 'on' | 'off' => (side.endsWith('on') ? 'on' : 'off');

export async function journalSaleScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome> {
  const dir = await tempDir('journal');
  const base = baselineBin();
  const sides: Side[] = base ? ['on', 'off', 'base-on', 'base-off'] : ['on', 'off'];
  const binOf = (side: Side) => (side.startsWith('base') ? base! : payctlBin);
  const dbs = Object.fromEntries(sides.map((side) => [side, path.join(dir, `${side}.db`)])) as Record<Side, string>;
  const demos = {} as Record<Side, Demo>;
  for (const side of sides) demos[side] = await payctlJson<Demo>(['init', '--demo'], dbs[side], binOf(side));
  const runs = cfg.quick ? 2 : Math.max(cfg.runs, 4);
  const durationS = cfg.quick ? 3 : cfg.durationS;
  const cpu = Object.fromEntries(sides.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
  const rate = Object.fromEntries(sides.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
  const detail = Object.fromEntries(sides.map((side) => [side, [] as SaleRun[]])) as Record<Side, SaleRun[]>;
  const fixed = Object.fromEntries(sides.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
  for (let i = 0; i < runs; i++) {
    // Each run starts with the next side (on, off, …; then off, …, on): neither always goes first.
    const order = sides.map((_, k) => sides[(i + k) % sides.length]!);
    if (i % 2 === 1) order.reverse();
    for (const side of order) {
      const server = await startPayctl(dbs[side], ['--access-log', 'off'], { bin: binOf(side), stats: true, env: { PAYCTL_JOURNAL: journalOf(side) } });
      try {
        const r = await cpuPerSale(server, demos[side], durationS);
        cpu[side].push(r.cpuMsPerSale);
        rate[side].push(r.salesPerS);
        detail[side].push(r);
        const writer = r.statementsPerSale === undefined ? '' : `; writer: ${round(r.statementsPerSale, 2)} statements and ${round(r.writerBusyMsPerSale!, 3)} ms busy a sale, ${round(r.batchesPerS!, 0)} commits/s`;
        log(`  run ${i + 1} ${side}: ${round(r.cpuMsPerSale, 3)} ms CPU per sale (main ${round(r.mainMsPerSale, 3)}, other threads ${round(r.otherMsPerSale, 3)}), ${round(r.salesPerS, 0)} sales/s${writer}`);
        if (FIXED_RATE > 0) {
          const f = await cpuPerSale(server, demos[side], durationS, FIXED_RATE);
          fixed[side].push(f.cpuMsPerSale);
          log(`  run ${i + 1} ${side} at ${FIXED_RATE}/s: ${round(f.cpuMsPerSale, 3)} ms CPU per sale (main ${round(f.mainMsPerSale, 3)}, other threads ${round(f.otherMsPerSale, 3)}), ${round(f.salesPerS, 0)} sales/s`);
        }
      } finally {
        await server.stop();
      }
    }
  }
  const ratio = summarize(pairedRatios(cpu.on, cpu.off));
  log(`  CPU per sale, on ÷ off (paired): median ${round(ratio.median, 3)} (min ${round(ratio.min, 3)}, max ${round(ratio.max, 3)})`);
  const rows: Outcome['rows'] = [
    { scenario: 'sale, journal on vs off', measure: 'CPU per sale', unit: 'ms', payctl: summarize(cpu.on), floor: summarize(cpu.off), ratio, ratioKind: 'time', target: 'on ÷ off ≤ 1.10', met: ratio.median <= 1.1 },
    { scenario: 'sale, journal on vs off', measure: 'sales/s', unit: '/s', payctl: summarize(rate.on), floor: summarize(rate.off), ratio: summarize(pairedRatios(rate.on, rate.off)), ratioKind: 'throughput' },
  ];
  if (FIXED_RATE > 0) {
    const fixedRatio = summarize(pairedRatios(fixed.on, fixed.off));
    log(`  CPU per sale at ${FIXED_RATE} sales/s, on ÷ off (paired): median ${round(fixedRatio.median, 3)} (min ${round(fixedRatio.min, 3)}, max ${round(fixedRatio.max, 3)})`);
    rows.push({
      scenario: `sale at ${FIXED_RATE}/s, journal on vs off`, measure: 'CPU per sale', unit: 'ms', payctl: summarize(fixed.on), floor: summarize(fixed.off), ratio: fixedRatio, ratioKind: 'time', target: 'on ÷ off ≤ 1.10', met: fixedRatio.median <= 1.1,
    });
  }
  if (base) {
    const baseRatio = summarize(pairedRatios(cpu['base-on'], cpu['base-off']));
    const onVsBase = summarize(pairedRatios(cpu.on, cpu['base-on']));
    log(`  baseline build: on ÷ off median ${round(baseRatio.median, 3)} (min ${round(baseRatio.min, 3)}, max ${round(baseRatio.max, 3)}); journal on, this build ÷ baseline: median ${round(onVsBase.median, 3)}`);
    rows.push(
      { scenario: 'sale, journal on vs off (BENCH_BASELINE build)', measure: 'CPU per sale', unit: 'ms', payctl: summarize(cpu['base-on']), floor: summarize(cpu['base-off']), ratio: baseRatio, ratioKind: 'time' },
      { scenario: 'sale, journal on: this build vs BENCH_BASELINE', measure: 'CPU per sale', unit: 'ms', payctl: summarize(cpu.on), floor: summarize(cpu['base-on']), ratio: onVsBase, ratioKind: 'time' },
    );
  }
  return { id: 'journal-sale', title: 'A sale with the request journal on and off: server CPU per sale', status: 'ok', rows, raw: { cpu, rate, detail, fixed } };
}

/**
 * journal-sale-together: the journal on and off measured at the same time — two servers,
 * each sent sales at the same fixed rate (BENCH_JOURNAL_RATE ÷ 2 each) by its own load in
 * the same seconds, so a slow spell of the shared machine falls on both sides alike (run
 * after run, the alternated scenario above saw single pairs spread from 0.75 to 1.4). A
 * window's ratio is its two CPU-per-sale figures; the sides swap databases' order of start
 * every window.
 */
export async function journalTogetherScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome> {
  const dir = await tempDir('journal-together');
  const sides = ['on', 'off'] as const;
  const dbs = { on: path.join(dir, 'on.db'), off: path.join(dir, 'off.db') };
  const demos = { on: await payctlJson<Demo>(['init', '--demo'], dbs.on), off: await payctlJson<Demo>(['init', '--demo'], dbs.off) };
  const windows = cfg.quick ? 2 : Math.max(cfg.runs, 8);
  const durationS = cfg.quick ? 3 : cfg.durationS;
  const rate = Math.max(1, Math.round((FIXED_RATE > 0 ? FIXED_RATE : 800) / 2));
  const servers = {} as Record<'on' | 'off', Served>;
  const cpu = { on: [] as number[], off: [] as number[] };
  try {
    for (const side of sides) servers[side] = await startPayctl(dbs[side], ['--access-log', 'off'], { stats: true, env: { PAYCTL_JOURNAL: side } });
    const spec = (side: 'on' | 'off') => ({
      url: `${servers[side].url}/api/v1/groups/${demos[side].group_id}/transaction`,
      method: 'POST' as const,
      headers: jsonHeaders(demos[side].keys.manage_transactions!),
      body: benchSaleJson(demos[side].processor_id),
      connections: 10,
    });
    await Promise.all(sides.map((side) => load({ ...spec(side), duration: 2 }))); // warm-up, a full journal
    for (let w = 0; w < windows; w++) {
      const before = { on: servers.on.cpuMs(), off: servers.off.cpuMs() };
      const [on, off] = await Promise.all(sides.map((side) => load({ ...spec(side), duration: durationS, ...{ overallRate: rate } })));
      const after = { on: servers.on.cpuMs(), off: servers.off.cpuMs() };
      cpu.on.push((after.on - before.on) / on!.ok);
      cpu.off.push((after.off - before.off) / off!.ok);
      log(`  window ${w + 1}: on ${round(cpu.on[w]!, 3)} ms, off ${round(cpu.off[w]!, 3)} ms CPU per sale (${round(on!.requests_per_s, 0)} and ${round(off!.requests_per_s, 0)} sales/s): ${round(cpu.on[w]! / cpu.off[w]!, 3)}`);
    }
  } finally {
    for (const side of sides) await servers[side]?.stop();
  }
  const ratio = summarize(pairedRatios(cpu.on, cpu.off));
  log(`  CPU per sale, on ÷ off, the same seconds: median ${round(ratio.median, 3)} (min ${round(ratio.min, 3)}, max ${round(ratio.max, 3)})`);
  return {
    id: 'journal-sale-together',
    title: 'A sale with the request journal on and off, both servers at once: server CPU per sale',
    status: 'ok',
    rows: [{ scenario: `sale at ${rate}/s each, journal on vs off at once`, measure: 'CPU per sale', unit: 'ms', payctl: summarize(cpu.on), floor: summarize(cpu.off), ratio, ratioKind: 'time', target: 'on ÷ off ≤ 1.10', met: ratio.median <= 1.1 }],
    raw: { cpu },
  };
}

async function call(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
}

export async function recordingReadScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome> {
  const dir = await tempDir('journal-recording');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init'], db);
  const server = await startPayctl(db, ['--access-log', 'off', '--admin-token', ADMIN]);
  try {
    const admin = jsonHeaders(ADMIN);
    const sb = JSON.parse((await call(`${server.url}/api/v1/sandboxes`, { method: 'POST', headers: admin, body: '{}' })).text) as Demo;
    const rec = `${server.url}/api/v1/sandboxes/${sb.group_id}/recording`;
    await call(rec, { method: 'POST', headers: admin });
    // Bodies of ~200 KiB (refused with a 400 naming the field, recorded whole): the journal's byte cap is reached after ~40.
    const fat = JSON.stringify({ note: Array.from({ length: 40 }, (_, i) => `${i}:${'x'.repeat(5000)}`) });
    for (let i = 0; i < 60; i++) {
      const r = await call(`${server.url}/api/v1/groups/${sb.group_id}/transaction`, { method: 'POST', headers: jsonHeaders(sb.keys.manage_transactions!), body: fat });
      if (r.status !== 400) throw new Error(`expected a 400, got ${r.status} ${r.text.slice(0, 200)}`);
    }
    const reads = cfg.quick ? 3 : 10;
    const out: Record<string, { ms: number[]; bytes: number; growthMiB: number }> = {};
    for (const format of ['json', 'scenario']) {
      const ms: number[] = [];
      let bytes = 0;
      const base = server.rss();
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 10);
      try {
        for (let i = 0; i < reads; i++) {
          const started = performance.now();
          const r = await call(`${rec}?format=${format}`, { headers: admin });
          ms.push(performance.now() - started);
          if (r.status !== 200) throw new Error(`reading the recording: ${r.status} ${r.text.slice(0, 200)}`);
          bytes = r.text.length;
        }
      } finally {
        clearInterval(sampler);
      }
      out[format] = { ms, bytes, growthMiB: (peak - base) / MiB };
      log(`  ${format}: ${round(bytes / MiB, 2)} MiB a read, median ${round(summarize(ms).median, 0)} ms, server RSS +${round((peak - base) / MiB, 1)} MiB at peak`);
    }
    return {
      id: 'journal-recording-read',
      title: 'Reading a recording at its cap (8 MiB of the journal)',
      status: 'ok',
      rows: Object.entries(out).map(([format, r]) => ({ scenario: `recording read, format ${format} (${round(r.bytes / MiB, 1)} MiB)`, measure: 'time per read', unit: 'ms', payctl: summarize(r.ms) })),
      raw: out,
    };
  } finally {
    await server.stop();
  }
}
