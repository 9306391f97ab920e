// Time as people and clients type it, read in one place (docs/decisions.md#time): every
// instant and date the API and the CLI take goes through `readInstant` (or the zod
// schemas built on it), so one set of rules holds everywhere:
// - RFC 3339 date-times (`2027-01-01T00:00:00Z`, `…T09:30:00.250+02:00`; `t`/`z` and a
//   space for `T` are read too, as is a space for an offset's `+` — what an unencoded
//   `+` in a query string turns into), and where documented a date `YYYY-MM-DD`
//   (midnight UTC);
// - impossible dates and hours are refused, never rolled over (2027-02-31, 2027-02-29,
//   T24:00:00, :60 seconds, offsets past ±23:59);
// - years 1970 to 9999, for the text as written and for the instant in UTC (so
//   `9999-12-31T23:59:59-23:59`, which is year 10000 in UTC, is refused);
// - every instant is kept in one fixed-width UTC form `YYYY-MM-DDTHH:mm:ss.sssZ` (24
//   characters), so text order is time order wherever instants are compared or stored.
// Durations (`30d`, `1d12h`) for clock moves and settings are read here too.
import { z } from 'zod';
import { validationError } from '../errors.js';

export const MIN_YEAR = 1970;
export const MAX_YEAR = 9999;
/** The first and last instants the platform represents (ms since the epoch). */
export const MIN_INSTANT_MS = Date.UTC(MIN_YEAR, 0, 1);
export const MAX_INSTANT_MS = Date.UTC(MAX_YEAR, 11, 31, 23, 59, 59, 999);

export const INSTANT_EXAMPLE = '2027-01-01T00:00:00Z';
const RANGE = `years ${MIN_YEAR} to ${MAX_YEAR}`;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+\- ]\d{2}:\d{2})$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

export type InstantRead = { ok: true; iso: string; ms: number } | { ok: false; message: string };

/** Days in a month of the proleptic Gregorian calendar. */
function daysIn(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** The rule broken by a calendar date, or undefined when it is a real day in range. */
function dateProblem(y: number, mo: number, d: number, text: string): string | undefined {
  if (y < MIN_YEAR || y > MAX_YEAR) return `${JSON.stringify(text)} is outside the supported ${RANGE}`;
  if (mo < 1 || mo > 12) return `${JSON.stringify(text)} has no month ${mo} (months are 01 to 12)`;
  const days = daysIn(y, mo);
  if (d < 1 || d > days) return `${JSON.stringify(text)} is not a real date: ${y}-${String(mo).padStart(2, '0')} has ${days} days`;
  return undefined;
}

/** The fixed-width UTC form of an instant in range. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * An instant past the supported years, as the platform writes a computed time (a bill
 * date, a cutoff) that falls there: 24 characters like every other instant, and after
 * every instant a clock can reach in text order, so it is never due. (JavaScript reads it
 * as 10000-01-01T00:00:00.000Z.)
 */
export const END_OF_TIME = '9999-12-31T24:00:00.000Z';

/** A computed instant in the fixed-width form: END_OF_TIME once it passes year 9999 (never `+010000-…`). */
export function instantText(ms: number): string {
  if (Number.isNaN(ms)) throw new RangeError('not a time');
  return ms > MAX_INSTANT_MS ? END_OF_TIME : new Date(ms).toISOString();
}

/** An instant in the fixed-width form, held within the supported years (a value read from an odd row shown, not thrown on). */
export function clampedInstant(ms: number): string {
  return isoOf(Number.isFinite(ms) ? Math.min(Math.max(ms, MIN_INSTANT_MS), MAX_INSTANT_MS) : MIN_INSTANT_MS);
}

/**
 * Read an instant. `date: true` also takes a date `YYYY-MM-DD` (midnight UTC); `dateOnly`
 * takes only that. Answers the fixed-width UTC form, or the rule the text breaks.
 */
export function readInstant(text: unknown, opts: { date?: boolean; dateOnly?: boolean } = {}): InstantRead {
  const want = opts.dateOnly ? 'a date YYYY-MM-DD' : opts.date ? `an RFC 3339 time like ${INSTANT_EXAMPLE} or a date YYYY-MM-DD` : `an RFC 3339 time with a zone, like ${INSTANT_EXAMPLE}`;
  if (typeof text !== 'string') return { ok: false, message: `must be ${want}` };
  if (text.length > 40) return { ok: false, message: `must be ${want} (at most 40 characters)` };
  const d = DATE_ONLY.exec(text);
  if (d) {
    if (!opts.date && !opts.dateOnly) return { ok: false, message: `must be ${want}; a date alone has no time of day` };
    const [y, mo, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    const bad = dateProblem(y, mo, day, text);
    if (bad) return { ok: false, message: bad };
    const ms = Date.UTC(y, mo - 1, day);
    return { ok: true, iso: isoOf(ms), ms };
  }
  if (opts.dateOnly) return { ok: false, message: `must be ${want}` };
  const m = DATE_TIME.exec(text);
  if (!m) return { ok: false, message: `${JSON.stringify(text)} is not ${want}` };
  const [y, mo, day, hh, mi, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const bad = dateProblem(y!, mo!, day!, text);
  if (bad) return { ok: false, message: bad };
  if (hh! > 23) return { ok: false, message: `${JSON.stringify(text)} has no hour ${hh} (hours are 00 to 23; T24:00 is the next day's T00:00)` };
  if (mi! > 59) return { ok: false, message: `${JSON.stringify(text)} has no minute ${mi} (00 to 59)` };
  if (ss! > 59) return { ok: false, message: `${JSON.stringify(text)} has no second ${ss} (00 to 59; leap seconds are not represented)` };
  const zone = m[8]!;
  let offsetMin = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return { ok: false, message: `${JSON.stringify(text)} has an impossible offset ${zone.replace(' ', '+')} (at most ±23:59)` };
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(y!, mo! - 1, day!, hh!, mi!, ss!, millis);
  // Date.UTC maps years 0..99 to 1900..1999; the range check above already refused them.
  const ms = local - offsetMin * 60_000;
  if (ms < MIN_INSTANT_MS || ms > MAX_INSTANT_MS) {
    return { ok: false, message: `${JSON.stringify(text)} is ${isoOf(ms).replace(/^\+0*/, '')} in UTC, outside the supported ${RANGE}` };
  }
  return { ok: true, iso: isoOf(ms), ms };
}

/** An instant or a thrown Error saying which rule it breaks (the CLI's flags and arguments). */
export function parseInstant(text: string, opts: { date?: boolean } = { date: true }): Date {
  const r = readInstant(text, opts);
  if (!r.ok) throw new Error(r.message);
  return new Date(r.ms);
}

/**
 * The zod schema of an instant field: the fixed-width UTC ISO string, or a 400 naming the
 * field with the rule. `date: true` also takes `YYYY-MM-DD` (midnight UTC).
 */
export const instantSchema = (opts: { date?: boolean } = {}) =>
  z
    .string({ error: opts.date ? `must be an RFC 3339 time like ${INSTANT_EXAMPLE} or a date YYYY-MM-DD` : `must be an RFC 3339 time with a zone, like ${INSTANT_EXAMPLE}` })
    .transform((s, ctx) => {
      const r = readInstant(s, opts);
      if (r.ok) return r.iso;
      ctx.addIssue({ code: 'custom', message: r.message });
      return z.NEVER;
    })
    .meta({ format: 'date-time', description: `RFC 3339${opts.date ? ' (or a date YYYY-MM-DD: midnight UTC)' : ''}; ${RANGE}` });

/** The zod schema of a calendar date field `YYYY-MM-DD` (a real day, years 1970–9999); kept as written. */
export const dateSchema = z
  .string({ error: 'is required and must be a date YYYY-MM-DD' })
  .superRefine((s, ctx) => {
    const r = readInstant(s, { dateOnly: true });
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
  })
  .meta({ format: 'date', description: `a date YYYY-MM-DD; ${RANGE}` });

// ---------------------------------------------------------------------------
// Durations

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "30d", "12h", "90m", "1d12h" → milliseconds (a safe integer; anything larger is refused, not rounded). */
export function parseDuration(text: string): number {
  const re = /(\d+)(ms|s|m|h|d|w)/g;
  let total = 0n;
  let consumed = 0;
  const trimmed = text.trim();
  if (trimmed.length > 40) throw new Error(`"${text.slice(0, 40)}…" is not a duration (write 30d, 12h, 90m, 45s or combinations like 1d12h)`);
  for (const m of trimmed.matchAll(re)) {
    total += BigInt(m[1]!) * BigInt(UNITS[m[2]!]!);
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== trimmed.length) {
    throw new Error(`"${text}" is not a duration (write 30d, 12h, 90m, 45s or combinations like 1d12h)`);
  }
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`"${text}" is too long a duration (a clock moves at most ${MAX_CLOCK_MOVE_YEARS} years per request)`);
  return Number(total);
}

// ---------------------------------------------------------------------------
// Clock moves (docs/decisions.md#clock-moves)

/** One request moves a clock by at most this many calendar years. */
export const MAX_CLOCK_MOVE_YEARS = 10;

/** The latest instant one move may reach from `nowMs`: the same moment 10 calendar years on (and within year 9999). */
export function clockMoveLimit(nowMs: number): number {
  const d = new Date(nowMs);
  const target = new Date(nowMs);
  target.setUTCFullYear(d.getUTCFullYear() + MAX_CLOCK_MOVE_YEARS);
  // 29 February + 10 years is 1 March: take the last day of February instead.
  if (target.getUTCMonth() !== d.getUTCMonth()) target.setUTCDate(0);
  return Math.min(target.getTime(), MAX_INSTANT_MS);
}

/**
 * Where a clock move (`advance` a duration or `set` an instant) takes a clock that reads
 * `nowMs`, or the rule it breaks, with the field to name: never backwards, at most 10
 * years per request, within the supported years.
 */
export function clockMoveTarget(
  nowMs: number,
  move: { advance?: string; set?: string },
  fields: { advance: string; set: string } = { advance: 'advance', set: 'set' },
): { ok: true; ms: number } | { ok: false; field: string; message: string } {
  const limit = clockMoveLimit(nowMs);
  const tooFar = `one request moves a clock by at most ${MAX_CLOCK_MOVE_YEARS} years (to ${isoOf(limit)} from ${isoOf(nowMs)}); move it in steps`;
  if (move.advance !== undefined) {
    let ms: number;
    try {
      ms = parseDuration(move.advance);
    } catch (err) {
      return { ok: false, field: fields.advance, message: /too long/.test((err as Error).message) ? `${JSON.stringify(move.advance)}: ${tooFar}` : (err as Error).message };
    }
    if (nowMs + ms > limit) return { ok: false, field: fields.advance, message: `${JSON.stringify(move.advance)} is too far: ${tooFar}` };
    return { ok: true, ms: nowMs + ms };
  }
  const r = readInstant(move.set, { date: true });
  if (!r.ok) return { ok: false, field: fields.set, message: r.message };
  if (r.ms < nowMs) return { ok: false, field: fields.set, message: `must not be before the clock's time now (${isoOf(nowMs)}): a clock never moves backwards (${r.iso} was given)` };
  if (r.ms > limit) return { ok: false, field: fields.set, message: `${r.iso} is too far: ${tooFar}` };
  return { ok: true, ms: r.ms };
}

/**
 * The one check of a clock move, for every clock (a group's, the platform's): the target of
 * `clockMoveTarget`, or a 400 naming the field and the rule it breaks.
 */
export function checkedClockMove(nowMs: number, move: { advance?: string; set?: string }, fields?: { advance: string; set: string }): number {
  const m = clockMoveTarget(nowMs, move, fields);
  if (!m.ok) throw validationError([{ path: m.field, message: m.message }]);
  return m.ms;
}

/** A move of the platform clock (`payctl clock advance DURATION`, `payctl clock set TIME`), its fields named as the command's arguments. */
export const advancePlatformClockInput = z.object({ duration: z.string() });
export const setPlatformClockInput = z.object({ time: z.string() });
/** How a platform clock move's problems are named: by the command's arguments. */
export const PLATFORM_CLOCK_FIELDS = { advance: 'duration', set: 'time' } as const;
