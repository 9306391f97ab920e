// The statements a batch of the SQLite writer sends for its deferred and per-batch work
// (batch-work.ts): rows of a table as one INSERT, compare-and-sets of one text as one
// UPDATE, checks of one text as one statement. Each piece of work states its shape (the
// table, a compare-and-set's SET and WHERE, the tables a check reads: interfaces/db.ts),
// so nothing here reads a table name or a clause out of SQL text; a `?` is replaced by
// its value's place in a JSON parameter, and that is the one scan of a text.
import type { BatchReducer, Update } from '../interfaces/db.js';
import { updateReads, updateSql } from '../sql/update.js';
import { sqliteDialect } from './dialect.js';
import type { Contribution, Deferred, Statement } from './batch-work.js';

/**
 * Checks that fail a statement (and so the exec or pipeline it is in): a row is
 * inserted into this temp table only when a check fails, and no row may be.
 */
export const CHECK_TABLE = 'CREATE TEMP TABLE IF NOT EXISTS payctl_check (failed INTEGER NOT NULL CHECK (failed = 0))';
const CHECK_CHANGES = 'INSERT INTO temp.payctl_check (failed) SELECT 1 WHERE changes() <> ?';
const checkExists = (sql: string) => `INSERT INTO temp.payctl_check (failed) SELECT 1 WHERE NOT EXISTS (${sql})`;

/**
 * Deferred work → statements. Consecutive rows of one table and column list become one
 * INSERT: the columns whose value is the same in every row are bound once, the others
 * travel as one JSON parameter that SQLite unpacks (json_each, then `->>` per column) on
 * the writer's thread — binding every value (56 per transaction row) would convert each
 * on the main thread, the busiest part of a sale, and most of a batch's values repeat.
 * A change is followed by the check of its row count, a check by its test. `reorder`:
 * rows may be moved (see rowsLast); never when resending one write's work alone.
 */
export function toStatements(input: Deferred[], reorder = true): Statement[] {
  const items = reorder ? rowsLast(input) : input;
  const out: Statement[] = [];
  let i = 0;
  while (i < items.length) {
    const d = items[i]!;
    if (d.kind === 'row') {
      const rows: unknown[][] = [];
      while (i < items.length) {
        const r = items[i]!;
        if (r.kind !== 'row' || r.table !== d.table || !sameColumns(r.columns, d.columns)) break;
        rows.push(r.values);
        i++;
      }
      out.push(insertRows(d.table, d.columns, rows));
      continue;
    }
    if (d.kind === 'check') {
      // Consecutive checks of one SQL text: one statement over their parameters as JSON.
      const sets: unknown[][] = [];
      while (i < items.length) {
        const c = items[i]!;
        if (c.kind !== 'check' || c.check.sql !== d.check.sql) break;
        sets.push(c.params);
        i++;
      }
      const many = sets.length > 1 && sets.every((ps) => ps.every(jsonSafe)) ? checkEach(d.check.sql) : undefined;
      if (many) out.push({ sql: many, params: [JSON.stringify(sets)] });
      else for (const params of sets) out.push({ sql: checkExists(d.check.sql), params });
      continue;
    }
    // Consecutive compare-and-sets of one SQL text: one UPDATE over their parameters as
    // JSON, then one check that together they changed what each must. (Two of them on one
    // row change it once: the check fails, and the work is resent write by write.)
    const changes: Array<Extract<Deferred, { kind: 'change' }>> = [];
    const text = updateSql(d.update);
    while (i < items.length) {
      const c = items[i]!;
      if (c.kind !== 'change' || updateSql(c.update) !== text) break;
      changes.push(c);
      i++;
    }
    const many = changes.length > 1 && changes.every((c) => c.params.every(jsonSafe)) ? changeEach(d.update) : undefined;
    if (many) {
      out.push(
        { sql: many, params: [JSON.stringify(changes.map((c) => c.params))] },
        { sql: CHECK_CHANGES, params: [changes.reduce((n, c) => n + c.changes, 0)] },
      );
    } else for (const c of changes) out.push({ sql: text, params: c.params }, { sql: CHECK_CHANGES, params: [c.changes] });
  }
  return out;
}

const sameColumns = (a: readonly string[], b: readonly string[]): boolean => a === b || (a.length === b.length && a.every((c, i) => c === b[i]));

/** A parameter that survives JSON and `->>` unchanged. */
const jsonSafe = (v: unknown): boolean => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Each unquoted `?` of `sql` replaced by `value(n)` (n counting from 0), or undefined when a quote is left open. */
function eachParam(sql: string, value: (n: number) => string): string | undefined {
  let out = '';
  let n = 0;
  let quoted = false;
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    if (ch === '?' && !quoted) out += value(n++);
    else out += ch;
  }
  return quoted ? undefined : out;
}

/**
 * One UPDATE for many parameter sets (a JSON array of arrays) of a compare-and-set stated
 * by its SET and WHERE (one given whole, with a subquery, has none): joined with the sets,
 * each `?` becomes its set's value. The sets come through a materialized CTE whose only
 * column has a name no table uses, so the statement's own column names keep meaning the
 * same, and the join runs from the sets to the table: a row found by its key per set (as a
 * subquery in FROM, the planner walked an index of the table's other condition, e.g. every
 * authorized transaction, and scanned the sets for each). Exported for its tests.
 */
export function changeEach(u: Update): string | undefined {
  if ('sql' in u) return undefined;
  let n = 0;
  const param = () => `(payctl_j.payctl_p ->> ${n++})`;
  const set = eachParam(u.set, param);
  const where = eachParam(u.where, param);
  return (
    set &&
    where &&
    `WITH payctl_j AS MATERIALIZED (SELECT value AS payctl_p FROM json_each(?)) UPDATE ${u.table} SET ${set} FROM payctl_j WHERE ${where}`
  );
}

/** One check statement for many parameter sets (a JSON array of arrays): each `?` becomes its value. */
function checkEach(sql: string): string | undefined {
  const test = eachParam(sql, (n) => `(j.value ->> ${n})`);
  return test && `INSERT INTO temp.payctl_check (failed) SELECT 1 FROM json_each(?) AS j WHERE NOT EXISTS (${test})`;
}

/**
 * The same work with its rows after its compare-and-sets and checks, so that the rows of a
 * batch travel as one statement (a stored-card sale defers a check then a row; a batch of
 * them would alternate) — when that changes nothing: no check reads a table the rows go
 * into, no compare-and-set changes one of the rows or reads another such table.
 */
function rowsLast(items: Deferred[]): Deferred[] {
  const rows = items.filter((d) => d.kind === 'row');
  if (rows.length < 2) return items;
  if (rows.length === items.length) return byTable(rows);
  const tables = new Set(rows.map((r) => r.table));
  const ids = new Set(rows.map((r) => r.id).filter((id) => id !== undefined));
  const movable = items.every((d) => {
    if (d.kind === 'row') return true;
    if (d.kind === 'check') return !d.check.reads.some((t) => tables.has(t));
    return d.id !== undefined && !ids.has(d.id) && !updateReads(d.update).some((t) => t !== d.table && tables.has(t));
  });
  return movable ? [...items.filter((d) => d.kind !== 'row'), ...byTable(rows)] : items;
}

/**
 * Rows grouped by table, tables in the order of their first row, rows of a table in their
 * order: a sale defers its transaction then its event, and a batch of sales would
 * otherwise alternate (one INSERT per row). Inserts of different tables do not see each
 * other, except through a foreign key between two deferred tables; then the grouped
 * statement fails and the work is resent write by write, in each write's own order.
 */
function byTable(rows: Deferred[]): Deferred[] {
  const groups = new Map<string, Deferred[]>();
  for (const r of rows) {
    let g = groups.get(r.table);
    if (!g) groups.set(r.table, (g = []));
    g.push(r);
  }
  return groups.size === 1 ? rows : [...groups.values()].flat();
}

function insertRows(table: string, columns: readonly string[], rows: unknown[][]): Statement {
  const first = rows[0]!;
  const same = columns.map((_, c) => rows.every((r) => r[c] === first[c]));
  const varying = columns.flatMap((_, c) => (same[c] ? [] : [c]));
  const json = JSON.stringify(rows.map((r) => varying.map((c) => r[c])));
  return { sql: insertSql(table, columns, same), params: [json, ...columns.flatMap((_, c) => (same[c] ? [first[c]] : []))] };
}

const insertSqlCache = new Map<string, string>();
function insertSql(table: string, columns: readonly string[], same: boolean[]): string {
  const key = `${table}\u0000${columns.join(',')}\u0000${same.map((x) => (x ? 1 : 0)).join('')}`;
  let sql = insertSqlCache.get(key);
  if (!sql) {
    let k = 0;
    const select = columns.map((_, c) => (same[c] ? '?' : `v ->> ${k++}`));
    // MATERIALIZED: each row is parsed into JSONB once, not once per column.
    sql = `WITH r AS MATERIALIZED (SELECT jsonb(value) AS v FROM json_each(?))
INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM r`;
    // Shapes vary little (which columns repeat); a cap keeps an odd workload from growing it.
    if (insertSqlCache.size > 1000) insertSqlCache.clear();
    insertSqlCache.set(key, sql);
  }
  return sql;
}

/** Per-batch work over the contributions of the writes that have not failed, in reducer order of first use. */
export function reducedStatements(work: Contribution[]): Statement[] {
  const byReducer = new Map<BatchReducer<unknown>, unknown[]>();
  for (const { owner, reducer, item } of work) {
    if (owner.failed) continue;
    let list = byReducer.get(reducer);
    if (!list) byReducer.set(reducer, (list = []));
    list.push(item);
  }
  return [...byReducer].flatMap(([reducer, list]) => reducer.statements(list, sqliteDialect).map((st) => ({ sql: st.sql, params: [st.json] })));
}
