// Versioned migrations, applied in order and recorded in schema_migrations. A database
// written by a newer payctl is refused with a clear message rather than misread.
import type { Database } from './db.js';
import { migrations, type Migration } from './migrations/index.js';

export class SchemaTooNewError extends Error {}

export const LATEST_VERSION = Math.max(...migrations.map((m) => m.version));

export async function migrate(db: Database, list: Migration[] = migrations): Promise<{ from: number; to: number }> {
  await db.execSchema(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const current = await currentVersion(db);
  const latest = Math.max(0, ...list.map((m) => m.version));
  const applied = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  if (current > latest) {
    throw new SchemaTooNewError(
      `the database ${db.path} is at schema version ${current}, newer than this payctl understands (${latest}); upgrade payctl`,
    );
  }
  // Every migration not yet recorded, in order (not only those above the newest applied).
  for (const m of list.filter((x) => !applied.has(x.version))) {
    await db.write(async (tx) => {
      // A concurrent process may have applied it while we waited for the write lock.
      const done = await tx.get('SELECT 1 FROM schema_migrations WHERE version = ?', [m.version]);
      if (done) return;
      for (const statement of splitStatements(m.sql)) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    });
  }
  return { from: current, to: Math.max(current, latest) };
}

async function currentVersion(db: Database): Promise<number> {
  const row = await db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
  return row?.v ?? 0;
}

/**
 * Split a migration into statements (no semicolons inside string literals in
 * migrations). A CREATE TRIGGER runs to its END: the semicolons of its body stay in it.
 */
export function splitStatements(sql: string): string[] {
  const pieces = sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(';');
  const out: string[] = [];
  let trigger: string | undefined;
  for (const piece of pieces) {
    if (trigger !== undefined) {
      trigger += `;${piece}`;
      if (/\bEND\s*$/i.test(piece.trim()) || /^\s*END\s*$/i.test(piece)) {
        out.push(trigger.trim());
        trigger = undefined;
      }
      continue;
    }
    const s = piece.trim();
    if (!s) continue;
    if (/^CREATE\s+(TEMP\s+|TEMPORARY\s+)?TRIGGER\b/i.test(s) && !/\bEND$/i.test(s)) trigger = s;
    else out.push(s);
  }
  if (trigger !== undefined) throw new Error(`a CREATE TRIGGER without its END in a migration: ${trigger.slice(0, 80)}`);
  return out;
}
