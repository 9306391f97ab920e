// Clock advance billing N due subscriptions (100,000 by default): the demo's annual
// subscription that starts a month from now is copied N−1 times in SQL (the bench's own
// fixture, like `dev seed` for transactions), then `payctl clock advance` moves the
// platform clock past their first bill date and bills every one. Measured: wall time of
// that command (subscriptions/s) and its peak memory; every subscription must be billed.
// On either store: the PostgreSQL run bills a copy (`payctl db copy`) of the same
// SQLite fixture, so both bill the same subscriptions.
import path from 'node:path';
import { payctl, payctlBin, payctlJson, runNode, tempDir } from '../lib/processes.js';
import { openDirect } from '../lib/sqlite.js';
import { newPgDatabase, openPgDirect } from '../lib/postgres.js';
import { summarize } from '../lib/stats.js';
import { skipped, type BenchConfig, type Outcome } from '../lib/outcome.js';

const MiB = 2 ** 20;
const DAY = 86_400_000;

export async function billingScenario(cfg: BenchConfig, log: (line: string) => void, store: 'sqlite' | 'postgres' = 'sqlite'): Promise<Outcome[]> {
  const n = cfg.subscriptions;
  const id = store === 'postgres' ? 'pg-billing' : 'billing';
  const title = `clock advance billing ${n.toLocaleString('en-US')} due subscriptions${store === 'postgres' ? ' (PostgreSQL)' : ''}`;
  const dir = await tempDir('billing');
  const db = path.join(dir, 'payctl.db');
  const demo = await payctlJson<{ subscription_ids?: string[] }>(['init', '--demo'], db);
  if (!demo.subscription_ids?.length) return [skipped(id, title, 'not available yet (no demo subscriptions)')];

  const rw = await openDirect(db, false);
  let template: { id: string; next_bill_date: string; charge_count: number } | undefined;
  let columns: string[];
  try {
    // The active subscription billed last: nothing else falls due with it.
    template = await rw.get(
      "SELECT id, next_bill_date, charge_count FROM subscriptions WHERE status = 'active' ORDER BY next_bill_date DESC, id LIMIT 1",
    );
    if (!template) return [skipped(id, title, 'no active demo subscription to copy')];
    columns = (await rw.all<{ name: string }>('PRAGMA table_info(subscriptions)')).map((c) => c.name);
    const copied = columns.map((c) => (c === 'id' ? "substr(t.id, 1, 24) || printf('%012x', n.i)" : `t."${c}"`));
    log(`  copying subscription ${template.id} ${(n - 1).toLocaleString('en-US')} times (due ${template.next_bill_date})…`);
    await rw.all(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO subscriptions (${columns.map((c) => `"${c}"`).join(', ')})
       SELECT ${copied.join(', ')} FROM n JOIN subscriptions t ON t.id = ?`,
      [n - 1, template.id],
    );
  } finally {
    await rw.close();
  }
  let target = db;
  const extra: string[] = [];
  if (store === 'postgres') {
    target = await newPgDatabase('billing');
    const copy = await payctl(['db', 'copy', '--from', db, '--to', target, '--json'], db);
    if (copy.code !== 0) throw new Error(`payctl db copy failed (${copy.code}): ${copy.stderr || copy.stdout}`);
    log(`  copied to PostgreSQL in ${(copy.ms / 1000).toFixed(1)} s`);
    extra.push('--data-dir', dir);
  }
  const count = async (sql: string) => {
    const d = store === 'postgres' ? await openPgDirect(target) : await openDirect(db);
    try {
      return (await d.get<{ n: number }>(sql))!.n;
    } finally {
      await d.close();
    }
  };
  const due = await count(`SELECT COUNT(*) AS n FROM subscriptions WHERE next_bill_date = '${template.next_bill_date}' AND status = 'active'`);
  const before = await count('SELECT COUNT(*) AS n FROM transactions WHERE subscription_id IS NOT NULL');
  // Just past the bill date on the platform clock (whole days from now).
  const days = Math.ceil((Date.parse(template.next_bill_date) - Date.now()) / DAY) + 1;
  log(`  ${due.toLocaleString('en-US')} subscriptions due; payctl clock advance ${days}d…`);
  const run = await runNode([payctlBin, 'clock', 'advance', `${days}d`, '--json', '--db', target, ...extra], {}, { sampleRssMs: 20 });
  if (run.code !== 0) throw new Error(`clock advance exited ${run.code}: ${run.stderr}`);
  const after = await count('SELECT COUNT(*) AS n FROM transactions WHERE subscription_id IS NOT NULL');
  const billed = after - before;
  const seconds = run.ms / 1000;
  const rate = due / seconds;
  const peak = (run.peakRss ?? Number.NaN) / MiB;
  log(`  billed ${billed.toLocaleString('en-US')} in ${seconds.toFixed(1)} s (${rate.toFixed(0)} subscriptions/s), peak RSS ${peak.toFixed(0)} MiB`);
  return [
    {
      id,
      title,
      status: 'ok',
      rows: [
        { scenario: title, measure: 'subscriptions/s (whole command)', unit: '/s', payctl: summarize([rate]), target: 'report' },
        { scenario: title, measure: 'peak RSS (VmHWM)', unit: 'MiB', payctl: summarize([peak]), target: '< 300 MiB', met: peak < 300 },
        { scenario: title, measure: 'due subscriptions not billed', unit: '', payctl: summarize([Math.max(0, due - billed)]), target: '= 0', met: billed >= due },
      ],
      raw: { due, billed, seconds, days, work: JSON.parse(run.stdout) as unknown },
    },
  ];
}
