// The HTTP load scenarios against the real `payctl serve`, each run side by side with
// the floor (a bare polka server answering the same-size JSON): sale with a token, sale
// from a stored card, auth-then-capture pairs; then the server's peak memory under that
// load, and the durability check: the server is killed with SIGKILL and every
// acknowledged sale, auth and capture must be in the database.
import path from 'node:path';
import type { RequestSpec } from 'autocannon';
import { load, jsonHeaders, type LoadRun } from '../lib/load.js';
import { payctlJson, startFloor, startPayctl, tempDir, type Served } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome, Row } from '../lib/outcome.js';

interface Demo {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  customer_id: string;
  card_id?: string;
  keys: Record<string, string>;
}

const MiB = 2 ** 20;

const billing = {
  first_name: 'Bench',
  last_name: 'Mark',
  line_1: '1 Main St',
  city: 'Springfield',
  subdivision: 'IL',
  postal_code: '62701',
  country: 'US',
  email: 'bench@example.com',
};

function saleBody(demo: Demo, type: 'sale' | 'auth', payment: Record<string, unknown>, withBilling: boolean): string {
  return JSON.stringify({
    type,
    source: 'api',
    processor_id: demo.processor_id,
    currency: 'USD',
    email_address: 'bench@example.com',
    email_receipt: false,
    amounts: { requested_amount: 1999 },
    ...(withBilling ? { billing_address: billing } : {}),
    payment_details: payment,
  });
}

async function post(url: string, key: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: jsonHeaders(key), body });
  return { status: res.status, text: await res.text() };
}

/** A stored card of the demo customer: the demo's own if it has one, else one added through the API. */
async function storedCard(base: string, demo: Demo): Promise<string> {
  if (demo.card_id) return demo.card_id;
  const r = await post(
    `${base}/api/v1/groups/${demo.group_id}/processing/${demo.linked_account_id}/customers/${demo.customer_id}/payment_methods/card`,
    demo.keys.manage_customers!,
    JSON.stringify({ token: 'tok_visa', billing_address: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' } }),
  );
  if (r.status !== 200 && r.status !== 201) throw new Error(`add card failed: ${r.status} ${r.text}`);
  return (JSON.parse(r.text) as { card_id: string }).card_id;
}

interface Workload {
  id: string;
  title: string;
  /** The autocannon request list for a server at `base`. */
  requests(base: string): RequestSpec[];
  /** Throughput figure: requests/s, or captures/s for the pairs. */
  rate(run: LoadRun, capturesInRun: number): number;
  measure: string;
  target: { ratio: number; p99Ms?: number };
}

export async function httpScenarios(cfg: BenchConfig, log: (line: string) => void, want: (id: string) => boolean): Promise<Outcome[]> {
  const dir = await tempDir('http');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<Demo>(['init', '--demo'], db);
  const server = await startPayctl(db);
  let floor: Served | undefined;
  const outcomes: Outcome[] = [];
  try {
    const salePath = `/api/v1/groups/${demo.group_id}/transaction`;
    const key = demo.keys.manage_transactions!;
    const headers = jsonHeaders(key);
    const tokenSale = saleBody(demo, 'sale', { token: 'tok_visa' }, true);
    const probe = await post(server.url + salePath, key, tokenSale);
    if (probe.status !== 200) throw new Error(`a sale failed before the load: ${probe.status} ${probe.text}`);
    const responseBytes = Buffer.byteLength(probe.text);
    const cardId = await storedCard(server.url, demo);
    const cardSale = saleBody(demo, 'sale', { customer: { customer_id: demo.customer_id, card_id: cardId } }, false);
    const cardProbe = await post(server.url + salePath, key, cardSale);
    if (cardProbe.status !== 200) throw new Error(`a stored-card sale failed before the load: ${cardProbe.status} ${cardProbe.text}`);
    floor = await startFloor(responseBytes);
    log(`  payctl ${server.url} (pid ${server.pid}), floor ${floor.url}, response ${responseBytes} bytes`);

    const direct = await openDirect(db);
    const before = (await direct.get<{ n: number; captured: number }>(
      "SELECT COUNT(*) AS n, SUM(status = 'captured') AS captured FROM transactions",
    ))!;
    await direct.close();

    // Acknowledged writes against payctl (floor runs use their own counters).
    const acked = { sales: 0, auths: 0, captures: 0 };
    const single = (body: string) => ({
      requests: (): RequestSpec[] => [{ method: 'POST', path: salePath, headers, body }],
      rate: (run: LoadRun) => run.requests_per_s,
    });
    const pairCounters = { sales: 0, auths: 0, captures: 0 };
    const workloads: Workload[] = [
      { id: 'sale-token', title: 'sale, token (tok_visa), HTTP, 50 connections', measure: 'sales/s', target: { ratio: 0.5, p99Ms: 50 }, ...single(tokenSale) },
      { id: 'sale-card', title: 'sale from a stored customer card', measure: 'sales/s', target: { ratio: 0.4, p99Ms: 50 }, ...single(cardSale) },
      {
        id: 'auth-capture',
        title: 'auth then capture, pairs',
        measure: 'captures/s',
        target: { ratio: 0.3 },
        rate: (run, captures) => captures / run.duration_s,
        requests: () => [
          {
            method: 'POST',
            path: salePath,
            headers,
            body: saleBody(demo, 'auth', { token: 'tok_visa' }, true),
            onResponse: (status, body, ctx) => {
              ctx.id = undefined;
              if (status !== 200) return;
              pairCounters.auths++;
              ctx.id = (JSON.parse(body) as { id: string }).id;
            },
          },
          {
            method: 'POST',
            headers,
            body: JSON.stringify({ amount: 1999 }),
            // No id (the auth failed): start the pair again.
            setupRequest: (req, ctx) => (typeof ctx.id === 'string' ? { ...req, path: `${salePath}/${ctx.id}/capture` } : undefined),
            onResponse: (status) => {
              if (status === 200) pairCounters.captures++;
            },
          },
        ],
      },
    ];

    for (const w of workloads) {
      if (!want(w.id)) continue;
      log(`- ${w.title}`);
      const target = { payctl: server, floor: floor };
      const runOne = async (which: 'payctl' | 'floor', seconds: number) => {
        pairCounters.auths = pairCounters.captures = 0;
        const cpu0 = target[which].cpuMs();
        const run = await load({ url: target[which].url, connections: cfg.connections, duration: seconds, requests: w.requests(target[which].url) });
        // Server CPU (every thread) per acknowledged request: what the ratio comes from on a CPU-bound machine.
        const cpuUsPerRequest = ((target[which].cpuMs() - cpu0) * 1000) / Math.max(1, run.ok);
        const captures = pairCounters.captures;
        if (which === 'payctl') {
          if (w.id === 'auth-capture') {
            acked.auths += pairCounters.auths;
            acked.captures += pairCounters.captures;
          } else acked.sales += run.ok;
        }
        return { run, rate: w.rate(run, captures), cpuUsPerRequest };
      };
      await runOne('floor', cfg.warmupS);
      await runOne('payctl', cfg.warmupS);
      type RunResult = { run: LoadRun; rate: number; cpuUsPerRequest: number };
      const results = { payctl: [] as RunResult[], floor: [] as RunResult[] };
      for (let i = 0; i < cfg.runs; i++) {
        // Alternate which goes first, so a slow spell of the shared machine does not always hit the same side.
        const order: Array<'payctl' | 'floor'> = i % 2 === 0 ? ['floor', 'payctl'] : ['payctl', 'floor'];
        for (const which of order) {
          const r = await runOne(which, cfg.durationS);
          results[which].push(r);
          log(
            `  run ${i + 1} ${which.padEnd(6)} ${r.rate.toFixed(0).padStart(6)} ${w.measure}  p50 ${r.run.latency_p50_ms} ms  p99 ${r.run.latency_p99_ms} ms  errors ${r.run.errors}  server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request`,
          );
        }
      }
      // Throughput of the floor is its requests/s (for the pairs too: a capture is compared with one floor request).
      const payRate = results.payctl.map((r) => r.rate);
      const floorRate = results.floor.map((r) => (w.id === 'auth-capture' ? r.run.requests_per_s : r.rate));
      const ratio = summarize(pairedRatios(payRate, floorRate));
      const p99 = summarize(results.payctl.map((r) => r.run.latency_p99_ms));
      const errors = results.payctl.reduce((s, r) => s + r.run.errors, 0);
      const rows: Row[] = [
        {
          scenario: w.title,
          measure: w.measure,
          unit: '/s',
          payctl: summarize(payRate),
          floor: summarize(floorRate),
          ratio,
          ratioKind: 'throughput',
          target: `≥ ${w.target.ratio}× floor req/s`,
          met: ratio.median >= w.target.ratio,
        },
        {
          scenario: w.title,
          measure: 'latency p50',
          unit: 'ms',
          payctl: summarize(results.payctl.map((r) => r.run.latency_p50_ms)),
          floor: summarize(results.floor.map((r) => r.run.latency_p50_ms)),
        },
        {
          scenario: w.title,
          measure: 'latency p99',
          unit: 'ms',
          payctl: p99,
          floor: summarize(results.floor.map((r) => r.run.latency_p99_ms)),
          ...(w.target.p99Ms ? { target: `< ${w.target.p99Ms} ms`, met: p99.median < w.target.p99Ms } : {}),
        },
        {
          scenario: w.title,
          measure: 'server CPU per request',
          unit: 'µs',
          payctl: summarize(results.payctl.map((r) => r.cpuUsPerRequest)),
          floor: summarize(results.floor.map((r) => r.cpuUsPerRequest)),
        },
        { scenario: w.title, measure: 'errors', unit: '', payctl: summarize(results.payctl.map((r) => r.run.errors)), target: '= 0', met: errors === 0 },
      ];
      outcomes.push({
        id: w.id,
        title: w.title,
        status: 'ok',
        rows,
        raw: {
          payctl: results.payctl.map((r) => ({ ...r.run, rate: r.rate, cpu_us_per_request: r.cpuUsPerRequest })),
          floor: results.floor.map((r) => ({ ...r.run, rate: r.rate, cpu_us_per_request: r.cpuUsPerRequest })),
        },
      });
    }

    if (outcomes.length > 0) {
      const peak = server.peakRss();
      const floorPeak = floor.peakRss();
      const memRow: Row = {
        scenario: 'server memory under the sale load',
        measure: 'peak RSS (VmHWM)',
        unit: 'MiB',
        payctl: summarize([peak / MiB]),
        floor: summarize([floorPeak / MiB]),
        target: '< 200 MiB',
        met: peak / MiB < 200,
      };
      outcomes.push({ id: 'memory', title: 'server memory under the sale load', status: 'ok', rows: [memRow] });

      // Durability: kill -9 the server, then every acknowledged write must be there.
      await server.kill();
      const after = await openDirect(db);
      const now = (await after.get<{ n: number; captured: number }>(
        "SELECT COUNT(*) AS n, SUM(status = 'captured') AS captured FROM transactions",
      ))!;
      await after.close();
      const rowsAdded = now.n - before.n;
      const capturedAdded = (now.captured ?? 0) - (before.captured ?? 0);
      const ackedRows = acked.sales + acked.auths;
      const lost = Math.max(0, ackedRows - rowsAdded) + Math.max(0, acked.captures - capturedAdded);
      log(`  durability after SIGKILL: acknowledged ${ackedRows} sales/auths and ${acked.captures} captures; database has ${rowsAdded} new rows, ${capturedAdded} captured; lost ${lost}`);
      outcomes.push({
        id: 'durability',
        title: 'acknowledged writes in the database after SIGKILL',
        status: 'ok',
        note: `${ackedRows} acknowledged sales/auths → ${rowsAdded} rows (a request in flight when a run stopped is written but not counted as acknowledged); ${acked.captures} acknowledged captures → ${capturedAdded} captured`,
        rows: [
          {
            scenario: 'every acknowledged sale in the database (after SIGKILL)',
            measure: 'lost writes',
            unit: '',
            payctl: summarize([lost]),
            target: '= 0',
            met: lost === 0,
          },
        ],
        raw: { acked, rows_added: rowsAdded, captured_added: capturedAdded },
      });
    }
  } finally {
    await server.kill();
    await floor?.stop();
  }
  return outcomes;
}
