// The dashboard under load: (1) a 100,000-transaction group's Transactions page, its server
// time (the page's Server-Timing) and round trip, side by side with the API's own reporting
// table request on the same server (the same use case behind both); (2) sales/s on a group
// with 0 and with 5 dashboards open on its live events page (each holding the SSE stream and
// reloading the rows whenever it is told of new events, as the page's script does), in
// alternated rounds on one server: the ratio is what the open dashboards cost the sales;
// (3) after those rounds (the group's request journal full: its last 1,000 calls), the
// Requests page's server time and round trip, side by side with the API's own journal list.
import http from 'node:http';
import path from 'node:path';
import { payctl, payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { load, jsonHeaders } from '../lib/load.js';
import { benchSaleJson } from '../lib/sale.js';
import { summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

const ADMIN = 'padm_bench_dashboard_token_000000000000';
const TITLE_PAGE = 'dashboard Transactions page, 100,000-row group';
const TITLE_LIVE = 'sales/s with 0 vs 5 dashboards open (live events page)';
const TITLE_REQUESTS = 'dashboard Requests page, 100,000-row group, full journal (1,000 calls)';

interface Demo {
  group_id: string;
  linked_account_id: string;
  processor_id: string;
  keys: Record<string, string>;
}

function get(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; serverMs: number; body: string; headers: http.IncomingHttpHeaders }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const timing = /dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, serverMs: Number(timing?.[1] ?? NaN), body: Buffer.concat(chunks).toString(), headers: res.headers });
        });
      })
      .on('error', reject);
  });
}

async function signIn(base: string): Promise<string> {
  const r = await get(`${base}/dashboard?token=${ADMIN}`, {});
  const cookie = String(r.headers['set-cookie']?.[0] ?? '').split(';')[0];
  if (!cookie) throw new Error(`dashboard sign-in answered ${r.status}`);
  return cookie;
}

/** One open dashboard: the events page, its live stream, a rows reload per notice. Returns its close. */
function openDashboard(base: string, groupId: string, cookie: string, counts: { reloads: number }): () => void {
  const page = `${base}/dashboard/groups/${groupId}/events`;
  const ac = new AbortController();
  void get(page, { cookie });
  const req = http.get(`${page.replace(/\/events$/, '/events/live')}`, { headers: { cookie, accept: 'text/event-stream' }, signal: ac.signal }, (res) => {
    let buffer = '';
    let reloading = false;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (/^event: ?events$/m.test(message) && !reloading) {
          reloading = true;
          void get(`${page}/rows`, { cookie })
            .then(() => counts.reloads++)
            .finally(() => (reloading = false));
        }
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  return () => ac.abort();
}

export async function dashboardScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const rows = cfg.quick ? 20_000 : 100_000;
  const dir = await tempDir('dashboard');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<Demo>(['init', '--demo'], db);
  log(`  seeding ${rows.toLocaleString('en-US')} transactions…`);
  const seed = await payctl(['dev', 'seed', '--transactions', String(rows), '--json'], db);
  if (seed.code !== 0) throw new Error(`payctl dev seed failed: ${seed.stderr || seed.stdout}`);
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off', '--admin-token', ADMIN]);
  try {
    const cookie = await signIn(server.url);
    const g = demo.group_id;
    const pageUrl = `${server.url}/dashboard/groups/${g}/transactions`;
    const apiUrl = `${server.url}/api/v1/groups/${g}/processing/${demo.linked_account_id}/transactions/reporting?type=table`;
    const apiHeaders = { authorization: demo.keys.view_transactions! };
    for (let i = 0; i < 5; i++) await Promise.all([get(pageUrl, { cookie }), get(apiUrl, apiHeaders)]); // warm-up
    const n = cfg.quick ? 10 : cfg.reportRequests;
    const page = { server: [] as number[], trip: [] as number[] };
    const api: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = await get(pageUrl, { cookie });
      if (p.status !== 200) throw new Error(`the Transactions page answered ${p.status}`);
      page.server.push(p.serverMs);
      page.trip.push(p.ms);
      const a = await get(apiUrl, apiHeaders);
      if (a.status !== 200) throw new Error(`the reporting table answered ${a.status}`);
      api.push(a.ms);
    }
    const pageServer = summarize(page.server);
    log(`  Transactions page: server time median ${pageServer.median.toFixed(1)} ms (p99 ${pageServer.p99.toFixed(1)}), round trip ${summarize(page.trip).median.toFixed(1)} ms; the API's table ${summarize(api).median.toFixed(1)} ms`);

    // Sales with 0 and 5 dashboards open, alternated.
    const saleUrl = `${server.url}/api/v1/groups/${g}/transaction`;
    const body = benchSaleJson(demo.processor_id);
    const rates = { zero: [] as number[], five: [] as number[] };
    const counts = { reloads: 0 };
    await load({ url: saleUrl, method: 'POST', headers: jsonHeaders(demo.keys.manage_transactions), body, connections: 10, duration: cfg.warmupS });
    for (let r = 0; r < cfg.runs; r++) {
      for (const open of [0, 5]) {
        const closers = Array.from({ length: open }, () => openDashboard(server.url, g, cookie, counts));
        if (open) await new Promise((res) => setTimeout(res, 300));
        const run = await load({ url: saleUrl, method: 'POST', headers: jsonHeaders(demo.keys.manage_transactions), body, connections: 10, duration: cfg.durationS });
        for (const close of closers) close();
        (open ? rates.five : rates.zero).push(run.requests_per_s);
        log(`  round ${r + 1}, ${open} dashboards: ${run.requests_per_s.toFixed(0)} sales/s (p99 ${run.latency_p99_ms} ms, errors ${run.errors})`);
      }
    }
    const ratio = summarize(rates.five.map((f, i) => f / rates.zero[i]!));
    log(`  5 dashboards ÷ none: ${ratio.median.toFixed(3)} (rows reloaded by the open pages: ${counts.reloads})`);

    // The Requests page over the journal the sales filled, alternated with the API's journal list.
    const requestsUrl = `${server.url}/dashboard/groups/${g}/requests`;
    const journalUrl = `${server.url}/api/v1/sandboxes/${g}/requests?limit=50`;
    const adminHeaders = { authorization: ADMIN };
    for (let i = 0; i < 5; i++) await Promise.all([get(requestsUrl, { cookie }), get(journalUrl, adminHeaders)]); // warm-up
    const requests = { server: [] as number[], trip: [] as number[], journal: [] as number[] };
    for (let i = 0; i < n; i++) {
      const p = await get(requestsUrl, { cookie });
      if (p.status !== 200) throw new Error(`the Requests page answered ${p.status}`);
      requests.server.push(p.serverMs);
      requests.trip.push(p.ms);
      const a = await get(journalUrl, adminHeaders);
      if (a.status !== 200) throw new Error(`the journal list answered ${a.status}`);
      requests.journal.push(a.ms);
    }
    const requestsServer = summarize(requests.server);
    log(`  Requests page: server time median ${requestsServer.median.toFixed(1)} ms (p99 ${requestsServer.p99.toFixed(1)}), round trip ${summarize(requests.trip).median.toFixed(1)} ms; the API's journal list ${summarize(requests.journal).median.toFixed(1)} ms`);
    return [
      {
        id: 'dashboard-page',
        title: TITLE_PAGE,
        status: 'ok',
        rows: [
          { scenario: TITLE_PAGE, measure: 'server time (Server-Timing)', unit: 'ms', payctl: pageServer, target: '< 300', met: pageServer.median < 300 },
          { scenario: TITLE_PAGE, measure: "round trip vs the API's reporting table", unit: 'ms', payctl: summarize(page.trip), floor: summarize(api), ratio: summarize(api.map((a, i) => a / page.trip[i]!)), ratioKind: 'time' },
        ],
        raw: { rows, page, api },
      },
      {
        id: 'dashboard-live',
        title: TITLE_LIVE,
        status: 'ok',
        rows: [{ scenario: TITLE_LIVE, measure: 'sales/s, 5 dashboards open vs none', unit: 'req/s', payctl: summarize(rates.five), floor: summarize(rates.zero), ratio, ratioKind: 'throughput', target: '≥ 0.90', met: ratio.median >= 0.9 }],
        raw: { rates, reloads: counts.reloads },
      },
      {
        id: 'dashboard-requests-page',
        title: TITLE_REQUESTS,
        status: 'ok',
        rows: [
          { scenario: TITLE_REQUESTS, measure: 'server time (Server-Timing)', unit: 'ms', payctl: requestsServer, target: '< 300', met: requestsServer.median < 300 },
          { scenario: TITLE_REQUESTS, measure: "round trip vs the API's journal list (50 calls)", unit: 'ms', payctl: summarize(requests.trip), floor: summarize(requests.journal), ratio: summarize(requests.journal.map((a, i) => a / requests.trip[i]!)), ratioKind: 'time' },
        ],
        raw: { requests },
      },
    ];
  } finally {
    await server.stop();
  }
}
