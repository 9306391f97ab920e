// The SQLite store: open the file (its folder made first), apply the migrations.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Database } from './db.js';
import { migrate } from './migrate.js';
import type { Store } from '../interfaces/db.js';

export async function openSqliteStore(file: string): Promise<Store> {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = await Database.open(file);
  try {
    const { to } = await migrate(db);
    db.schemaVersion = to;
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}
