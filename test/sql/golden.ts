// The golden files of SQL texts (test/sql/*.sql.jsonl): one JSON string per line, each a
// text a store sent, sorted. Written by record.ts from a recording, read by the tests.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Dialect = 'postgres' | 'sqlite';

/** The golden file of a dialect, in the source tree (test/sql, beside this file's source). */
export function goldenPath(dialect: Dialect): string {
  const here = path.dirname(fileURLToPath(import.meta.url)); // dist/test/sql
  return path.resolve(here, '..', '..', '..', 'test', 'sql', `${dialect}.sql.jsonl`);
}

export function readGolden(dialect: Dialect): string[] {
  return readFileSync(goldenPath(dialect), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string);
}

/**
 * A text as the golden file keeps it: one statement shape once, whatever the length of
 * its lists or the test's random names. A run of placeholders (an IN list, a row of
 * values, rows of one value each) is one placeholder; PostgreSQL's `$n` are numbered
 * again in order (so the text still parses); a test database's random name (`t_`,
 * `copy_`, `types_` and 12 hex digits) and a write lane's rollup slot are fixed.
 */
export function normalize(sql: string, dialect: Dialect): string {
  let s = dialect === 'postgres' ? sql.replace(/\$\d+/g, '?') : sql;
  s = s
    .replace(/\?(?:, \?)+/g, '?')
    .replace(/\(\?\)(?:, \(\?\))+/g, '(?)')
    .replace(/\b([a-z]+)_[0-9a-f]{12}\b/g, '$1_000000000000')
    .replace(/'payctl\.rollup_slot', '\d+'/g, "'payctl.rollup_slot', '0'");
  if (dialect === 'postgres') {
    let n = 0;
    s = s.replace(/\?/g, () => `$${++n}`);
  }
  return s;
}

/** The texts of a recording in `dir` (helpers/sql-recorder.ts: a file per process), normalized, per dialect. */
export function readRecording(dir: string): Record<Dialect, Set<string>> {
  const texts: Record<Dialect, Set<string>> = { postgres: new Set(), sqlite: new Set() };
  for (const f of readdirSync(dir)) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      const { store, sql } = JSON.parse(line) as { store: Dialect; sql: string };
      texts[store].add(normalize(sql, store));
    }
  }
  return texts;
}

/**
 * Write both golden files from the recording in `dir`; returns how many texts each holds.
 * `keep`: add to the texts the files hold already (a recording of some test files only),
 * instead of replacing them (a recording of the whole suite: texts no longer sent go).
 */
export function writeGolden(dir: string, keep = false): Record<Dialect, number> {
  const texts = readRecording(dir);
  const counts = { postgres: 0, sqlite: 0 };
  for (const dialect of ['postgres', 'sqlite'] as const) {
    if (keep) for (const t of readGolden(dialect)) texts[dialect].add(t);
    const sorted = [...texts[dialect]].sort();
    writeFileSync(goldenPath(dialect), sorted.map((t) => JSON.stringify(t)).join('\n') + '\n');
    counts[dialect] = sorted.length;
  }
  return counts;
}
