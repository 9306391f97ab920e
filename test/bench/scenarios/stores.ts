// `pg-scale` (also `pg-sale`): sales on the two stores, side by side in one run: SQLite
// with one `payctl serve`, PostgreSQL with one and with three servers on one database
// (the load split evenly over them, as a load balancer would), and pgbench's TPC-B-like
// transaction on the same cluster as the anchor (../lib/tpcb.ts): the real pgbench when
// one is on PATH, and its transaction as a `pg` client loop (always: the figure earlier
// runs had). The sides alternate
// run by run, so a slow spell of the shared machine does not always hit the same one.
// Reported: sales/s, p99, and CPU per sale — the servers' and, on PostgreSQL, the
// database's (the side's own backends and the cluster's shared processes) — so the figures can be read for a machine with more cores
// than this one; the writes PostgreSQL made run again (serialization failures,
// deadlocks) per 1,000 sales, by the statement they failed at; and the scaling targets as
// ratios of the runs made side by side.
import path from 'node:path';
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { load, jsonHeaders, type LoadRun } from '../lib/load.js';
import { baselineBin, payctlJson, startPayctl, tempDir, type Served, type ServerStats } from '../lib/processes.js';
import { checkpoint, clusterCpuMs, newPgDatabase, pgDatabaseName, vacuum } from '../lib/postgres.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import { pgbenchInit, pgbenchPath, pgbenchRun, tpcbInit, tpcbRun, type TpcbRun } from '../lib/tpcb.js';
import type { BenchConfig, Outcome, Row } from '../lib/outcome.js';
import { benchSaleJson } from '../lib/sale.js';

interface Demo {
  group_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

type AnchorId = 'tpcb' | 'pgbench';
type SideId = 'sqlite-1' | 'postgres-1' | 'postgres-3' | 'postgres-1-baseline' | 'postgres-3-baseline' | AnchorId;

interface Side {
  id: Exclude<SideId, AnchorId>;
  label: string;
  db: string;
  servers: Served[];
  demo: Demo;
}

interface Run {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  ok: number;
  serverCpuUs: number;
  dbCpuUs: number;
  retries: Record<string, number>;
  /** Writes per write transaction the servers ran (group commit: several writes share one; SQLite's batches likewise). */
  writesPerTx?: number;
}


type WithRetries = ServerStats & { writer: ServerStats['writer'] & { retries?: Record<string, number> } };

/** The servers' writes PostgreSQL gave up on, by where (`retries`), and their writes and write transactions so far (summed). */
async function writerCounts(servers: Served[]): Promise<{ retries: Record<string, number>; writes: number; transactions: number }> {
  const out: Record<string, number> = {};
  let writes = 0;
  let transactions = 0;
  for (const s of servers) {
    const st = (await s.stats()) as WithRetries | undefined;
    for (const [k, v] of Object.entries(st?.writer.retries ?? {})) out[k] = (out[k] ?? 0) + v;
    writes += st?.writer.writes ?? 0;
    transactions += st?.writer.batches ?? 0;
  }
  return { retries: out, writes, transactions };
}

async function side(id: Side['id'], label: string, servers: number, bin?: string): Promise<Side> {
  const dir = await tempDir(`stores-${id}`);
  const db = id === 'sqlite-1' ? path.join(dir, 'payctl.db') : await newPgDatabase('sales');
  const extra = id === 'sqlite-1' ? [] : ['--data-dir', dir];
  const demo = await payctlJson<Demo>(['init', '--demo', ...extra], db, bin);
  const started: Served[] = [];
  // A baseline build (BENCH_BASELINE) of this store has the same stats line: its retries are read too.
  for (let i = 0; i < servers; i++) started.push(await startPayctl(db, extra, { bin, stats: true }));
  return { id, label, db, servers: started, demo };
}

async function runOnce(s: Side, connections: number, seconds: number): Promise<Run> {
  const salePath = `/api/v1/groups/${s.demo.group_id}/transaction`;
  const headers = jsonHeaders(s.demo.keys.manage_transactions);
  const saleBody = benchSaleJson(s.demo.processor_id);
  if (s.id !== 'sqlite-1') await checkpoint();
  const cpu0 = s.servers.reduce((n, x) => n + x.cpuMs(), 0);
  const db0 = s.id === 'sqlite-1' ? 0 : await clusterCpuMs(pgDatabaseName(s.db));
  const w0 = await writerCounts(s.servers);
  const t0 = performance.now();
  // The connections split over the servers, each server its own load generator (one balancer's worth).
  const per = s.servers.map((_, i) => Math.floor(connections / s.servers.length) + (i < connections % s.servers.length ? 1 : 0));
  const runs: LoadRun[] = await Promise.all(
    s.servers.map((x, i) => load({ url: x.url, connections: per[i]!, duration: seconds, requests: [{ method: 'POST', path: salePath, headers, body: saleBody }] })),
  );
  const wallS = (performance.now() - t0) / 1000;
  const ok = runs.reduce((n, r) => n + r.ok, 0);
  const cpu1 = s.servers.reduce((n, x) => n + x.cpuMs(), 0);
  const db1 = s.id === 'sqlite-1' ? 0 : await clusterCpuMs(pgDatabaseName(s.db));
  const w1 = await writerCounts(s.servers);
  const retries: Record<string, number> = {};
  for (const [k, v] of Object.entries(w1.retries)) if (v - (w0.retries[k] ?? 0) > 0) retries[k] = v - (w0.retries[k] ?? 0);
  return {
    rate: ok / Math.max(wallS, Math.max(...runs.map((r) => r.duration_s))),
    // Each server's latencies are measured apart: the worst p50/p99 of the servers is reported.
    p50: Math.max(...runs.map((r) => r.latency_p50_ms)),
    p99: Math.max(...runs.map((r) => r.latency_p99_ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    ok,
    serverCpuUs: ((cpu1 - cpu0) * 1000) / Math.max(1, ok),
    dbCpuUs: ((db1 - db0) * 1000) / Math.max(1, ok),
    retries,
    writesPerTx: (w1.writes - w0.writes) / Math.max(1, w1.transactions - w0.transactions),
  };
}

/** The longest warm-up of one side (seconds): a side that slow is reported as it is. */
const WARM_MAX_S = 120;

/** The anchor: pgbench's TPC-B-like transaction, its clients and scale. */
const TPCB_CLIENTS = 16;
const TPCB_SCALE = 16;

interface Anchor {
  id: AnchorId;
  label: string;
  url: string;
  /** The pgbench binary (id 'pgbench'). */
  bin?: string;
}

const anchorTitle: Record<AnchorId, string> = {
  pgbench: `pgbench TPC-B-like (the real pgbench, -M prepared), ${TPCB_CLIENTS} clients, -j 2, scale ${TPCB_SCALE}`,
  tpcb: `pgbench TPC-B-like (5 statements, 1 commit; a pg client loop), ${TPCB_CLIENTS} clients, scale ${TPCB_SCALE}`,
};

async function anchor(id: AnchorId, bin?: string): Promise<Anchor> {
  const url = await newPgDatabase(id);
  // The database must exist before the tables: payctl makes its own, the anchor's is made here.
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${url.slice(url.lastIndexOf('/') + 1)}`);
  await admin.end();
  if (id === 'pgbench') await pgbenchInit(bin!, url, TPCB_SCALE);
  else await tpcbInit(url, TPCB_SCALE);
  return { id, label: id === 'pgbench' ? `pgbench, ${TPCB_CLIENTS} clients` : `TPC-B-like loop, ${TPCB_CLIENTS} cl.`, url, bin };
}

async function runAnchor(a: Anchor, seconds: number): Promise<Run> {
  await checkpoint();
  const db0 = await clusterCpuMs(pgDatabaseName(a.url));
  const c0 = process.cpuUsage();
  const r: TpcbRun & { cpuMs?: number } = a.id === 'pgbench' ? await pgbenchRun(a.bin!, a.url, TPCB_CLIENTS, seconds) : await tpcbRun(a.url, TPCB_SCALE, TPCB_CLIENTS, seconds);
  const c = process.cpuUsage(c0);
  const db1 = await clusterCpuMs(pgDatabaseName(a.url));
  // The clients' CPU: the pgbench process, or the bench process (which drives nothing else meanwhile).
  const clientUs = r.cpuMs !== undefined ? r.cpuMs * 1000 : c.user + c.system;
  return {
    rate: r.transactions / r.duration_s,
    p50: Number.NaN,
    p99: Number.NaN,
    errors: r.errors,
    ok: r.transactions,
    serverCpuUs: clientUs / Math.max(1, r.transactions),
    dbCpuUs: ((db1 - db0) * 1000) / Math.max(1, r.transactions),
    retries: {},
  };
}

const per1000 = (r: Run) => (Object.values(r.retries).reduce((a, b) => a + b, 0) * 1000) / Math.max(1, r.ok);

export async function storeSaleScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const sides: Array<Side | Anchor> = [];
  // 48: the three servers' share is the same 16 connections each.
  const connections = cfg.connections === 50 ? 48 : cfg.connections;
  const isAnchor = (s: Side | Anchor): s is Anchor => s.id === 'tpcb' || s.id === 'pgbench';
  const runSide = (s: Side | Anchor, seconds: number) => (isAnchor(s) ? runAnchor(s, seconds) : runOnce(s, connections, seconds));
  try {
    sides.push(await side('sqlite-1', 'SQLite, 1 server', 1));
    sides.push(await side('postgres-1', 'PostgreSQL, 1 server', 1));
    sides.push(await side('postgres-3', 'PostgreSQL, 3 servers', 3));
    const pgbench = pgbenchPath();
    if (pgbench) sides.push(await anchor('pgbench', pgbench));
    sides.push(await anchor('tpcb'));
    // Another build on PostgreSQL (BENCH_BASELINE), alternated with this one in the same run.
    const other = baselineBin();
    if (other) {
      sides.push(await side('postgres-1-baseline', 'PostgreSQL, 1 server (baseline)', 1, other));
      sides.push(await side('postgres-3-baseline', 'PostgreSQL, 3 servers (baseline)', 3, other));
    }
    log(`  anchor of the targets: ${pgbench ? `the real pgbench (${pgbench})` : 'the pg client loop (no pgbench on PATH)'}`);
    for (const s of sides) log(`  ${s.label}: ${isAnchor(s) ? s.url : s.servers.map((x) => `${x.url} (pid ${x.pid})`).join(', ')}`);
    // Warm: the anchors for one short run; payctl's sides until each of their servers has
    // served cfg.warmSalesPerServer sales (at most WARM_MAX_S). Measured with a 2 s warm-up
    // only, three servers were still speeding up run after run (552, 699, 812, 900 sales/s
    // in four 6 s runs) and their ratio to one server was the JIT's, not the store's.
    for (const s of sides) {
      if (isAnchor(s)) {
        await runSide(s, cfg.warmupS);
        continue;
      }
      const started = performance.now();
      let served = 0;
      while (served < cfg.warmSalesPerServer * s.servers.length && performance.now() - started < WARM_MAX_S * 1000) served += (await runOnce(s, connections, Math.max(cfg.warmupS, 2))).ok;
      if (s.id !== 'sqlite-1') await vacuum(s.db);
      log(`  warmed ${s.label}: ${served} sales in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const results = new Map<SideId, Run[]>(sides.map((s) => [s.id, []]));
    for (let i = 0; i < cfg.runs; i++) {
      const order = sides.map((_, k) => sides[(k + i) % sides.length]!);
      if (i % 2 === 1) order.reverse();
      for (const s of order) {
        const r = await runSide(s, cfg.durationS);
        results.get(s.id)!.push(r);
        const where = Object.entries(r.retries).map(([k, v]) => `${k}: ${v}`).join(', ');
        log(
          isAnchor(s)
            ? `  run ${i + 1} ${s.label.padEnd(22)} ${r.rate.toFixed(0).padStart(5)} tx/s     errors ${r.errors}  CPU/tx clients ${r.serverCpuUs.toFixed(0)} µs + database ${r.dbCpuUs.toFixed(0)} µs`
            : `  run ${i + 1} ${s.label.padEnd(22)} ${r.rate.toFixed(0).padStart(5)} sales/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  CPU/sale servers ${r.serverCpuUs.toFixed(0)} µs + database ${r.dbCpuUs.toFixed(0)} µs  writes/tx ${r.writesPerTx?.toFixed(1) ?? '–'}  retries ${per1000(r).toFixed(1)}/1000${where ? ` (${where})` : ''}`,
        );
      }
    }
    const rows: Row[] = [];
    for (const s of sides) {
      const rs = results.get(s.id)!;
      if (isAnchor(s)) {
        const scenario = anchorTitle[s.id];
        rows.push(
          { scenario, measure: 'transactions/s', unit: '/s', payctl: summarize(rs.map((r) => r.rate)) },
          { scenario, measure: `CPU per transaction: clients (${s.id === 'pgbench' ? 'the pgbench process' : 'the bench process'})`, unit: 'µs', payctl: summarize(rs.map((r) => r.serverCpuUs)) },
          { scenario, measure: 'CPU per transaction: PostgreSQL', unit: 'µs', payctl: summarize(rs.map((r) => r.dbCpuUs)) },
        );
        continue;
      }
      const scenario = `sale (tok_visa), ${connections} connections: ${s.label}`;
      rows.push(
        { scenario, measure: 'sales/s', unit: '/s', payctl: summarize(rs.map((r) => r.rate)) },
        { scenario, measure: 'latency p99 (worst server)', unit: 'ms', payctl: summarize(rs.map((r) => r.p99)) },
        { scenario, measure: 'CPU per sale: servers', unit: 'µs', payctl: summarize(rs.map((r) => r.serverCpuUs)) },
        ...(s.id === 'sqlite-1' ? [] : [{ scenario, measure: 'CPU per sale: PostgreSQL', unit: 'µs', payctl: summarize(rs.map((r) => r.dbCpuUs)) }]),
        ...(s.id === 'sqlite-1' ? [] : [{ scenario, measure: 'writes run again per 1,000 sales', unit: '', payctl: summarize(rs.map(per1000)) }]),
        { scenario, measure: 'writes per write transaction (group commit)', unit: '', payctl: summarize(rs.map((r) => r.writesPerTx ?? Number.NaN).filter((n) => !Number.isNaN(n))) },
        { scenario, measure: 'errors', unit: '', payctl: summarize(rs.map((r) => r.errors)), target: '= 0', met: rs.every((r) => r.errors === 0) },
      );
    }
    rows.push(...targets(results, pgbench ? 'pgbench' : 'tpcb'));
    return [
      {
        id: 'pg-scale',
        title: 'sale/s on SQLite (1 server) and PostgreSQL (1 and 3 servers), pgbench TPC-B-like as the anchor',
        status: 'ok',
        rows,
        raw: Object.fromEntries([...results].map(([id, rs]) => [id, rs])),
      },
    ];
  } finally {
    for (const s of sides) if ('servers' in s) for (const x of s.servers) await x.stop();
  }
}

/** The scaling targets (docs/benchmarks/postgresql.md, "More servers, more sales"), each a ratio of runs made side by side (run i of one side against run i of the other), medians. */
function targets(results: Map<SideId, Run[]>, anchorId: AnchorId): Row[] {
  const of = (id: SideId, f: (r: Run) => number) => (results.get(id) ?? []).map(f);
  const rate = (r: Run) => r.rate;
  const total = (r: Run) => r.serverCpuUs + r.dbCpuUs;
  const scenario = 'pg-scale targets (ratios of side-by-side runs)';
  const row = (measure: string, ratios: number[], target: string, ok: (m: number) => boolean): Row => {
    const payctl = summarize(ratios);
    return { scenario, measure, unit: '×', payctl, target, met: payctl.n > 0 && ok(payctl.median) };
  };
  const other: AnchorId = anchorId === 'pgbench' ? 'tpcb' : 'pgbench';
  const otherRatios = pairedRatios(of('postgres-1', rate), of(other, rate));
  return [
    row(`1 PostgreSQL server ÷ TPC-B-like (sales/s ÷ tx/s; ${anchorId === 'pgbench' ? 'the real pgbench' : 'the pg client loop'})`, pairedRatios(of('postgres-1', rate), of(anchorId, rate)), '≥ 0.5', (m) => m >= 0.5),
    // The other anchor, when it ran too: for comparison with runs that had only it.
    ...(otherRatios.length > 0 ? [{ scenario, measure: `1 PostgreSQL server ÷ ${other === 'tpcb' ? 'the pg client loop' : 'the real pgbench'} (sales/s ÷ tx/s)`, unit: '×', payctl: summarize(otherRatios) }] : []),
    row('3 servers ÷ 1 server (sales/s)', pairedRatios(of('postgres-3', rate), of('postgres-1', rate)), '≥ 1', (m) => m >= 1),
    row('3 servers ÷ 1 server (CPU per sale, servers + PostgreSQL)', pairedRatios(of('postgres-3', total), of('postgres-1', total)), '≤ 1.3', (m) => m <= 1.3),
    row("a server's CPU per sale, PostgreSQL ÷ SQLite", pairedRatios(of('postgres-1', (r) => r.serverCpuUs), of('sqlite-1', (r) => r.serverCpuUs)), '≤ 2.5', (m) => m <= 2.5),
  ];
}
