// The HTTP load scenarios against the real `payctl serve`, each run side by side with
// the floor (a bare polka server answering the same-size JSON): sale with a token, sale
// from a stored card, auth-then-capture pairs; then the server's peak memory under that
// load, and the durability check: the server is killed with SIGKILL and every
// acknowledged sale, auth and capture must be in the database.
import path from 'node:path';
import type { RequestSpec } from 'autocannon';
import { load, jsonHeaders, type LoadRun } from '../lib/load.js';
import { performance } from 'node:perf_hooks';
import { baselineBin, payctlJson, startFloor, startPayctl, tempDir, type Served } from '../lib/processes.js';
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
  target: { ratio: number; p99Ms?: number; baseline: number };
}

type Side = 'payctl' | 'baseline' | 'floor';

interface Target {
  demo: Demo;
  server: Served;
  workloads: Workload[];
}

/** The three workloads against one payctl server and its demo data. */
async function workloadsFor(server: Served, demo: Demo, pairCounters: { auths: number; captures: number }): Promise<Workload[]> {
  const salePath = `/api/v1/groups/${demo.group_id}/transaction`;
  const key = demo.keys.manage_transactions!;
  const headers = jsonHeaders(key);
  const tokenSale = saleBody(demo, 'sale', { token: 'tok_visa' }, true);
  const probe = await post(server.url + salePath, key, tokenSale);
  if (probe.status !== 200) throw new Error(`a sale failed before the load: ${probe.status} ${probe.text}`);
  const cardId = await storedCard(server.url, demo);
  const cardSale = saleBody(demo, 'sale', { customer: { customer_id: demo.customer_id, card_id: cardId } }, false);
  const cardProbe = await post(server.url + salePath, key, cardSale);
  if (cardProbe.status !== 200) throw new Error(`a stored-card sale failed before the load: ${cardProbe.status} ${cardProbe.text}`);
  const single = (body: string) => ({
    requests: (): RequestSpec[] => [{ method: 'POST', path: salePath, headers, body }],
    rate: (run: LoadRun) => run.requests_per_s,
  });
  return [
    { id: 'sale-token', title: 'sale, token (tok_visa), HTTP, 50 connections', measure: 'sales/s', target: { ratio: 0.5, p99Ms: 50, baseline: 2 }, ...single(tokenSale) },
    { id: 'sale-card', title: 'sale from a stored customer card', measure: 'sales/s', target: { ratio: 0.4, p99Ms: 50, baseline: 2 }, ...single(cardSale) },
    {
      id: 'auth-capture',
      title: 'auth then capture, pairs',
      measure: 'captures/s',
      target: { ratio: 0.3, baseline: 2 },
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
}

async function countRows(db: string): Promise<{ n: number; captured: number }> {
  const direct = await openDirect(db);
  try {
    const r = (await direct.get<{ n: number; captured: number | null }>("SELECT COUNT(*) AS n, SUM(status = 'captured') AS captured FROM transactions"))!;
    return { n: r.n, captured: r.captured ?? 0 };
  } finally {
    await direct.close();
  }
}

interface RunResult {
  run: LoadRun;
  rate: number;
  cpuUsPerRequest: number;
  /** Main thread's CPU share of the wall time, and the other threads' (pool, GC), in cores. */
  mainCpu: number;
  otherCpu: number;
  /** From the server's own counters (this build only): main-thread ELU, writer busy share, writes per batch. */
  elu?: number;
  writerBusy?: number;
  writesPerBatch?: number;
  statementsPerWrite?: number;
}

export async function httpScenarios(cfg: BenchConfig, log: (line: string) => void, want: (id: string) => boolean): Promise<Outcome[]> {
  const dir = await tempDir('http');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<Demo>(['init', '--demo'], db);
  const server = await startPayctl(db);
  const otherBin = baselineBin();
  const baseDb = otherBin ? path.join(await tempDir('http-baseline'), 'payctl.db') : undefined;
  let baseline: Served | undefined;
  let floor: Served | undefined;
  const outcomes: Outcome[] = [];
  try {
    const pairCounters = { auths: 0, captures: 0 };
    const targets: Partial<Record<Side, Target>> = { payctl: { demo, server, workloads: await workloadsFor(server, demo, pairCounters) } };
    if (otherBin && baseDb) {
      const baseDemo = await payctlJson<Demo>(['init', '--demo'], baseDb, otherBin);
      baseline = await startPayctl(baseDb, [], { bin: otherBin });
      targets.baseline = { demo: baseDemo, server: baseline, workloads: await workloadsFor(baseline, baseDemo, pairCounters) };
    }
    const probe = await post(`${server.url}/api/v1/groups/${demo.group_id}/transaction`, demo.keys.manage_transactions!, saleBody(demo, 'sale', { token: 'tok_visa' }, true));
    const responseBytes = Buffer.byteLength(probe.text);
    floor = await startFloor(responseBytes);
    // The floor answers any path with the same-size JSON: it takes payctl's requests.
    targets.floor = { demo, server: floor, workloads: targets.payctl!.workloads };
    log(`  payctl ${server.url} (pid ${server.pid})${baseline ? `, baseline ${otherBin} ${baseline.url} (pid ${baseline.pid})` : ''}, floor ${floor.url}, response ${responseBytes} bytes`);

    const before = await countRows(db);
    // Acknowledged writes against payctl (the durability check is on this build).
    const acked = { sales: 0, auths: 0, captures: 0 };
    const sides = Object.keys(targets) as Side[];

    for (const [wi, w] of targets.payctl!.workloads.entries()) {
      if (!want(w.id)) continue;
      log(`- ${w.title}`);
      const runOne = async (which: Side, seconds: number): Promise<RunResult> => {
        const t = targets[which]!;
        const wl = t.workloads[wi]!;
        pairCounters.auths = pairCounters.captures = 0;
        const cpu0 = t.server.cpuMs();
        const threads0 = t.server.threadCpuMs();
        const stats0 = await t.server.stats();
        const wall0 = performance.now();
        const run = await load({ url: t.server.url, connections: cfg.connections, duration: seconds, requests: wl.requests(t.server.url) });
        const wallMs = performance.now() - wall0;
        const stats1 = await t.server.stats();
        const threads1 = t.server.threadCpuMs();
        // Server CPU (every thread) per acknowledged request: what the ratio comes from on a CPU-bound machine.
        const cpuUsPerRequest = ((t.server.cpuMs() - cpu0) * 1000) / Math.max(1, run.ok);
        const captures = pairCounters.captures;
        if (which === 'payctl') {
          if (w.id === 'auth-capture') {
            acked.auths += pairCounters.auths;
            acked.captures += pairCounters.captures;
          } else acked.sales += run.ok;
        }
        const r: RunResult = {
          run,
          rate: w.rate(run, captures),
          cpuUsPerRequest,
          mainCpu: (threads1.main - threads0.main) / wallMs,
          otherCpu: (threads1.others - threads0.others) / wallMs,
        };
        if (stats0 && stats1) {
          const active = stats1.elu.active - stats0.elu.active;
          const idle = stats1.elu.idle - stats0.elu.idle;
          const batches = stats1.writer.batches - stats0.writer.batches;
          const writes = stats1.writer.writes - stats0.writer.writes;
          r.elu = active / Math.max(1e-9, active + idle);
          r.writerBusy = (stats1.writer.busy_ms - stats0.writer.busy_ms) / (stats1.at_ms - stats0.at_ms);
          r.writesPerBatch = writes / Math.max(1, batches);
          r.statementsPerWrite = (stats1.writer.statements - stats0.writer.statements) / Math.max(1, writes);
        }
        return r;
      };
      for (const which of sides) await runOne(which, cfg.warmupS);
      const results: Record<Side, RunResult[]> = { payctl: [], baseline: [], floor: [] };
      for (let i = 0; i < cfg.runs; i++) {
        // Rotate which goes first, so a slow spell of the shared machine does not always hit the same side.
        const order = sides.map((_, k) => sides[(k + i) % sides.length]!);
        if (i % 2 === 1) order.reverse();
        for (const which of order) {
          const r = await runOne(which, cfg.durationS);
          results[which].push(r);
          const own = r.elu === undefined ? '' : `  ELU ${(r.elu * 100).toFixed(0)}%  writer busy ${(r.writerBusy! * 100).toFixed(0)}%  ${r.writesPerBatch!.toFixed(1)} writes/batch  ${r.statementsPerWrite!.toFixed(2)} statements/write`;
          log(
            `  run ${i + 1} ${which.padEnd(8)} ${r.rate.toFixed(0).padStart(6)} ${w.measure}  p50 ${r.run.latency_p50_ms} ms  p99 ${r.run.latency_p99_ms} ms  errors ${r.run.errors}  server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request  main thread ${(r.mainCpu * 100).toFixed(0)}%  other threads ${(r.otherCpu * 100).toFixed(0)}%${own}`,
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
      ];
      if (results.baseline.length > 0) {
        const baseRate = results.baseline.map((r) => r.rate);
        const vsBase = summarize(pairedRatios(payRate, baseRate));
        rows.push({
          scenario: w.title,
          measure: `${w.measure}: baseline build (ratio = this ÷ baseline)`,
          unit: '/s',
          payctl: summarize(baseRate),
          ratio: vsBase,
          ratioKind: 'throughput',
          target: `≥ ${w.target.baseline}× baseline`,
          met: vsBase.median >= w.target.baseline,
        });
      }
      rows.push(
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
        {
          scenario: w.title,
          measure: 'main thread CPU (share of one core)',
          unit: '%',
          payctl: summarize(results.payctl.map((r) => r.mainCpu * 100)),
          floor: summarize(results.floor.map((r) => r.mainCpu * 100)),
        },
      );
      if (results.payctl.some((r) => r.elu !== undefined)) {
        rows.push(
          { scenario: w.title, measure: 'main thread ELU (eventLoopUtilization)', unit: '%', payctl: summarize(results.payctl.map((r) => (r.elu ?? Number.NaN) * 100)) },
          { scenario: w.title, measure: 'writer busy (write transaction open)', unit: '%', payctl: summarize(results.payctl.map((r) => (r.writerBusy ?? Number.NaN) * 100)) },
          { scenario: w.title, measure: 'writes per batch (one COMMIT each)', unit: '', payctl: summarize(results.payctl.map((r) => r.writesPerBatch ?? Number.NaN)) },
          { scenario: w.title, measure: 'writer statements per write', unit: '', payctl: summarize(results.payctl.map((r) => r.statementsPerWrite ?? Number.NaN)) },
        );
      }
      rows.push({ scenario: w.title, measure: 'errors', unit: '', payctl: summarize(results.payctl.map((r) => r.run.errors)), target: '= 0', met: errors === 0 });
      const rawOf = (rs: RunResult[]) => rs.map((r) => ({ ...r.run, rate: r.rate, cpu_us_per_request: r.cpuUsPerRequest, main_cpu: r.mainCpu, other_cpu: r.otherCpu, elu: r.elu, writer_busy: r.writerBusy, writes_per_batch: r.writesPerBatch, statements_per_write: r.statementsPerWrite }));
      outcomes.push({
        id: w.id,
        title: w.title,
        status: 'ok',
        rows,
        raw: { payctl: rawOf(results.payctl), floor: rawOf(results.floor), ...(results.baseline.length ? { baseline: rawOf(results.baseline) } : {}) },
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
      const now = await countRows(db);
      const rowsAdded = now.n - before.n;
      const capturedAdded = now.captured - before.captured;
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
    await baseline?.kill();
    await floor?.stop();
  }
  return outcomes;
}
