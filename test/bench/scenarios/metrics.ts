// GET /metrics: what a scrape costs once 100 groups have had traffic (a sale and a read in
// each: labels are route templates, so the series do not grow with the groups). Times
// are the scrape's own (Server-Timing: the registry's text), the client's round trip on one
// kept-alive connection, and the server process's CPU per scrape (/proc, the whole request
// with HTTP) side by side with the CPU of `GET /health` (the same HTTP, no figures) in
// alternated rounds: the ratio is what the figures add to a request the server answers anyway.
import http from 'node:http';
import path from 'node:path';
import { payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { saleBody } from '../../helpers/bodies.js';

const TITLE = 'metrics scrape (GET /metrics) at 100 groups';
const ADMIN = 'padm_bench_metrics_token';
const GROUPS = 100;

function request(url: string, opts: { method?: string; auth?: string; body?: unknown; agent?: http.Agent } = {}): Promise<{ status: number; body: string; ms: number; serverMs: number }> {
  const data = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', agent: opts.agent, headers: { ...(opts.auth ? { authorization: opts.auth } : {}), ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const timing = /dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started, serverMs: Number(timing?.[1] ?? NaN) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

export async function metricsScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('metrics');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init'], db);
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off', '--admin-token', ADMIN, '--metrics']);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < GROUPS; i++) {
      const made = JSON.parse((await request(`${server.url}/api/v1/sandboxes`, { method: 'POST', auth: ADMIN, body: { name: `metrics ${i}` } })).body) as {
        group_id: string;
        processor_id: string;
        keys: Record<string, string>;
      };
      const key = made.keys.manage_transactions!;
      const sale = JSON.parse((await request(`${server.url}/api/v1/groups/${made.group_id}/transaction`, { method: 'POST', auth: key, body: saleBody(made.processor_id) })).body) as { id: string };
      await request(`${server.url}/api/v1/groups/${made.group_id}/transaction/${sale.id}`, { auth: key });
    }
    const scrapes = cfg.quick ? 200 : 1000;
    for (let i = 0; i < 50; i++) await request(`${server.url}/metrics`, { agent }); // warm-up
    // Server CPU per request: rounds of scrapes and of health checks, alternated (the tick is off: nothing else runs).
    const ROUNDS = cfg.quick ? 3 : 6;
    const PER_ROUND = cfg.quick ? 300 : 1000; // /proc counts CPU in 10 ms ticks: rounds of ~0.2 s and more
    const cpuUs = { metrics: [] as number[], health: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of ['metrics', 'health'] as const) {
        const before = server.cpuMs();
        for (let i = 0; i < PER_ROUND; i++) {
          const res = await request(`${server.url}/${kind}`, { agent });
          if (res.status !== 200) throw new Error(`GET /${kind} answered ${res.status}`);
        }
        cpuUs[kind].push(((server.cpuMs() - before) * 1000) / PER_ROUND);
      }
    }
    const cpuRatio = summarize(cpuUs.metrics.map((m, i) => m / cpuUs.health[i]!));
    const ms: number[] = [];
    const serverMs: number[] = [];
    let bytes = 0;
    let series = 0;
    for (let i = 0; i < scrapes; i++) {
      const r = await request(`${server.url}/metrics`, { agent });
      if (r.status !== 200) throw new Error(`GET /metrics answered ${r.status}`);
      ms.push(r.ms);
      serverMs.push(r.serverMs);
      bytes = Buffer.byteLength(r.body);
      series = r.body.split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
    }
    const s = summarize(serverMs);
    const trip = summarize(ms);
    log(`  server CPU per request (${ROUNDS} alternated rounds of ${PER_ROUND}): scrape ${summarize(cpuUs.metrics).median.toFixed(0)} µs, GET /health ${summarize(cpuUs.health).median.toFixed(0)} µs (${cpuRatio.median.toFixed(2)} ×)`);
    log(`  ${scrapes} scrapes after ${GROUPS} groups' traffic: server time median ${s.median.toFixed(3)} ms (min ${s.min.toFixed(3)}, p99 ${s.p99.toFixed(3)}); round trip median ${trip.median.toFixed(3)} ms; ${series} series, ${bytes} bytes`);
    return [
      {
        id: 'metrics',
        title: TITLE,
        status: 'ok',
        rows: [
          { scenario: TITLE, measure: 'scrape, server time (Server-Timing)', unit: 'ms', payctl: s, target: '< 1', met: s.median < 1 },
          { scenario: TITLE, measure: 'scrape, client round trip', unit: 'ms', payctl: trip },
          // The floor is GET /health on the same server (same HTTP, no figures); ratio: the scrape's CPU ÷ the health check's.
          { scenario: TITLE, measure: 'server CPU per scrape (whole request) vs GET /health', unit: 'µs', payctl: summarize(cpuUs.metrics), floor: summarize(cpuUs.health), ratio: cpuRatio, ratioKind: 'time' },
          { scenario: TITLE, measure: 'series in a scrape', unit: '', payctl: summarize([series]) },
        ],
        raw: { bytes, series, groups: GROUPS, cpu_us_per_request: cpuUs },
      },
    ];
  } finally {
    agent.destroy();
    await server.stop();
  }
}
