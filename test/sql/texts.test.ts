// Every SQL text the PostgreSQL store sends (the golden file test/sql/postgres.sql.jsonl,
// recorded from the suite's run on PostgreSQL by `npm run sql:record`) parses with
// PostgreSQL's own parser (libpg-query, WebAssembly, no server): a text only a newer
// version accepts fails here, not as a 500 on a customer's older server. libpg-query 15
// is the oldest release on npm: its grammar is PostgreSQL 15's, which 14's shares in
// everything these texts use (both reject a FROM subquery without an alias).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'libpg-query';
import { readGolden } from './golden.js';

test('every SQL text the PostgreSQL store sends parses at the oldest supported version', async () => {
  const texts = readGolden('postgres');
  assert.ok(texts.length > 200, `the golden file holds ${texts.length} texts: record it again (npm run sql:record)`);
  const refused: string[] = [];
  for (const sql of texts) {
    try {
      await parse(sql);
    } catch (err) {
      refused.push(`${(err as Error).message}\n  ${sql.slice(0, 300)}`);
    }
  }
  assert.deepEqual(refused, [], `${refused.length} of ${texts.length} texts do not parse:\n${refused.join('\n')}`);
});

test('the parser refuses what PostgreSQL 14 and 15 refuse (a FROM subquery without an alias)', async () => {
  await assert.rejects(parse('SELECT SUM(h) FROM (SELECT 1 AS h UNION ALL SELECT 2)'), /subquery in FROM must have an alias/);
  await parse('SELECT SUM(h) FROM (SELECT 1 AS h UNION ALL SELECT 2) AS parts');
});

test('the golden files are sorted and hold each text once', () => {
  for (const dialect of ['postgres', 'sqlite'] as const) {
    const texts = readGolden(dialect);
    assert.deepEqual(texts, [...new Set(texts)].sort(), `${dialect}.sql.jsonl: record it again (npm run sql:record)`);
  }
});
