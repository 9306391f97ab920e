// The plans of the claims on PostgreSQL: billing's due claim must walk the due index from
// its cursor (a plan that sorts every due subscription, or walks the rows before the
// cursor, makes each chunk cost the whole table), and `payctl db copy` must leave the
// tables it loaded analyzed (an unanalyzed `groups` turns the claims' group-scope join
// into that sort). The idempotency purge deletes the rows its claim locked by their
// place (a TID scan): deleting them by key made PostgreSQL hash-join a scan of the whole
// table to each chunk. PostgreSQL pass only.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { subscriptionRepo } from '../../src/store/sql/repositories/subscriptions.js';
import { settlementRepo } from '../../src/store/sql/repositories/settlement.js';
import { toPgSql } from '../../src/store/postgres/sql.js';
import { pgDialect } from '../../src/store/postgres/dialect.js';
import type { Tx } from '../../src/store/interfaces/db.js';
import { runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { openPlatform } from '../../src/services/platform.js';

/** The SQL and parameters claimDue sends (read by an executor that only records). */
async function claimDueStatement(until: string, after: { at: string; id: string }): Promise<{ sql: string; params: unknown[] }> {
  let seen: { sql: string; params: unknown[] } | undefined;
  const recorder = { dialect: pgDialect, all: async (sql: string, params: unknown[]) => ((seen = { sql, params }), []) } as unknown as Tx;
  await subscriptionRepo.claimDue(recorder, until, after, 100, { offsetMs: 0 });
  assert.ok(seen, 'claimDue sent no statement');
  return seen;
}

test('billing claims its chunk by walking the due index from the cursor, after a db copy', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-plans-')), 'payctl.db');
  await runCliJson(['init', '--demo'], { db: file });
  const target = tempDbPath();
  await runCliJson(['db', 'copy', '--from', file, '--to', target]);
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const analyzed = await client.query<{ relname: string }>(
      `SELECT relname FROM pg_stat_user_tables WHERE relname IN ('groups', 'subscriptions') AND last_analyze IS NOT NULL ORDER BY relname`,
    );
    assert.deepEqual(analyzed.rows.map((r) => r.relname), ['groups', 'subscriptions'], 'db copy analyzes the tables it loaded');

    // 20,000 due subscriptions (copies of the demo's last one), the first half billed (moved a year on).
    const template = (await client.query<{ id: string; next_bill_date: string }>(
      `SELECT id, next_bill_date FROM subscriptions WHERE status = 'active' ORDER BY next_bill_date DESC, id LIMIT 1`,
    )).rows[0]!;
    const columns = (await client.query<{ c: string }>(
      `SELECT quote_ident(column_name) AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'subscriptions' ORDER BY ordinal_position`,
    )).rows.map((r) => r.c);
    const copied = columns.map((c) => (c === 'id' ? `substr(t.id, 1, 24) || lpad(to_hex(n), 12, '0')` : `t.${c}`));
    await client.query(
      `INSERT INTO subscriptions (${columns.join(', ')}) SELECT ${copied.join(', ')} FROM generate_series(1, 20000) n, subscriptions t WHERE t.id = $1`,
      [template.id],
    );
    const cursorId = `${template.id.slice(0, 24)}${(10_000).toString(16).padStart(12, '0')}`;
    await client.query(`UPDATE subscriptions SET next_bill_date = '2099-01-01T00:00:00.000Z' WHERE id LIKE $1 AND id <= $2`, [`${template.id.slice(0, 24)}%`, cursorId]);
    await client.query('ANALYZE subscriptions');

    const until = new Date(Date.parse(template.next_bill_date) + 86_400_000).toISOString();
    const { sql, params } = await claimDueStatement(until, { at: template.next_bill_date, id: cursorId });
    await client.query('BEGIN');
    const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${toPgSql(sql)}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    await client.query('ROLLBACK');
    assert.match(plan, /Index Scan using subscriptions_due on subscriptions/, plan);
    assert.match(plan, /Index Cond: .*ROW\(next_bill_date, id\) > ROW\(/, `the cursor bounds the index scan:\n${plan}`);
    assert.doesNotMatch(plan, /Sort|Seq Scan on subscriptions/, plan);
    // PostgreSQL 18 prints row counts with two decimals (rows=100.00).
    assert.match(plan, /Index Scan using subscriptions_due on subscriptions \(actual time=[\d.]+ rows=100(?:\.00)? /, `100 rows claimed:\n${plan}`);
  } finally {
    await client.end();
  }
});

test('settlement claims its chunk from the settle index in order; a database made through the API has `groups` analyzed', async () => {
  const target = tempDbPath();
  await runCliJson(['init', '--demo'], { db: target });
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const analyzed = await client.query<{ relname: string }>(`SELECT relname FROM pg_stat_user_tables WHERE relname = 'groups' AND last_analyze IS NOT NULL`);
    assert.equal(analyzed.rows.length, 1, 'the migrations analyze groups');

    // 20,000 unsettled sales (copies of a demo sale) across the three settled statuses.
    const template = (await client.query<{ id: string }>(`SELECT id FROM transactions ORDER BY created_at DESC, id LIMIT 1`)).rows[0]!;
    const columns = (await client.query<{ c: string }>(
      `SELECT quote_ident(column_name) AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'transactions' ORDER BY ordinal_position`,
    )).rows.map((r) => r.c);
    const copied = columns.map((c) =>
      c === 'id' ? `substr(t.id, 1, 24) || lpad(to_hex(n), 12, '0')`
      : c === 'status' ? `(ARRAY['pending', 'captured', 'partially_captured'])[1 + n % 3]`
      : c === 'settlement_batch_id' ? 'NULL'
      : `t.${c}`);
    await client.query(
      `INSERT INTO transactions (${columns.join(', ')}) SELECT ${copied.join(', ')} FROM generate_series(1, 20000) n, transactions t WHERE t.id = $1`,
      [template.id],
    );
    await client.query('ANALYZE transactions');

    let seen: { sql: string; params: unknown[] } | undefined;
    const recorder = { dialect: pgDialect, all: async (sql: string, params: unknown[]) => ((seen = { sql, params }), []) } as unknown as Tx;
    await settlementRepo.claimCandidates(recorder, '2999-01-01T00:00:00.000Z', 100, { offsetMs: 0 });
    assert.ok(seen, 'claimCandidates sent no statement');
    await client.query('BEGIN');
    const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${toPgSql(seen.sql)}`, seen.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    await client.query('ROLLBACK');
    assert.match(plan, /Index Scan using transactions_settle_due on transactions/, plan);
    assert.doesNotMatch(plan, /Sort|Seq Scan on transactions/, plan);
  } finally {
    await client.end();
  }
});

test('the idempotency purge deletes its chunk by the rows it claimed (a TID scan), not by a scan of the table', async () => {
  const target = tempDbPath();
  const p = await openPlatform({ db: target });
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    // 20,000 keys of one group, the first 1,000 older than the cutoff.
    await client.query(
      `INSERT INTO idempotency_keys (group_id, key, request_hash, status, body, created_at)
       SELECT 'purge-plan', 'key-' || n, 'h', 200, '{}', CASE WHEN n <= 1000 THEN timestamptz '2030-01-01T00:00:00.000Z' ELSE timestamptz '2030-01-03T00:00:00.000Z' END
       FROM generate_series(1, 20000) n`,
    );
    await client.query('ANALYZE idempotency_keys');
    let seen: { sql: string; params: unknown[] } | undefined;
    const recorder = { dialect: pgDialect, run: async (sql: string, params: unknown[]) => ((seen = { sql, params }), { changes: 0 }) } as unknown as Tx;
    await p.db.repos.idempotency.deleteOlderThan(recorder, '2030-01-02T00:00:00.000Z', { groupId: 'purge-plan' }, 500);
    assert.ok(seen, 'deleteOlderThan sent no statement');
    await client.query('BEGIN');
    const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${toPgSql(seen.sql)}`, seen.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    await client.query('ROLLBACK');
    assert.match(plan, /Tid Scan on idempotency_keys \(actual time=[\d.]+ rows=500(?:\.00)? /, plan);
    // The claim's own scan is `idempotency_keys idempotency_keys_1`; the delete scans nothing else.
    assert.doesNotMatch(plan, /Hash|Seq Scan on idempotency_keys \(/, plan);
  } finally {
    await client.end();
    await p.close();
  }
});
