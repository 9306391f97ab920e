// The repositories' SQL as PostgreSQL takes it: `?` placeholders as `$1…$n` (never
// inside a quoted literal or identifier) — the one translation of text. What the two
// stores' SQL really differs in is written in each store's own words (../sql/dialect.ts,
// ./dialect.ts), never rewritten from the other's. Translated once per text, and sent as
// a named (prepared) statement: each connection parses it once, not at every execution.
import { createHash } from 'node:crypto';
import type pgTypes from 'pg';

const cache = new Map<string, string>();
const MAX_CACHED = 2000;

/** `?` placeholders as `$1…$n` (a text already in `$n` form has none and stays as it is). */
export function toPgSql(sql: string): string {
  let out = cache.get(sql);
  if (out !== undefined) return out;
  let n = 0;
  let quote: string | undefined;
  const parts: string[] = [];
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
      parts.push(ch);
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      parts.push(ch);
    } else if (ch === '?') parts.push(`$${++n}`);
    else parts.push(ch);
  }
  out = parts.join('');
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(sql, out);
  return out;
}

/** Texts given a statement name, at most this many (beyond, they go unnamed: each connection keeps what it prepared). */
const MAX_NAMED = 1000;
const names = new Map<string, string>();
/** Bumped when PostgreSQL refuses a prepared statement whose table changed shape: every text is prepared again under a new name. */
let generation = 0;

/** A single data statement can be prepared; DDL and several statements in one text cannot. */
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b[^;]*$/i;

/** The statement name of a PostgreSQL text (from its hash), or undefined when it is sent unnamed. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name !== undefined) return name || undefined;
  if (names.size >= MAX_NAMED) return undefined;
  name = PREPARABLE.test(text) ? `payctl_${generation}_${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : '';
  names.set(text, name);
  return name || undefined;
}

/** A query of the repositories' SQL and parameters as the pg driver takes it: numbered, named when it can be prepared. */
export function pgQuery(sql: string, params?: ReadonlyArray<unknown> | Record<string, unknown>): pgTypes.QueryConfig {
  const text = toPgSql(sql);
  return { text, values: toPgParams(params), name: statementName(text) };
}

/**
 * A prepared statement outlived its table's shape (a migration of another server altered
 * it: 0A000 "cached plan must not change result type"): forget every name, so the
 * statement is prepared again under a new one; the caller runs it again.
 */
export function isStalePlan(err: unknown): boolean {
  if (sqlState(err) !== '0A000' || !/cached plan must not change result type/.test((err as Error).message)) return false;
  generation++;
  names.clear();
  return true;
}

const PLUS = 0x2b;
/** JavaScript's ISO text of a year past 9999 (`+010000-01-01T…`): PostgreSQL reads it as `10000-01-01T…`. */
const EXTENDED_YEAR = /^\+0*(\d{5,})(?=-\d\d-\d\dT)/;

/**
 * Parameters as PostgreSQL takes them for the store's columns: booleans are 0/1 (as on
 * SQLite), undefined is NULL, and a NUL character (which PostgreSQL text cannot hold:
 * a hostile path or field would be a 500) is U+FFFD, so it matches nothing stored; an
 * instant computed past year 9999 (now + a TTL at the end of time) is in the form
 * PostgreSQL's timestamptz reads.
 */
export function toPgParams(params: ReadonlyArray<unknown> | Record<string, unknown> | undefined): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) throw new Error('the PostgreSQL store takes positional parameters only');
  return params.map((v) =>
    v === undefined ? null
    : typeof v === 'boolean' ? (v ? 1 : 0)
    : typeof v !== 'string' ? v
    : v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD')
    : v.charCodeAt(0) === PLUS && EXTENDED_YEAR.test(v) ? v.replace(EXTENDED_YEAR, '$1')
    : v,
  );
}

/** SQLSTATEs of a transaction PostgreSQL gave up on for another's sake: the write runs again. */
export const RETRYABLE = new Set(['40001', '40P01']);
/** A unique violation: retried too, once or twice (the other writer's row is then seen: an idempotent replay, a 409). */
export const UNIQUE_VIOLATION = '23505';

export function sqlState(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : undefined;
}

/** A query already in PostgreSQL's words ($n placeholders), named when it can be prepared. */
export function pgNamed(text: string, values: unknown[]): pgTypes.QueryConfig {
  return { text, values, name: statementName(text) };
}
