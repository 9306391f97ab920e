// PostgreSQL's migrations: one process at a time (a session advisory lock held while
// they run), each version in one transaction, recorded in schema_migrations as on SQLite.
import type { PgDatabase } from './db.js';
import { postgresMigrations as migrations } from '../migrations/index.js';
import { SchemaTooNewError } from '../errors.js';

/** The advisory lock migrations run under (an arbitrary constant of this store). */
const MIGRATION_LOCK = 7_262_001;

export async function migratePg(db: PgDatabase): Promise<{ from: number; to: number }> {
  const client = await db.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)));
    const current = Math.max(0, ...applied);
    const latest = Math.max(0, ...migrations.map((m) => m.version));
    if (current > latest) {
      throw new SchemaTooNewError(`the database ${db.location} is at schema version ${current}, newer than this payctl understands (${latest}); upgrade payctl`);
    }
    for (const m of migrations.filter((x) => !applied.has(x.version))) {
      await client.query('BEGIN');
      try {
        for (const statement of m.statements ?? []) await client.query(statement);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`PostgreSQL migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
      }
    }
    return { from: current, to: Math.max(current, latest) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
