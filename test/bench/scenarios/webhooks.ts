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
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { load, jsonHeaders } from '../lib/load.js';
import { payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

interface Demo {
  group_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

const saleBody = (processorId: string) =>
  JSON.stringify({
    type: 'sale',
    source: 'api',
    processor_id: processorId,
    currency: 'USD',
    email_address: 'bench@example.com',
    email_receipt: false,
    amounts: { requested_amount: 1999 },
    billing_address: { first_name: 'Bench', last_name: 'Mark', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'bench@example.com' },
    payment_details: { token: 'tok_visa' },
  });

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

/** The offered rate of the fixed-rate comparison (below what either side sustains on the bench machine). */
const FIXED_RATE = 1000;

export async function webhookScenarios(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('webhooks');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<Demo>(['init', '--demo'], db);
  const rx = await startReceiver();
  // No tick: the sends are the nudged ones, and the clock advance below sends every retry itself.
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off']);
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
