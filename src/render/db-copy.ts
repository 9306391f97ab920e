// Human output of `payctl db copy`: the row count of each table on both sides, then where
// the identity counters continue.
import type { CopyResult } from '../services/db/copy.js';
import { keyValues, table } from './table.js';

export function copySummary(r: CopyResult): string {
  const counts = table(
    ['table', 'source rows', 'target rows'],
    r.tables.map((t) => [t.table, t.source_rows.toLocaleString('en-US'), t.target_rows.toLocaleString('en-US')]),
  );
  const summary = keyValues([
    ['from', r.from],
    ['to', r.to],
    ['schema version', r.schema_version],
    ['rows', `${r.rows.toLocaleString('en-US')} in ${r.tables.length} tables, counts equal`],
    ['counters', r.sequences.map((s) => `${s.table}.${s.column} continues at ${s.next}`).join('; ')],
    ['took', `${(r.elapsed_ms / 1000).toFixed(1)} s`],
  ]);
  return `${counts}\n${summary}`;
}
