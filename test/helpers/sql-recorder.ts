// Records every SQL text a process sends to either store, for the golden files of
// test/sql (npm run sql:record). Loaded with `node --import` through NODE_OPTIONS, so the
// payctl children a test starts (CLI, servers) record too; active only when
// PAYCTL_SQL_RECORD names a folder. Each process appends to a file of its own (one JSON
// line per distinct text): no two writers share a file.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = process.env.PAYCTL_SQL_RECORD;
if (dir) {
  const require = createRequire(import.meta.url);
  const seen = new Set<string>();
  const file = path.join(dir, `${process.pid}.jsonl`);
  const record = (store: 'postgres' | 'sqlite', sql: unknown) => {
    const text = typeof sql === 'string' ? sql : typeof (sql as { text?: unknown })?.text === 'string' ? (sql as { text: string }).text : undefined;
    if (text === undefined || seen.has(store + text)) return;
    seen.add(store + text);
    appendFileSync(file, JSON.stringify({ store, sql: text }) + '\n');
  };
  const wrap = (proto: Record<string, unknown>, method: string, store: 'postgres' | 'sqlite') => {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      record(store, args[0]);
      return original.apply(this, args);
    };
  };
  const pg = require('pg') as { Client: { prototype: Record<string, unknown> } };
  wrap(pg.Client.prototype, 'query', 'postgres');
  const sqlite3 = require('sqlite3') as { Database: { prototype: Record<string, unknown> } };
  for (const m of ['prepare', 'run', 'all', 'get', 'each', 'exec']) wrap(sqlite3.Database.prototype, m, 'sqlite');
}
