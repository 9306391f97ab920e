// Sandboxes: creating 200 sandboxes (no demo data) from 20 concurrent clients, and
// forking a sandbox of about 10,000 rows, against the real `payctl serve`.
// Server time is read from the server's access log (duration_ms per request).
// Side by side, alternated run by run:
// - create: the same 20 × 10 POSTs against the floor server (a bare polka server that
//   parses the body and answers JSON of the same size);
// - fork: the floor is the raw copy of the same rows with one INSERT … SELECT per table
//   into temporary tables on a direct connection (no id mapping, no HTTP).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { startFloor, startPayctl, payctlJson, tempDir, type Served } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import type { BenchConfig, Outcome } from '../lib/outcome.js';
import { GROUP_TABLES, ownerCondition } from '../../../src/store/sql/group-tables.js';

const ADMIN = 'padm_bench_admin_token';
const CLIENTS = 20;
const SANDBOXES = 200;
const FORK_ROWS = 10_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

function post(url: string, body: unknown, method = 'POST'): Promise<{ status: number; body: string; ms: number }> {
  const t0 = process.hrtime.bigint();
  const data = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: ADMIN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** `total` POSTs from `clients` concurrent clients; returns requests per second and client latencies. */
async function createBurst(url: string, total: number): Promise<{ rate: number; latencies: number[]; bodies: string[] }> {
  const latencies: number[] = [];
  const bodies: string[] = [];
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < total) {
        next++;
        const r = await post(`${url}/api/v1/sandboxes`, { name: 'bench' });
        if (r.status !== 201 && r.status !== 200) throw new Error(`create answered ${r.status}: ${r.body.slice(0, 200)}`);
        latencies.push(r.ms);
        bodies.push(r.body);
      }
    }),
  );
  return { rate: total / ((Date.now() - t0) / 1000), latencies, bodies };
}

async function serverTimes(logFile: string, method: string, pattern: RegExp): Promise<number[]> {
  const lines = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean);
  return lines
    .map((l) => JSON.parse(l) as { method: string; path: string; duration_ms: number })
    .filter((e) => e.method === method && pattern.test(e.path))
    .map((e) => e.duration_ms);
}

export async function sandboxScenarios(cfg: BenchConfig, log: (line: string) => void): Promise<Outcome[]> {
  const runs = Math.max(2, cfg.runs);
  const dir = await tempDir('sandboxes');
  const db = path.join(dir, 'payctl.db');
  const accessLog = path.join(dir, 'access.log');
  await payctlJson(['init'], db);
  const server: Served = await startPayctl(db, ['--tick', '0', '--access-log', accessLog, '--admin-token', ADMIN]);
  let floor: Served | undefined;
  try {
    // -- create: payctl and the floor, alternated
    const probe = await post(`${server.url}/api/v1/sandboxes`, { name: 'size probe' });
    floor = await startFloor(Buffer.byteLength(probe.body));
    const perRun = Math.round(SANDBOXES / runs);
    const rates: number[] = [];
    const floorRates: number[] = [];
    const clientMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a = await createBurst(server.url, perRun);
      rates.push(a.rate);
      clientMs.push(...a.latencies);
      floorRates.push((await createBurst(floor.url, perRun)).rate);
      log(`  create run ${i + 1}: ${a.rate.toFixed(0)} sandboxes/s (floor ${floorRates.at(-1)!.toFixed(0)}/s)`);
    }
    const createServer = (await serverTimes(accessLog, 'POST', /^\/api\/v1\/sandboxes$/)).slice(1); // without the probe
    const create = summarize(createServer);
    log(`  ${createServer.length} creates by ${CLIENTS} clients: server time median ${create.median} ms, p99 ${create.p99} ms`);

    // -- fork: a sandbox of ~10,000 rows (demo data plus copied transactions)
    const fixture = JSON.parse((await post(`${server.url}/api/v1/sandboxes`, { name: 'fork fixture', demo: true })).body) as { group_id: string };
    const rw = await openDirect(db, false);
    let rows = 0;
    try {
      const have = async () => {
        let n = 0;
        for (const t of GROUP_TABLES) n += (await rw.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.table} WHERE ${ownerCondition(t)}`, [fixture.group_id]))!.n;
        return n;
      };
      const missing = FORK_ROWS - (await have());
      const columns = (await rw.all<{ name: string }>('PRAGMA table_info(transactions)')).map((c) => c.name);
      const template = await rw.get<{ id: string }>('SELECT id FROM transactions WHERE group_id = ? ORDER BY id LIMIT 1', [fixture.group_id]);
      const copied = columns.map((c) => (c === 'id' ? "substr(t.id, 1, 24) || printf('%012x', n.i)" : c === 'settlement_batch_id' ? 'NULL' : `t."${c}"`));
      await rw.all(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO transactions (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${copied.join(', ')} FROM n JOIN transactions t ON t.id = ?`,
        [missing, template!.id],
      );
      rows = await have();
    } finally {
      await rw.close();
    }
    log(`  fork fixture: ${rows.toLocaleString('en-US')} rows`);
    const forkClient: number[] = [];
    const floorMs: number[] = [];
    const floorDb = await openDirect(db, false);
    try {
      for (let i = 0; i < runs + 1; i++) {
        const r = await post(`${server.url}/api/v1/sandboxes/${fixture.group_id}/fork`, {});
        if (r.status !== 201) throw new Error(`fork answered ${r.status}: ${r.body.slice(0, 200)}`);
        forkClient.push(r.ms);
        const forkId = (JSON.parse(r.body) as { group_id: string }).group_id;
        // The floor: the same rows copied raw, one statement per table, in one transaction.
        const t0 = process.hrtime.bigint();
        await floorDb.all('BEGIN');
        for (const t of GROUP_TABLES) {
          await floorDb.all(`CREATE TEMP TABLE IF NOT EXISTS copy_${t.table} AS SELECT * FROM ${t.table} WHERE 0`);
          await floorDb.all(`INSERT INTO copy_${t.table} SELECT * FROM ${t.table} WHERE ${ownerCondition(t)}`, [fixture.group_id]);
        }
        await floorDb.all('COMMIT');
        floorMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
        for (const t of GROUP_TABLES) await floorDb.all(`DELETE FROM copy_${t.table}`);
        // Drop the fork again (timed in the access log too).
        await post(`${server.url}/api/v1/sandboxes/${forkId}`, undefined, 'DELETE');
      }
    } finally {
      await floorDb.close();
    }
    const forkServer = await serverTimes(accessLog, 'POST', /\/fork$/);
    const dropServer = await serverTimes(accessLog, 'DELETE', /^\/api\/v1\/sandboxes\//);
    const fork = summarize(forkServer);
    log(`  fork of ${rows} rows: server time median ${fork.median} ms (floor: raw copy ${summarize(floorMs).median.toFixed(1)} ms); drop median ${summarize(dropServer).median} ms`);

    const createTitle = `create ${SANDBOXES} sandboxes (no demo), ${CLIENTS} concurrent clients`;
    const forkTitle = `fork a sandbox of ${rows.toLocaleString('en-US')} rows`;
    return [
      {
        id: 'sandbox-create',
        title: createTitle,
        status: 'ok',
        rows: [
          { scenario: createTitle, measure: 'server time per create (access log)', unit: 'ms', payctl: create, target: '< 20 ms (median)', met: create.median < 20 },
          { scenario: createTitle, measure: 'client latency per create', unit: 'ms', payctl: summarize(clientMs), target: 'report' },
          {
            scenario: createTitle,
            measure: 'creates/s',
            unit: '/s',
            payctl: summarize(rates),
            floor: summarize(floorRates),
            ratio: summarize(pairedRatios(rates, floorRates)),
            ratioKind: 'throughput',
            target: 'report',
          },
        ],
        raw: { createServer, rates, floorRates },
      },
      {
        id: 'sandbox-fork',
        title: forkTitle,
        status: 'ok',
        rows: [
          {
            scenario: forkTitle,
            measure: 'server time per fork (access log)',
            unit: 'ms',
            payctl: fork,
            floor: summarize(floorMs),
            ratio: summarize(pairedRatios(floorMs, forkServer)),
            ratioKind: 'time',
            target: '< 1000 ms',
            met: fork.max < 1000,
          },
          { scenario: forkTitle, measure: 'client time per fork', unit: 'ms', payctl: summarize(forkClient), target: 'report' },
          { scenario: forkTitle, measure: 'server time per drop of the fork', unit: 'ms', payctl: summarize(dropServer), target: 'report' },
        ],
        raw: { rows, forkServer, floorMs, dropServer },
      },
    ];
  } finally {
    await server.stop();
    await floor?.stop();
  }
}
