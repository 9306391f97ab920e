// Reports over a large seeded database (`payctl dev seed --transactions N`, 1,000,000 by
// default): count, amount_sum and a 50-row table page at offsets 0 and 10,000, over a
// 6-month window with filters, timed over HTTP against the same SQL run directly on the
// database (the floor: the statements payctl's reporting repository builds, prepared
// once, on a connection of the bench process). Requests alternate with floor queries.
// On either store: the PostgreSQL run reads a copy of the same seeded SQLite database
// (`payctl db copy`), so both answer over the same rows.
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { payctl, payctlJson, repoRoot, startPayctl, tempDir } from '../lib/processes.js';
import { openDirect, type Direct } from '../lib/sqlite.js';
import { newPgDatabase, openPgDirect } from '../lib/postgres.js';
import { pairedRatios, summarize } from '../lib/stats.js';
import { skipped, type BenchConfig, type Outcome } from '../lib/outcome.js';
import { reportingSql, type ReportScope } from '../../../src/store/sql/repositories/reporting.js';
import { summarySql } from '../../../src/store/sql/repositories/reporting-summary.js';
import { pgDialect } from '../../../src/store/postgres/dialect.js';
import { sqliteDialect } from '../../../src/store/sqlite/dialect.js';
import { fromSplit } from '../../../src/domain/money.js';

interface Demo {
  group_id: string;
  linked_account_id: string;
  keys: Record<string, string>;
}

interface Case {
  id: string;
  title: string;
  query: Record<string, string>;
  /** The floor: the SQL behind this report, run directly; returns what the response must equal. */
  floor(db: Direct): Promise<number>;
  /** The figure of the HTTP answer to compare with the floor's (a correctness check). */
  answer(body: Record<string, unknown>): number;
  /** Another endpoint than the reporting one (its URL). */
  url?: string;
}

const IDS = ['report-count', 'report-amount_sum', 'report-table-0', 'report-table-10000', 'report-summary-day', 'report-summary-brand'];

function sixMonthsBefore(now: Date): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - 6);
  return d;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

/** The seeded SQLite database of the run (seeded once, read by both stores' runs). */
let seeded: Promise<{ db: string; demo: Demo; seedMs: number }> | undefined;

function seededDatabase(cfg: BenchConfig, log: (line: string) => void) {
  seeded ??= (async () => {
    const dir = await tempDir('report');
    const db = path.join(dir, 'payctl.db');
    const demo = await payctlJson<Demo>(['init', '--demo'], db);
    log(`  seeding ${cfg.seedTransactions.toLocaleString('en-US')} transactions…`);
    const seed = await payctl(['dev', 'seed', '--transactions', String(cfg.seedTransactions), '--json'], db);
    if (seed.code !== 0) throw new Error(`payctl dev seed failed (${seed.code}): ${seed.stderr || seed.stdout}`);
    return { db, demo, seedMs: seed.ms };
  })();
  return seeded;
}

export async function reportScenarios(cfg: BenchConfig, log: (line: string) => void, store: 'sqlite' | 'postgres' = 'sqlite'): Promise<Outcome[]> {
  const prefix = store === 'postgres' ? 'pg-' : '';
  const skipAll = (note: string) => IDS.map((id) => skipped(`${prefix}${id}`, `report ${id.slice(7)}`, note));
  if (!existsSync(path.join(repoRoot, 'dist', 'commands', 'dev', 'seed.js'))) return skipAll('not available yet (no payctl dev seed)');

  const source = await seededDatabase(cfg, log);
  const demo = source.demo;
  let db = source.db;
  const seedRate = cfg.seedTransactions / (source.seedMs / 1000);
  if (store === 'sqlite') log(`  seeded in ${(source.seedMs / 1000).toFixed(1)} s (${seedRate.toFixed(0)} rows/s)`);
  let copySeconds: number | undefined;
  const extra: string[] = [];
  if (store === 'postgres') {
    db = await newPgDatabase('reports');
    log(`  payctl db copy of the seeded database to PostgreSQL…`);
    const copy = await payctl(['db', 'copy', '--from', source.db, '--to', db, '--json'], source.db);
    if (copy.code !== 0) throw new Error(`payctl db copy failed (${copy.code}): ${copy.stderr || copy.stdout}`);
    copySeconds = copy.ms / 1000;
    const rows = (JSON.parse(copy.stdout) as { rows: number }).rows;
    log(`  copied ${rows.toLocaleString('en-US')} rows in ${copySeconds.toFixed(1)} s (${(rows / copySeconds).toFixed(0)} rows/s)`);
    extra.push('--data-dir', await tempDir('report-pg'));
    // What a restored database gets before it serves: fresh planner statistics.
    const d = await openPgDirect(db);
    await d.all('ANALYZE');
    await d.close();
  }

  const server = await startPayctl(db, extra);
  const direct = store === 'postgres' ? await openPgDirect(db) : await openDirect(db);
  const dialect = store === 'postgres' ? pgDialect : sqliteDialect;
  // node:http on one kept-alive socket: fetch (undici) adds about a millisecond of
  // client-side work per request, which is not the server's latency.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const base = `${server.url}/api/v1/groups/${demo.group_id}/processing/${demo.linked_account_id}/transactions/reporting`;
    const key = demo.keys.view_transactions!;
    const summaryUrl = `${server.url}/api/v1/groups/${demo.group_id}/transactions/reporting/summary`;
    const get = (query: Record<string, string>, url = base) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const req = http.get(`${url}?${new URLSearchParams(query)}`, { agent, headers: { authorization: key } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`GET reporting ${res.statusCode}: ${text.slice(0, 300)}`));
            else resolve(JSON.parse(text) as Record<string, unknown>);
          });
        });
        req.on('error', reject);
      });
    const probe = await fetch(`${base}?type=count`, { headers: { authorization: key } });
    if (probe.status === 404) return skipAll('not available yet (no reporting route)');

    // The platform clock of a fresh database is real time: one explicit window for both sides.
    const end = new Date();
    const start = sixMonthsBefore(end);
    const statuses = ['settled', 'pending'];
    const brands = ['Visa', 'Mastercard'];
    const window = { start: start.toISOString(), end: end.toISOString() };
    const scope = (filters: Record<string, string[]>): ReportScope => ({ groupId: demo.group_id, ...window, filters: filters as ReportScope['filters'] });
    const countScope = scope({ statuses });
    const tableScope = scope({ statuses, brands });
    /** The one value of an aggregate statement. */
    const one = async (q: { sql: string; params: unknown[] }) => {
      const row = await direct.get<Record<string, number>>(q.sql, q.params);
      return row ? Number(Object.values(row)[0]) : 0;
    };
    const tableCase = (offset: number): Case => ({
      id: `report-table-${offset}`,
      title: `report table, 50 rows, 2 filters, offset ${offset.toLocaleString('en-US')}`,
      query: { type: 'table', limit: '50', offset: String(offset), ...window, statuses: statuses.join(','), brands: brands.join(',') },
      // A table answer carries its page and total_count: both statements.
      async floor(d) {
        const page = reportingSql.page(tableScope, 50, offset);
        const rows = await d.all<{ id: string }>(page.sql, page.params);
        await one(reportingSql.count(tableScope));
        return rows.length;
      },
      answer: (b) => (b.items as unknown[]).length,
    });
    const cases: Case[] = [
      {
        id: 'report-count',
        title: 'report count, 6-month window + status filter',
        query: { type: 'count', ...window, statuses: statuses.join(',') },
        floor: () => one(reportingSql.count(countScope)),
        answer: (b) => Number(b.total_count),
      },
      {
        id: 'report-amount_sum',
        title: 'report amount_sum, 6-month window + status filter',
        query: { type: 'amount_sum', ...window, statuses: statuses.join(',') },
        // Two exact halves (high × 2^26 + low), recombined as the repository does.
        async floor(d) {
          const q = reportingSql.amountSum(countScope);
          const r = await d.get<{ h: string | null; l: string | null }>(q.sql, q.params);
          return Number(fromSplit(r?.h, r?.l));
        },
        answer: (b) => Number(b.total_amount),
      },
      tableCase(0),
      tableCase(10_000),
      // The summary: one row per key; the floor is the statement the summary runs.
      ...(['day', 'brand'] as const).map((groupBy): Case => ({
        id: `report-summary-${groupBy}`,
        title: `report summary by ${groupBy}, 6-month window + status filter`,
        url: summaryUrl,
        query: { group_by: groupBy, ...window, statuses: statuses.join(',') },
        async floor(d) {
          const q = summarySql.byKey(dialect, countScope, groupBy);
          const rows = await d.all<{ count: number }>(q.sql, q.params);
          return rows.reduce((n, r) => n + Number(r.count), 0);
        },
        answer: (b) => Number(b.total_count),
      })),
    ];

    const outcomes: Outcome[] = [];
    for (const c of cases) {
      // Same answer both ways, or the comparison means nothing.
      const [http, floor] = [c.answer(await get(c.query, c.url)), await c.floor(direct)];
      if (http !== floor) throw new Error(`${c.title}: HTTP answered ${http}, the SQL ${floor}`);
      for (let i = 0; i < 2; i++) {
        await get(c.query, c.url);
        await c.floor(direct);
      }
      const httpMs: number[] = [];
      const floorMs: number[] = [];
      for (let i = 0; i < cfg.reportRequests; i++) {
        httpMs.push((await timed(() => get(c.query, c.url))).ms);
        floorMs.push((await timed(() => c.floor(direct))).ms);
      }
      const h = summarize(httpMs);
      const f = summarize(floorMs);
      const ratio = summarize(pairedRatios(httpMs, floorMs));
      log(`  ${c.title}: HTTP median ${h.median.toFixed(1)} ms, SQL ${f.median.toFixed(1)} ms (${(h.median / f.median).toFixed(2)}×), answer ${http}`);
      outcomes.push({
        id: `${prefix}${c.id}`,
        title: `${c.title}${store === 'postgres' ? ' (PostgreSQL)' : ''}`,
        status: 'ok',
        rows: [
          {
            scenario: `${c.title}${store === 'postgres' ? ' (PostgreSQL)' : ''}`,
            measure: 'latency (sequential requests)',
            unit: 'ms',
            payctl: h,
            floor: f,
            ratio: summarize([h.median / f.median]),
            ratioKind: 'time',
            target: '≤ 2× SQL and < 100 ms',
            met: h.median / f.median <= 2 && h.median < 100,
          },
        ],
        raw: { http_ms: httpMs, sql_ms: floorMs, paired_ratios: ratio, answer: http },
      });
    }
    if (copySeconds !== undefined) {
      outcomes.push({
        id: 'pg-report-copy',
        title: 'payctl db copy of the seeded database',
        status: 'ok',
        rows: [{ scenario: `db copy, ${cfg.seedTransactions.toLocaleString('en-US')} transactions`, measure: 'seconds', unit: 's', payctl: summarize([copySeconds]), target: 'report' }],
      });
      return outcomes;
    }
    outcomes.push({
      id: 'report-seed',
      title: `payctl dev seed --transactions ${cfg.seedTransactions}`,
      status: 'ok',
      rows: [{ scenario: `dev seed ${cfg.seedTransactions.toLocaleString('en-US')} transactions`, measure: 'rows/s', unit: '/s', payctl: summarize([seedRate]), target: 'report' }],
      raw: { seconds: source.seedMs / 1000 },
    });
    return outcomes;
  } finally {
    agent.destroy();
    await direct.close();
    await server.stop();
  }
}
