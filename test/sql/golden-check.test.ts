// The golden check every PostgreSQL pass makes (golden-check.ts): a recording whose
// texts the golden file holds passes (and is removed); one with a text it lacks fails,
// naming the text and the command that adds it.
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

function quietly<T>(run: () => T): { result: T; said: string } {
  const write = process.stderr.write.bind(process.stderr);
  let said = '';
  process.stderr.write = ((chunk: string) => ((said += chunk), true)) as typeof process.stderr.write;
  try {
    return { result: run(), said };
  } finally {
    process.stderr.write = write;
  }
}

test('texts the golden file holds pass, as sent (an IN list of any length, $n numbering)', () => {
  const recorded = readGolden('postgres').find((t) => t.includes('IN ($1)'));
  assert.ok(recorded);
  const sent = recorded.replace('IN ($1)', 'IN ($1, $2, $3)');
  assert.equal(normalize(sent, 'postgres'), normalize(recorded, 'postgres'));
  const dir = recording([{ store: 'postgres', sql: sent }, { store: 'sqlite', sql: 'SELECT 1 AS not_checked_on_sqlite' }]);
  const { result, said } = quietly(() => reportUnrecorded(dir));
  assert.equal(result, true, said);
  assert.equal(existsSync(dir), false, 'a passing recording is removed');
});

test('a text the golden file lacks fails the check, named with the command that records it', () => {
  const dir = recording([{ store: 'postgres', sql: 'SELECT 42 AS never_recorded WHERE 1 = $1' }]);
  const { result, said } = quietly(() => reportUnrecorded(dir));
  assert.equal(result, false);
  assert.match(said, /1 SQL text\(s\) sent to PostgreSQL are not in test\/sql\/postgres\.sql\.jsonl/);
  assert.match(said, /SELECT 42 AS never_recorded WHERE 1 = \$1/);
  assert.ok(said.includes(`--collect ${dir} --keep`));
  assert.ok(existsSync(dir), 'a failing recording is kept for --keep');
});
