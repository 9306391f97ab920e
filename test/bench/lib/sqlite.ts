// Direct SQLite access from the bench process: the report floor (the same SQL payctl
// runs, without HTTP, auth or JSON) and the row counts of the durability check.
import sqlite3 from 'sqlite3';

export interface Direct {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  close(): Promise<void>;
}

export async function openDirect(path: string, readOnly = true): Promise<Direct> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(path, readOnly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(d)));
  });
  await new Promise<void>((resolve, reject) => db.exec('PRAGMA busy_timeout = 10000;', (err) => (err ? reject(err) : resolve())));
  // Prepared once and reused, as payctl does: the floor must not pay for re-preparing.
  const statements = new Map<string, sqlite3.Statement>();
  const prepare = (sql: string) =>
    new Promise<sqlite3.Statement>((resolve, reject) => {
      const cached = statements.get(sql);
      if (cached) return resolve(cached);
      const st = db.prepare(sql, (err) => {
        if (err) return reject(err);
        statements.set(sql, st);
        resolve(st);
      });
    });
  const all = async <T>(sql: string, params: unknown[] = []) => {
    const st = await prepare(sql);
    return new Promise<T[]>((resolve, reject) => st.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))));
  };
  return {
    all,
    get: async <T>(sql: string, params: unknown[] = []) => (await all<T>(sql, params))[0],
    async close() {
      for (const st of statements.values()) await new Promise<void>((r) => st.finalize(() => r()));
      await new Promise<void>((resolve) => db.close(() => resolve()));
    },
  };
}
