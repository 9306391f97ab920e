// Fair sharing of the writer: another group's sales while one group catches up 100 years
// of daily billing, against the real `payctl serve`. Group A (a sandbox with one daily
// subscription) moves its clock ten times by 3650 days, each move waited for (200, or
// 202 then GET …/clock until caught up); group B (another sandbox) sells from
// CLIENTS closed-loop clients all the while. The same B load for the same number of
// sales with no catch-up, just before, is the comparison. Latency is client-side per
// sale (one request, its answer), so a sale that waits for the writer shows in it.
import http from 'node:http';
import path from 'node:path';
import { payctlJson, startPayctl, tempDir, type Served } from '../lib/processes.js';
import { summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { benchSale } from '../lib/sale.js';

const ADMIN = 'padm_bench_admin_token';
const CLIENTS = 4;
const MOVES = 10;
const MOVE = '3650d';

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 2 });

function call(url: string, method: string, key: string, body?: unknown): Promise<{ status: number; body: string; ms: number }> {
  const t0 = process.hrtime.bigint();
  const data = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function json(url: string, method: string, key: string, body?: unknown, expect = [200, 201]): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await call(url, method, key, body);
  if (!expect.includes(r.status)) throw new Error(`${method} ${url} answered ${r.status}: ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body);
}

interface Sandbox {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  keys: Record<string, string>;
}

/** CLIENTS closed-loop sale clients in `sb` until `stop()`; the latency of every sale. */
async function sell(url: string, sb: Sandbox, stop: () => boolean): Promise<number[]> {
  const body = benchSale(sb.processor_id);
  const ms: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!stop()) {
        const r = await call(`${url}/api/v1/groups/${sb.group_id}/transaction`, 'POST', sb.keys.manage_transactions!, body);
        if (r.status !== 200) throw new Error(`sale answered ${r.status}: ${r.body.slice(0, 200)}`);
        ms.push(r.ms);
      }
    }),
  );
  return ms;
}

export async function catchUpScenario(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const moves = cfg.quick ? 2 : MOVES;
  const dir = await tempDir('catch-up');
  const db = path.join(dir, 'payctl.db');
  await payctlJson(['init'], db);
  const server: Served = await startPayctl(db, ['--access-log', 'off', '--admin-token', ADMIN]);
  try {
    const url = server.url;
    const a = (await json(`${url}/api/v1/sandboxes`, 'POST', ADMIN, { name: 'catching up' })) as Sandbox;
    const b = (await json(`${url}/api/v1/sandboxes`, 'POST', ADMIN, { name: 'selling' })) as Sandbox;
    const g = `${url}/api/v1/groups/${a.group_id}`;
    const recurring = `${g}/processing/${a.linked_account_id}/recurring`;
    const customer = await json(`${g}/customers`, 'POST', a.keys.manage_customers!, { first_name: 'Daily' });
    const plan = await json(`${recurring}/plans`, 'POST', a.keys.manage_transactions!, { name: 'Daily', amount: 500, billing_cycle: 'daily', duration: 0 });
    await json(`${recurring}/subscription`, 'POST', a.keys.manage_transactions!, { plan_id: plan.id, customer_id: customer.id, payment_details: { token: 'tok_visa' } });

    // Warm-up, then B alone: the comparison, as many sales as it makes in a fixed time.
    let warm = 0;
    await sell(url, b, () => warm++ >= 200);
    const aloneFor = cfg.quick ? 3000 : 10_000;
    const aloneUntil = Date.now() + aloneFor;
    const alone = await sell(url, b, () => Date.now() >= aloneUntil);

    // A catches up MOVES × 3650 days while B sells.
    let caughtUp = false;
    const t0 = Date.now();
    const catching = (async () => {
      try {
        for (let i = 0; i < moves; i++) {
          const r = await call(`${url}/api/v1/sandboxes/${a.group_id}/clock`, 'POST', ADMIN, { advance: MOVE });
          if (r.status !== 200 && r.status !== 202) throw new Error(`clock move answered ${r.status}: ${r.body.slice(0, 300)}`);
          let state = JSON.parse(r.body) as { catch_up: { status: string } };
          while (state.catch_up.status !== 'caught_up') {
            await new Promise((res) => setTimeout(res, 200));
            state = await json(`${url}/api/v1/sandboxes/${a.group_id}/clock`, 'GET', ADMIN);
          }
          log(`  move ${i + 1}/${moves}: caught up after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        }
      } finally {
        caughtUp = true;
      }
    })();
    const during = await sell(url, b, () => caughtUp);
    await catching;
    const seconds = (Date.now() - t0) / 1000;
    const days = moves * 3650;
    const duringS = summarize(during);
    const aloneS = summarize(alone);
    log(`  ${days} days of daily billing caught up in ${seconds.toFixed(1)} s (${(days / seconds).toFixed(0)} charges/s)`);
    log(`  B's sales: alone p99 ${aloneS.p99.toFixed(1)} ms (median ${aloneS.median.toFixed(1)}, n ${aloneS.n}); during the catch-up p99 ${duringS.p99.toFixed(1)} ms (median ${duringS.median.toFixed(1)}, max ${duringS.max.toFixed(1)}, n ${duringS.n})`);
    const title = `another group's sale while one group catches up ${Math.round(days / 365)} years of daily billing (${moves} moves of ${MOVE}), ${CLIENTS} clients`;
    return [
      {
        id: 'catchup',
        title,
        status: 'ok',
        rows: [
          { scenario: title, measure: "other group's sale latency during the catch-up (client)", unit: 'ms', payctl: duringS, target: '< 250 ms (p99)', met: duringS.p99 < 250 },
          { scenario: title, measure: 'the same sales with no catch-up (client)', unit: 'ms', payctl: aloneS, target: 'report' },
          { scenario: title, measure: 'catch-up time', unit: 's', payctl: summarize([seconds]), target: 'report' },
        ],
        raw: { days, seconds, during, alone },
      },
    ];
  } finally {
    await server.stop();
  }
}
