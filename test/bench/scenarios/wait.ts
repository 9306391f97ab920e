// `wait` on the events list with 200 clients waiting at once (docs/testing.md, "Wait, don't
// poll"): what the waiting costs the server while nothing happens — its CPU over a quiet
// window with the 200 requests held, side by side with the same window with none — and how
// long after the event each of them has its answer (from sending the write that makes the
// event to each waiting client's answer; the write's own round trip is given beside it).
// Each round uses a fresh sandbox, so every client waits for the one event of its round.
import http from 'node:http';
import path from 'node:path';
import { payctlJson, startPayctl, tempDir } from '../lib/processes.js';
import { summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';

const TITLE = 'wait on the events list: 200 clients waiting';
const ADMIN = 'padm_bench_wait_token';
const CLIENTS = 200;

function request(url: string, agent: http.Agent, opts: { method?: string; auth?: string; body?: unknown } = {}): Promise<{ status: number; body: string; at: number }> {
  const data = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', agent, headers: { ...(opts.auth ? { authorization: opts.auth } : {}), ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), at: performance.now() }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const dir = await tempDir('wait');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init'], db);
  const server = await startPayctl(db, ['--tick', '0', '--access-log', 'off', '--admin-token', ADMIN]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 10 });
  const rounds = cfg.quick ? 3 : 8;
  const quietMs = cfg.quick ? 2_000 : 4_000;
  const waitingCpu: number[] = [];
  const idleCpu: number[] = [];
  const latencies: number[] = [];
  const writeMs: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const sb = JSON.parse((await request(`${server.url}/api/v1/sandboxes`, agent, { method: 'POST', auth: ADMIN, body: { name: `wait ${r}`, clock: '2030-01-15T12:00:00Z' } })).body) as {
        group_id: string;
        keys: Record<string, string>;
      };
      const events = `${server.url}/api/v1/groups/${sb.group_id}/events?types=customer.created&wait=30s`;
      // The floor: the same quiet window with nobody waiting.
      let before = server.cpuMs();
      await pause(quietMs);
      idleCpu.push(((server.cpuMs() - before) * 1000) / quietMs);
      const waiting = Array.from({ length: CLIENTS }, () => request(events, agent, { auth: sb.keys.manage_customers! }));
      await pause(500); // every request has arrived and is waiting
      before = server.cpuMs();
      await pause(quietMs);
      waitingCpu.push(((server.cpuMs() - before) * 1000) / quietMs);
      const sent = performance.now();
      const made = await request(`${server.url}/api/v1/groups/${sb.group_id}/customers`, agent, {
        method: 'POST',
        auth: sb.keys.manage_customers!,
        body: { first_name: 'Ada', last_name: `Round ${r}` },
      });
      if (made.status !== 200) throw new Error(`customer create answered ${made.status}: ${made.body}`);
      writeMs.push(made.at - sent);
      for (const answer of await Promise.all(waiting)) {
        if (answer.status !== 200 || !answer.body.includes('customer.created')) throw new Error(`a waiting client got ${answer.status}: ${answer.body.slice(0, 200)}`);
        latencies.push(answer.at - sent);
      }
    }
    const lat = summarize(latencies);
    const cpu = summarize(waitingCpu);
    const idle = summarize(idleCpu);
    log(`  server CPU while ${CLIENTS} clients wait: ${cpu.median.toFixed(1)} ms per s (quiet, none waiting: ${idle.median.toFixed(1)} ms per s), ${rounds} rounds of ${quietMs / 1000} s`);
    log(`  from the write to each waiting client's answer: median ${lat.median.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms (${latencies.length} answers); the write's own round trip median ${summarize(writeMs).median.toFixed(1)} ms`);
    return [
      {
        id: 'wait',
        title: TITLE,
        status: 'ok',
        rows: [
          { scenario: TITLE, measure: `server CPU per second, ${CLIENTS} waiting vs none`, unit: 'ms/s', payctl: cpu, floor: idle },
          { scenario: TITLE, measure: 'from the event\'s write to each waiting client\'s answer', unit: 'ms', payctl: lat },
          { scenario: TITLE, measure: 'the write\'s own round trip', unit: 'ms', payctl: summarize(writeMs) },
        ],
        raw: { clients: CLIENTS, rounds, quiet_ms: quietMs, waiting_cpu_ms_per_s: waitingCpu, idle_cpu_ms_per_s: idleCpu },
      },
    ];
  } finally {
    agent.destroy();
    await server.stop();
  }
}
