// The schema a fresh migrate makes, on either store, against its golden
// (test/sql/sqlite.schema.json, postgres.schema.json): a change to a migration's DDL
// that changes the schema it makes fails here. The goldens were recorded from the
// migrations as they were before their DDL was made explicit per dialect (a regex
// rewrite of SQLite's DDL made PostgreSQL's then), so a database made by either shows
// the same tables, columns, types, collations, defaults, identities, indexes,
// constraints, triggers, functions, views and sequences. SQLite keeps each object's
// CREATE text: its golden holds the text itself, byte for byte.
//
// A new migration changes the schema on purpose: record the goldens again with
// `PAYCTL_SCHEMA_RECORD=1` on both passes (docs/store.md says how) and read the diff.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDbPath, isPgUrl, testStore } from '../helpers/platform.js';
import { openStore } from '../helpers/store.js';

type Schema = Record<string, unknown[]>;

/** test/sql/<store>.schema.json in the source tree (this file runs from dist/test/store). */
const goldenPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'sql', `${testStore}.schema.json`);

/**
 * PostgreSQL's catalog of the public schema, in words that do not depend on the
 * database's name, object ids or the server's major version (PostgreSQL 18 also lists
 * NOT NULL as constraints: those are the columns' `not_null` here).
 */
const PG_CATALOG: Record<string, string> = {
  tables: `SELECT c.relname AS name, c.relkind AS kind, c.relpersistence AS persistence, c.reloptions AS options
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'S', 'p') ORDER BY 1`,
  columns: `SELECT c.relname AS table, a.attnum AS position, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
      a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default, co.collname AS collation,
      a.attidentity AS identity, a.attgenerated AS generated
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v') AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`,
  indexes: `SELECT tablename AS table, indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`,
  constraints: `SELECT c.relname AS table, k.conname AS name, k.contype AS type, pg_get_constraintdef(k.oid) AS definition
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND k.contype <> 'n' ORDER BY 1, 2`,
  triggers: `SELECT c.relname AS table, t.tgname AS name, pg_get_triggerdef(t.oid) AS definition
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY 1, 2`,
  functions: `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS arguments, pg_get_function_result(p.oid) AS result, p.prosrc AS body
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' ORDER BY 1, 2`,
  // A view's text as deparsed, less the qualifier of the table it reads (14 writes
  // `sum(t.n)`, 18 `sum(n)` for the same view).
  views: `SELECT v.viewname AS name, replace(v.definition, t.relname || '.', '') AS definition
    FROM pg_views v JOIN pg_rewrite r ON r.ev_class = (quote_ident(v.viewname))::regclass
    JOIN pg_depend d ON d.objid = r.oid AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> r.ev_class
    JOIN pg_class t ON t.oid = d.refobjid
    WHERE v.schemaname = 'public' GROUP BY 1, 2 ORDER BY 1`,
  sequences: `SELECT sequencename AS name, data_type AS type, start_value AS start, increment_by AS increment
    FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`,
};

async function pgSchema(db: string): Promise<Schema> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const schema: Schema = {};
    for (const [part, sql] of Object.entries(PG_CATALOG)) schema[part] = (await client.query(sql)).rows;
    return schema;
  } finally {
    await client.end();
  }
}

async function sqliteSchema(db: string): Promise<Schema> {
  const { default: sqlite3 } = await import('sqlite3');
  const conn = new sqlite3.Database(db);
  try {
    const rows = await new Promise<unknown[]>((resolve, reject) =>
      conn.all('SELECT type, name, tbl_name AS "table", sql FROM sqlite_master ORDER BY type, name', (err, r) => (err ? reject(err) : resolve(r))),
    );
    return { objects: rows };
  } finally {
    await new Promise<void>((resolve) => conn.close(() => resolve()));
  }
}

test(`a fresh migrate makes the recorded schema (${testStore})`, async () => {
  const db = tempDbPath();
  const store = await openStore(db);
  await store.close();
  const schema = JSON.parse(JSON.stringify(isPgUrl(db) ? await pgSchema(db) : await sqliteSchema(db))) as Schema;
  if (process.env.PAYCTL_SCHEMA_RECORD === '1') writeFileSync(goldenPath, JSON.stringify(schema, null, 1) + '\n');
  const golden = JSON.parse(readFileSync(goldenPath, 'utf8')) as Schema;
  assert.deepEqual(Object.keys(schema), Object.keys(golden));
  for (const part of Object.keys(golden)) assert.deepEqual(schema[part], golden[part], `${testStore} schema: ${part} differ from ${path.basename(goldenPath)}`);
});
