// The golden check every PostgreSQL pass makes (golden-check.ts): a recording whose
// texts the golden file holds passes (and is removed); a text it lacks is named with the
// command that adds it, and fails the check when it does not parse, or under strict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readGolden, normalize } from './golden.js';
import { reportUnrecorded } from './golden-check.js';

function recording(lines: Array<{ store: 'postgres' | 'sqlite'; sql: string }>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-golden-check-'));
  writeFileSync(path.join(dir, '1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return dir;
}

async function quietly<T>(run: () => Promise<T>): Promise<{ result: T; said: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let said = '';
  process.stderr.write = ((chunk: string) => ((said += chunk), true)) as typeof process.stderr.write;
  try {
    return { result: await run(), said };
  } finally {
    process.stderr.write = write;
  }
}

test('texts the golden file holds pass, as sent (an IN list of any length, $n numbering)', async () => {
  const recorded = readGolden('postgres').find((t) => t.includes('IN ($1)'));
  assert.ok(recorded);
  const sent = recorded.replace('IN ($1)', 'IN ($1, $2, $3)');
  assert.equal(normalize(sent, 'postgres'), normalize(recorded, 'postgres'));
  const dir = recording([{ store: 'postgres', sql: sent }, { store: 'sqlite', sql: 'SELECT 1 AS not_checked_on_sqlite' }]);
  const { result, said } = await quietly(() => reportUnrecorded(dir, true));
  assert.equal(result, true, said);
  assert.equal(existsSync(dir), false, 'a passing recording is removed');
});

test('a text the golden file lacks is named with the command that records it; it fails under strict', async () => {
  const dir = recording([{ store: 'postgres', sql: 'SELECT 42 AS never_recorded WHERE 1 = $1' }]);
  const { result, said } = await quietly(() => reportUnrecorded(dir, true));
  assert.equal(result, false);
  assert.match(said, /1 SQL text\(s\) sent to PostgreSQL are not in test\/sql\/postgres\.sql\.jsonl/);
  assert.match(said, /SELECT 42 AS never_recorded WHERE 1 = \$1/);
  assert.match(said, /All of them parse/);
  assert.ok(said.includes(`--collect ${dir} --keep`));
  assert.ok(existsSync(dir), 'a failing recording is kept for --keep');
  const lenient = await quietly(() => reportUnrecorded(dir, false));
  assert.equal(lenient.result, true, 'a text that parses does not fail a run that is not strict');
});

test('an unrecorded text that does not parse at PostgreSQL 14 fails the check, strict or not', async () => {
  const dir = recording([{ store: 'postgres', sql: 'SELECT SUM(h) FROM (SELECT 1 AS h UNION ALL SELECT $1)' }]);
  const { result, said } = await quietly(() => reportUnrecorded(dir, false));
  assert.equal(result, false);
  assert.match(said, /1 of them do not parse/);
  assert.match(said, /subquery in FROM must have an alias/);
});
