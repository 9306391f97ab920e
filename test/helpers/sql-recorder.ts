// Records every SQL text a process sends to either store, for the golden files of
// test/sql (npm run sql:record). Loaded with `node --import` through NODE_OPTIONS, so the
// payctl children a test starts (CLI, servers) record too; active only when
// PAYCTL_SQL_RECORD names a folder. Each process appends to a file of its own (one JSON
// line per distinct text): no two writers share a file. Only texts payctl's own code
// sends count (the caller is under src/: the store, or a test's SQL through a store);
// a test's own client asking the catalog is not the store's SQL.
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
    if (fromPayctl()) appendFileSync(file, JSON.stringify({ store, sql: text }) + '\n');
  };
  /**
   * Whether a text is payctl's: its first caller outside the drivers (and this file) is
   * not a test file. A query the pool runs once a connection is free has no caller left
   * on the stack: payctl's (tests query through a client of their own).
   */
  const fromPayctl = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 30;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    const caller = stack.split('\n').slice(1).find((l) => !l.includes('node_modules') && !l.includes('sql-recorder') && !l.includes('node:'));
    return caller === undefined || !/[/\\]test[/\\]/.test(caller);
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
