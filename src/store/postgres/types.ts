// Values read from PostgreSQL as the repositories read them on SQLite, so services,
// answers, events, webhooks and idempotent replays see the same bytes on both stores:
// integers and numerics as numbers, JSON (`json` and `jsonb`) as its text, and instants
// (`timestamptz`) as the fixed-width ISO-8601 UTC text with milliseconds SQLite holds.
// Set per pool (the `types` option), not on the driver's global parsers.
import pg from 'pg';
import { END_OF_TIME } from '../../domain/time.js';

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB = 3802;
const TIMESTAMPTZ = 1184;

/**
 * Every connection's session: instants are printed in UTC and ISO order (the parser
 * below reads any offset, but a fixed setting keeps the text PostgreSQL prints, and
 * `to_char(… AT TIME ZONE 'UTC')` in the SQL, independent of the server's defaults).
 */
export const SESSION_OPTIONS = '-c TimeZone=UTC -c DateStyle=ISO,YMD';

/** Midnight starting year 10000: PostgreSQL's reading of END_OF_TIME (9999-12-31T24:00). */
const END_OF_TIME_MS = Date.UTC(10000, 0, 1);

// `2026-11-26 18:55:51.12+00`: trailing zeros of the fraction are dropped, up to 6 digits.
const TIMESTAMPTZ_TEXT = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/;

/** A `timestamptz` as PostgreSQL prints it (DateStyle ISO), as the 24-character text the platform writes. */
export function instantFromPg(text: string): string {
  const m = TIMESTAMPTZ_TEXT.exec(text);
  // infinity or a BC date: never written by the platform; passed on as printed.
  if (!m) return text;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om, os] = m;
  const offsetMs = (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) * 1000 * (sign === '-' ? -1 : 1);
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number((frac ?? '').padEnd(3, '0').slice(0, 3))) - offsetMs;
  if (ms === END_OF_TIME_MS) return END_OF_TIME;
  return new Date(ms).toISOString();
}

/**
 * jsonb prints `{"a": 1, "b": [2, 3]}`; the documents SQLite holds are JSON.stringify's
 * compact text: jsonb's text compacted (the columns that are jsonb keep no key order a
 * client sees — see migration 30).
 */
export const jsonbText = (text: string): string => JSON.stringify(JSON.parse(text));

/** The parsers of a pool (`new pg.Pool({ types })`). */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === JSON_OID) return (v: string) => v;
    if (oid === JSONB) return jsonbText;
    if (oid === TIMESTAMPTZ) return instantFromPg;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;
