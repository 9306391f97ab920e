// Versioned migrations, applied in order and recorded in schema_migrations. A database
// written by a newer payctl is refused with a clear message rather than misread.
import type { Database } from './db.js';
import { SchemaTooNewError } from '../errors.js';
import type { Migration } from '../migrations/migration.js';
import { LATEST_VERSION } from '../migrations/latest.js';

export { SchemaTooNewError } from '../errors.js';
export { LATEST_VERSION } from '../migrations/latest.js';

export async function migrate(db: Database, given?: Migration[]): Promise<{ from: number; to: number }> {
  await db.execSchema(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const current = await currentVersion(db);
  // Every version 1…LATEST recorded: nothing to apply, and the migrations need not be loaded.
  if (given === undefined && current === LATEST_VERSION && (await appliedCount(db)) === LATEST_VERSION) return { from: current, to: current };
  const list = given ?? (await import('../migrations/index.js')).sqliteMigrations;
  const latest = Math.max(0, ...list.map((m) => m.version));
  const applied = new Set((await db.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  if (current > latest) {
    throw new SchemaTooNewError(
      `the database ${db.location} is at schema version ${current}, newer than this payctl understands (${latest}); upgrade payctl`,
    );
  }
  // Every migration not yet recorded, in order (not only those above the newest applied).
  for (const m of list.filter((x) => !applied.has(x.version)).sort((a, b) => a.version - b.version)) {
    await db.write(async (tx) => {
      // A concurrent process may have applied it while we waited for the write lock.
      const done = await tx.get('SELECT 1 FROM schema_migrations WHERE version = ?', [m.version]);
      if (done) return;
      if (m.up) await m.up(tx);
      else for (const statement of m.statements) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    });
  }
  return { from: current, to: Math.max(current, latest) };
}

async function appliedCount(db: Database): Promise<number> {
  return (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM schema_migrations'))?.n ?? 0;
}

async function currentVersion(db: Database): Promise<number> {
  const row = await db.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
  return row?.v ?? 0;
}
