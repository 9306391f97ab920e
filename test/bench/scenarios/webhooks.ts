// Webhooks against the real `payctl serve` and a local receiver (a bare node:http server
// in the bench process answering 200):
// - sale with one subscribed webhook endpoint: server CPU per sale (all threads), runs
//   alternated with the same load and the endpoint disabled (no endpoint takes the sale:
//   no delivery row, no send). A run with the endpoint counts until the receiver got every
//   sale it acknowledged, so the sending and recording are in its CPU. Twice: at full
//   speed (50 connections), and at one fixed offered rate for both sides;
// - deliveries/s: N events whose first attempt failed (the receiver answered 503), then
//   the receiver answers 200 and one group clock advance sends every retry that fell due;
//   the rate is the retries over that request's wall time.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { load, jsonHeaders } from '../lib/load.js';
import { payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { benchSaleJson } from '../lib/sale.js';

interface Demo {
  group_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

const saleBody = benchSaleJson;

interface Receiver {
  url: string;
  count: number;
  status: number;
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const r = {
    url: '',
    count: 0,
    status: 200,
    waitFor: (n: number) => (r.count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      r.count++;
      for (const w of waiters.splice(0)) (r.count >= w.n ? w.resolve() : waiters.push(w));
      res.writeHead(r.status, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return r;
}

async function call(url: string, method: string, key: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(url, { method, headers: jsonHeaders(key), body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, json: JSON.parse(text) };
}

/** BENCH_WEBHOOKS_BUILD: another built checkout whose CLI and server these scenarios run instead (not BENCH_BASELINE, which runs beside). */
function otherBuild(): string | undefined {
  const dir = process.env.BENCH_WEBHOOKS_BUILD;
  return dir ? path.join(path.resolve(dir), 'bin', 'run.js') : undefined;
}

/** The offered rate of the fixed-rate comparison (below what either side sustains on the bench machine). */
const FIXED_RATE = 1000;

export async function webhookScenarios(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('webhooks');
  const db = path.join(dir, 'payctl.db');
  // BENCH_WEBHOOKS_BUILD=<built checkout>: the same scenario with that build's CLI and server (a before/after).
  const bin = otherBuild();
  if (bin) log(`  server: ${bin} (BENCH_WEBHOOKS_BUILD)`);
  const demo = await payctlJson<Demo>(['init', '--demo'], db, bin);
  const rx = await startReceiver();
  // No tick: the sends are the nudged ones, and the clock advance below sends every retry itself.
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off'], bin ? { bin } : {});
  const g = `${server.url}/api/v1/groups/${demo.group_id}`;
  const hooksKey = demo.keys.manage_webhooks!;
  const salesKey = demo.keys.manage_transactions!;
  try {
    const endpoint = (await call(`${g}/webhook_endpoints`, 'POST', hooksKey, { url: rx.url, enabled_events: ['transaction.*'], disabled: true })).json;
    const setEnabled = (on: boolean) => call(`${g}/webhook_endpoints/${endpoint.id}`, 'PATCH', hooksKey, { disabled: !on });
    const probe = await fetch(`${g}/transaction`, { method: 'POST', headers: jsonHeaders(salesKey), body: saleBody(demo.processor_id) });
    if (probe.status !== 200) throw new Error(`a sale failed before the load: ${probe.status} ${await probe.text()}`);
    const requests = [{ method: 'POST' as const, path: `/api/v1/groups/${demo.group_id}/transaction`, headers: jsonHeaders(salesKey), body: saleBody(demo.processor_id) }];

    // -- CPU per sale, with and without the subscribed endpoint, alternated.
    const runOne = async (withEndpoint: boolean, seconds: number, rate?: number) => {
      await setEnabled(withEndpoint);
      const received0 = rx.count;
      const threads0 = server.threadCpuMs();
      const cpu0 = server.cpuMs();
      const run = await load({ url: server.url, connections: cfg.connections, duration: seconds, requests, ...(rate ? { overallRate: rate } : {}) });
      const approved = run.ok; // tok_visa: every acknowledged sale is approved
      if (withEndpoint) await rx.waitFor(received0 + approved);
      const cpuUs = ((server.cpuMs() - cpu0) * 1000) / Math.max(1, approved);
      const threads1 = server.threadCpuMs();
      // The split: the main thread, and the others (SQLite's thread pool, V8's GC and compiler threads).
      const mainUs = ((threads1.main - threads0.main) * 1000) / Math.max(1, approved);
      const othersUs = ((threads1.others - threads0.others) * 1000) / Math.max(1, approved);
      return { rate: run.requests_per_s, cpuUs, mainUs, othersUs, delivered: rx.count - received0, approved, errors: run.errors };
    };
    log('- sale with one subscribed webhook endpoint (alternated with the endpoint disabled)');
    await runOne(false, cfg.warmupS);
    await runOne(true, cfg.warmupS);
    const none: number[] = [];
    const one: number[] = [];
    const rates: Record<'none' | 'one', number[]> = { none: [], one: [] };
    for (let i = 0; i < cfg.runs; i++) {
      for (const withEndpoint of i % 2 === 0 ? [false, true] : [true, false]) {
        const r = await runOne(withEndpoint, cfg.durationS);
        (withEndpoint ? one : none).push(r.cpuUs);
        rates[withEndpoint ? 'one' : 'none'].push(r.rate);
        log(
          `  run ${i + 1} ${withEndpoint ? 'endpoint' : 'none    '} ${r.rate.toFixed(0).padStart(6)} sales/s  server CPU ${r.cpuUs.toFixed(0)} µs/sale (main ${r.mainUs.toFixed(0)}, other threads ${r.othersUs.toFixed(0)})  delivered ${r.delivered}/${withEndpoint ? r.approved : 0}  errors ${r.errors}`,
        );
      }
    }
    const cpuRatio = summarize(pairedRatios(one, none));

    // -- The same, at one fixed offered rate for both sides. At full speed the two sides run at
    // different rates (the receiver shares the machine), and a sale's own CPU depends on the
    // rate (the writer batches more sales per transaction when more arrive): a fixed rate
    // compares the same sale load, so the difference is what the deliveries cost.
    const fixedRate = FIXED_RATE;
    log(`- the same at a fixed ${fixedRate} sales/s (alternated)`);
    const noneFixed: number[] = [];
    const oneFixed: number[] = [];
    for (let i = 0; i < cfg.runs; i++) {
      for (const withEndpoint of i % 2 === 0 ? [false, true] : [true, false]) {
        const r = await runOne(withEndpoint, cfg.durationS, fixedRate);
        (withEndpoint ? oneFixed : noneFixed).push(r.cpuUs);
        log(
          `  run ${i + 1} ${withEndpoint ? 'endpoint' : 'none    '} ${r.rate.toFixed(0).padStart(6)} sales/s  server CPU ${r.cpuUs.toFixed(0)} µs/sale (main ${r.mainUs.toFixed(0)}, other threads ${r.othersUs.toFixed(0)})  delivered ${r.delivered}/${withEndpoint ? r.approved : 0}  errors ${r.errors}`,
        );
      }
    }
    const fixedRatio = summarize(pairedRatios(oneFixed, noneFixed));

    // -- deliveries/s: retries of N events sent by one clock advance of the group.
    const n = cfg.quick ? 2000 : 5000;
    await setEnabled(true);
    rx.status = 503;
    const before = rx.count;
    const burst = await load({ url: server.url, connections: cfg.connections, amount: n, requests });
    await rx.waitFor(before + burst.ok); // every first attempt, failed
    // … and recorded: the loop that sent them is idle (a bench may poll; a test may not).
    const direct = await openDirect(db);
    try {
      const pending = async () =>
        (await direct.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0"))!.n;
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await direct.close();
    }
    rx.status = 200;
    const retried0 = rx.count;
    const t0 = performance.now();
    const moved = (await call(`${server.url}/api/v1/sandboxes/${demo.group_id}/clock`, 'POST', salesKey, { advance: '10s' })).json;
    const seconds = (performance.now() - t0) / 1000;
    const sent = moved.work['webhook-deliveries'] as number;
    if (rx.count - retried0 !== sent) throw new Error(`the receiver got ${rx.count - retried0} requests, the clock advance says it sent ${sent}`);
    const perSecond = sent / seconds;
    log(`- deliveries/s: ${sent} retries (clock advance work ${JSON.stringify(moved.work)}) in ${seconds.toFixed(2)} s: ${perSecond.toFixed(0)}/s`);

    return [
      {
        id: 'webhooks',
        title: 'Webhooks',
        status: 'ok',
        rows: [
          {
            scenario: 'sale with one subscribed webhook endpoint (vs the endpoint disabled)',
            measure: 'server CPU per sale',
            unit: 'µs',
            payctl: summarize(one),
            floor: summarize(none),
            ratio: cpuRatio,
            target: '≤ 1.15× none',
            met: cpuRatio.median <= 1.15,
          },
          { scenario: '', measure: 'sales/s', unit: '/s', payctl: summarize(rates.one), floor: summarize(rates.none) },
          {
            scenario: `the same sale load at a fixed ${fixedRate} sales/s (vs the endpoint disabled)`,
            measure: 'server CPU per sale',
            unit: 'µs',
            payctl: summarize(oneFixed),
            floor: summarize(noneFixed),
            ratio: fixedRatio,
            target: '≤ 1.15× none',
            met: fixedRatio.median <= 1.15,
          },
          {
            scenario: `deliveries to a local receiver (${sent} retries sent by one clock advance)`,
            measure: 'deliveries/s',
            unit: '/s',
            payctl: summarize([perSecond]),
            target: '≥ 1,000/s',
            met: perSecond >= 1000,
          },
        ],
        raw: { cpu_us_one: one, cpu_us_none: none, rates, fixed_rate: fixedRate, cpu_us_one_fixed: oneFixed, cpu_us_none_fixed: noneFixed, deliveries: { sent, seconds } },
      },
    ];
  } finally {
    await server.stop();
    await rx.close();
  }
}

// -- Another group's webhook latency while one endpoint hangs.
//
// Two sandboxes on one `payctl serve` (`--tick 0`): A's endpoint is a receiver that
// accepts and never answers, B's a bare node:http receiver answering 200 that notes when
// each sale's event arrives. First B alone: B_SALES sales at a fixed pace, each delivery's
// latency from the sale's answer to the receiver seeing it. Then A makes HANG_SALES sales
// (as fast as 50 connections go) whose deliveries all hang, and B's measure is repeated
// while A's attempts are out. One run of each; the hanging receiver also reports the most
// connections it held at once (the per-endpoint limit).
const ADMIN = 'padm_bench_admin_token';
const HANG_SALES = 1000;
const B_SALES = 100;
const B_EVERY_MS = 50;

interface SandboxReply {
  group_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

async function timedReceiver() {
  const arrivals = new Map<string, number>();
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const e = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { object: { id: string } } };
      if (e.type === 'transaction.approved') arrivals.set(e.data.object.id, at);
      for (const w of waiters.splice(0)) w();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    changed: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function hangingReceiver() {
  const sockets = new Set<net.Socket>();
  let maxOpen = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    maxOpen = Math.max(maxOpen, sockets.size);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // reads the request, never answers
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    maxOpen: () => maxOpen,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  };
}

export async function webhookIsolationScenario(_cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('webhook-isolation');
  const db = path.join(dir, 'payctl.db');
  const bin = otherBuild();
  if (bin) log(`  server: ${bin} (BENCH_WEBHOOKS_BUILD)`);
  await payctlJson(['init'], db, bin);
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off', '--admin-token', ADMIN], bin ? { bin } : {});
  const rx = await timedReceiver();
  const hang = await hangingReceiver();
  try {
    const sandbox = async (name: string) => (await call(`${server.url}/api/v1/sandboxes`, 'POST', ADMIN, { name })).json as SandboxReply;
    const a = await sandbox('hanging receiver');
    const b = await sandbox('another group');
    const hook = (sb: SandboxReply, url: string) =>
      call(`${server.url}/api/v1/groups/${sb.group_id}/webhook_endpoints`, 'POST', sb.keys.manage_webhooks!, { url, enabled_events: ['transaction.*'] });
    await hook(b, rx.url);

    /** B_SALES sales of B at a fixed pace; each delivery's latency from the sale's answer. */
    const measureB = async (label: string): Promise<number[]> => {
      const answered = new Map<string, number>();
      for (let i = 0; i < B_SALES; i++) {
        const next = performance.now() + B_EVERY_MS;
        const r = await call(`${server.url}/api/v1/groups/${b.group_id}/transaction`, 'POST', b.keys.manage_transactions!, JSON.parse(saleBody(b.processor_id)));
        answered.set(r.json.id as string, performance.now());
        const wait = next - performance.now();
        if (wait > 0) await new Promise((r2) => setTimeout(r2, wait));
      }
      const deadline = performance.now() + 120_000;
      while ([...answered.keys()].some((id) => !rx.arrivals.has(id)) && performance.now() < deadline) {
        await Promise.race([rx.changed(), new Promise((r2) => setTimeout(r2, 1000))]);
      }
      const latencies = [...answered].map(([id, t]) => (rx.arrivals.has(id) ? rx.arrivals.get(id)! - t : Number.POSITIVE_INFINITY));
      const s = summarize(latencies);
      const sorted = [...latencies].sort((x, y) => x - y);
      const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
      log(`  ${label}: ${s.n}/${B_SALES} delivered, latency p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, max ${s.max.toFixed(1)} ms`);
      return latencies;
    };

    const alone = await measureB('B alone');
    await hook(a, hang.url);
    const aSale = [{ method: 'POST' as const, path: `/api/v1/groups/${a.group_id}/transaction`, headers: jsonHeaders(a.keys.manage_transactions), body: saleBody(a.processor_id) }];
    const burst = await load({ url: server.url, connections: 50, amount: HANG_SALES, requests: aSale });
    log(`  A: ${burst.ok} sales to the hanging endpoint (${burst.errors} errors); measuring B while A's deliveries hang`);
    const during = await measureB('B while A hangs');
    log(`  the hanging receiver held at most ${hang.maxOpen()} connections at once`);
    const pct = (xs: number[], q: number) => {
      const sorted = [...xs].sort((x, y) => x - y);
      return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    };
    const row = (measure: string, q: number) => ({
      scenario: measure.endsWith('p50') ? `another group's webhook latency while one endpoint hangs (${HANG_SALES} sales to it first; vs no hanging endpoint)` : '',
      measure,
      unit: 'ms',
      payctl: summarize([pct(during, q)]),
      floor: summarize([pct(alone, q)]),
    });
    return [
      {
        id: 'webhook-isolation',
        title: 'Webhooks: another group while one endpoint hangs',
        status: 'ok',
        rows: [row('delivery latency p50', 0.5), row('delivery latency p99', 0.99), row('delivery latency max', 1)],
        raw: { alone_ms: alone, during_ms: during, hang_sales: burst.ok, hanging_max_connections: hang.maxOpen() },
      },
    ];
  } finally {
    await server.stop();
    await rx.close();
    await hang.close();
  }
}
