// `wait` on the events list with 200 clients waiting at once (docs/testing.md, "Wait, don't
// poll"): what the waiting costs the server while nothing happens — its CPU over a quiet
// window with the 200 requests held, side by side with the same window with none — and how
// long after the event each of them has its answer (from sending the write that makes the
// event to each waiting client's answer; the write's own round trip is given beside it).
// Each round uses a fresh sandbox, so every client waits for the one event of its round.
import http from 'node:http';
import path from 'node:path';
import { payctlJson, startPayctl, tempDir, type Served } from '../lib/processes.js';
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
const POLL_MS = 250;

/**
 * 200 clients polling the sandbox's events (no wait) every POLL_MS: the server's CPU over a
 * quiet window, then from a write to each client's first answer that has its event.
 */
async function pollingRound(server: Served, agent: http.Agent, sb: { group_id: string; keys: Record<string, string> }, quietMs: number): Promise<{ cpu: number; latencies: number[] }> {
  const list = `${server.url}/api/v1/groups/${sb.group_id}/events?types=customer.created`;
  let sent = Infinity;
  let stop = false;
  const latencies: number[] = [];
  const client = async () => {
    const before = (await request(list, agent, { auth: sb.keys.manage_customers! })).body.split('customer.created').length;
    for (;;) {
      await pause(POLL_MS);
      const r = await request(list, agent, { auth: sb.keys.manage_customers! });
      if (r.body.split('customer.created').length > before) return void latencies.push(r.at - sent);
      if (stop) return;
    }
  };
  const clients = Array.from({ length: CLIENTS }, () => client());
  await pause(500);
  const cpuBefore = server.cpuMs();
  await pause(quietMs);
  const cpu = ((server.cpuMs() - cpuBefore) * 1000) / quietMs;
  sent = performance.now();
  await request(`${server.url}/api/v1/groups/${sb.group_id}/customers`, agent, { method: 'POST', auth: sb.keys.manage_customers!, body: { first_name: 'Ada', last_name: 'Polled' } });
  const guard = setTimeout(() => (stop = true), 30_000);
  await Promise.all(clients);
  clearTimeout(guard);
  return { cpu, latencies };
}

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
  const pollCpu: number[] = [];
  const pollLatencies: number[] = [];
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
      // Side by side: the same 200 clients polling the list without wait, every POLL_MS each (what a test does without it).
      const polled = await pollingRound(server, agent, sb, quietMs);
      pollCpu.push(polled.cpu);
      pollLatencies.push(...polled.latencies);
    }
    const lat = summarize(latencies);
    const cpu = summarize(waitingCpu);
    const idle = summarize(idleCpu);
    log(`  server CPU while ${CLIENTS} clients wait: ${cpu.median.toFixed(1)} ms per s (quiet, none waiting: ${idle.median.toFixed(1)} ms per s), ${rounds} rounds of ${quietMs / 1000} s`);
    log(`  polling instead (every ${POLL_MS} ms each, no wait): ${summarize(pollCpu).median.toFixed(1)} ms per s; write to each client's first answer that has it: median ${summarize(pollLatencies).median.toFixed(1)} ms, p99 ${summarize(pollLatencies).p99.toFixed(1)} ms`);
    log(`  from the write to each waiting client's answer: median ${lat.median.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms (${latencies.length} answers); the write's own round trip median ${summarize(writeMs).median.toFixed(1)} ms`);
    return [
      {
        id: 'wait',
        title: TITLE,
        status: 'ok',
        rows: [
          { scenario: TITLE, measure: `server CPU per second, ${CLIENTS} waiting vs none`, unit: 'ms/s', payctl: cpu, floor: idle },
          { scenario: TITLE, measure: `server CPU per second, ${CLIENTS} waiting vs ${CLIENTS} polling every ${POLL_MS} ms`, unit: 'ms/s', payctl: cpu, floor: summarize(pollCpu) },
          { scenario: TITLE, measure: 'from the event\'s write to each waiting client\'s answer', unit: 'ms', payctl: lat },
          { scenario: TITLE, measure: `the same, polling every ${POLL_MS} ms instead`, unit: 'ms', payctl: summarize(pollLatencies) },
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
