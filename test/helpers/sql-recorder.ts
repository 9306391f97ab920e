// Records every SQL text a process sends to either store, for the golden files of
// test/sql (npm run sql:record). Loaded with `node --import` through NODE_OPTIONS, so the
// payctl children a test starts (CLI, servers) record too; active only when
// PAYCTL_SQL_RECORD names a folder. Each process appends to a file of its own (one JSON
// line per distinct text): no two writers share a file. Only texts payctl's code sends
// count (the first caller outside the drivers is not a test file: the store, or a test's
// SQL run through a store); a test's own client asking the catalog is not the store's SQL.
import { appendFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

const dir = process.env.PAYCTL_SQL_RECORD;
if (dir) {
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
  // Wrapped when a process loads the driver (ESM imports of these CommonJS packages load
  // through Module.prototype.load too), not before: a process that never opens a store
  // (most CLI children) pays nothing for the recording.
  const drivers: Array<[RegExp, (exports: Record<string, { prototype: Record<string, unknown> }>) => void]> = [
    [/[/\\]pg[/\\]lib[/\\]index\.js$/, (pg) => wrap(pg.Client!.prototype, 'query', 'postgres')],
    [/[/\\]sqlite3[/\\]lib[/\\]sqlite3\.js$/, (sqlite3) => {
      for (const m of ['prepare', 'run', 'all', 'get', 'each', 'exec']) wrap(sqlite3.Database!.prototype, m, 'sqlite');
    }],
  ];
  const Loader = Module as unknown as { prototype: { load(this: { exports: unknown }, filename: string): void } };
  const load = Loader.prototype.load;
  Loader.prototype.load = function (this: { exports: unknown }, filename: string) {
    load.call(this, filename);
    for (const [file, hook] of drivers) if (file.test(filename)) hook(this.exports as Parameters<typeof hook>[0]);
  };
}
