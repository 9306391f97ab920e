// The one parser of instants and dates (src/domain/time.ts), property-based where it
// fits: every instant in the supported years round-trips from any offset into the
// fixed-width UTC form, impossible dates and hours are refused, years outside 1970–9999
// are refused (also when only the offset takes them there), text order is time order,
// and clock moves hold their bounds (docs/decisions.md#time, #clock-moves).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  clockMoveLimit, clockMoveTarget, END_OF_TIME, instantText, MAX_INSTANT_MS, MIN_INSTANT_MS, parseDuration, readInstant,
} from '../../src/domain/time.js';
import { addCycles } from '../../src/domain/recurring/calendar.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAY = 86_400_000;

/** The RFC 3339 text of `ms` as seen from `offsetMin` minutes east of UTC. */
function textAt(ms: number, offsetMin: number, fraction: string): string {
  const local = new Date(ms + offsetMin * 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const zone = offsetMin === 0 && fraction.length % 2 === 0 ? 'Z' : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${zone}`;
}

const inRange = fc.integer({ min: MIN_INSTANT_MS + 2 * DAY, max: MAX_INSTANT_MS - 2 * DAY }).map((ms) => ms - (ms % 1000));
const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
const fraction = fc.constantFrom('', '.0', '.000', '.000000', '.000000000');

describe('readInstant', () => {
  it('any instant in 1970–9999, written from any offset, reads back exactly in the 24-character UTC form', () => {
    fc.assert(fc.property(inRange, offset, fraction, (ms, off, frac) => {
      const text = textAt(ms, off, frac);
      const r = readInstant(text);
      assert.ok(r.ok, `${text}: ${r.ok ? '' : r.message}`);
      assert.equal(r.ms, ms, text);
      assert.equal(r.iso.length, 24);
      assert.equal(r.iso, new Date(ms).toISOString());
    }), { numRuns: 500 });
  });

  it('text order of the stored form is time order', () => {
    fc.assert(fc.property(inRange, inRange, offset, offset, (a, b, oa, ob) => {
      const x = readInstant(textAt(a, oa, ''));
      const y = readInstant(textAt(b, ob, ''));
      assert.ok(x.ok && y.ok);
      assert.equal(x.iso < y.iso, a < b);
    }), { numRuns: 300 });
  });

  it('impossible days are refused, never rolled over (every month, leap years included)', () => {
    fc.assert(fc.property(fc.integer({ min: 1970, max: 9999 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
      const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
      assert.ok(readInstant(`${pad(y, 4)}-${pad(m)}-${pad(days)}`, { date: true }).ok);
      const over = readInstant(`${pad(y, 4)}-${pad(m)}-${pad(days + 1)}`, { date: true });
      assert.equal(over.ok, false);
      assert.equal(readInstant(`${pad(y, 4)}-${pad(m)}-${pad(days + 1)}T00:00:00Z`).ok, false);
    }), { numRuns: 300 });
  });

  const refused: Array<[string, RegExp]> = [
    ['2027-02-31', /2027-02 has 28 days/],
    ['2027-02-30', /not a real date/],
    ['2027-02-29', /not a real date/],
    ['2100-02-29', /not a real date/],
    ['2027-13-01', /no month 13/],
    ['2027-00-10', /no month 0/],
    ['2027-01-00', /not a real date/],
    ['2027-01-01T24:00:00Z', /no hour 24/],
    ['2027-01-01T23:60:00Z', /no minute 60/],
    ['2027-01-01T23:59:60Z', /no second 60/],
    ['2027-01-01T00:00:00+24:00', /impossible offset/],
    ['2027-01-01T00:00:00+05:60', /impossible offset/],
    ['9999-12-31T23:59:59-23:59', /in UTC, outside the supported years 1970 to 9999/],
    ['1970-01-01T00:00:00+00:01', /outside the supported years/],
    ['1969-12-31', /outside the supported years/],
    ['10000-01-01T00:00:00Z', /is not/],
    ['+010000-01-01T00:00:00Z', /is not/],
    ['0000-01-01', /outside the supported years/],
    ['2027-1-1', /is not/],
    ['2027-01-01T10:00Z', /is not/],
    ['2027-01-01T10:00:00', /is not/],
    ['27-01-01T00:00:00Z', /is not/],
    ['2027-01-01T00:00:00.1234567890Z', /is not/],
    ['', /is not/],
  ];
  for (const [text, why] of refused) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      const r = readInstant(text, { date: true });
      assert.equal(r.ok, false, text);
      assert.match(r.ok ? '' : r.message, why);
    });
  }

  const accepted: Array<[string, string]> = [
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
    ['1970-01-01T01:00:00+01:00', '1970-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59+23:59', '9999-12-31T00:00:59.000Z'],
    ['2027-06-30t10:00:00z', '2027-06-30T10:00:00.000Z'],
    ['2027-06-30 10:00:00 02:00', '2027-06-30T08:00:00.000Z'], // an unencoded + in a query string
    ['2027-06-30T10:00:00.123456789-05:30', '2027-06-30T15:30:00.123Z'],
  ];
  for (const [text, iso] of accepted) {
    it(`reads ${JSON.stringify(text)} as ${iso}`, () => {
      const r = readInstant(text, { date: true });
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.iso, iso);
    });
  }

  it('a date alone is refused where a time is required, and a time where a date is', () => {
    assert.equal(readInstant('2027-01-01').ok, false);
    assert.equal(readInstant('2027-01-01T00:00:00Z', { dateOnly: true }).ok, false);
    assert.equal(readInstant(20270101 as unknown).ok, false);
  });
});

describe('computed instants past year 9999', () => {
  it('are END_OF_TIME: 24 characters, after every instant a clock reaches, never `+010000-…`', () => {
    assert.equal(instantText(MAX_INSTANT_MS + 1), END_OF_TIME);
    assert.equal(END_OF_TIME.length, 24);
    assert.ok(END_OF_TIME > new Date(MAX_INSTANT_MS).toISOString());
    // A monthly plan started on the last supported month: its next bill date is never due.
    assert.equal(addCycles('9999-12-15T00:00:00.000Z', 'monthly', 1, 1), END_OF_TIME);
    assert.equal(addCycles('9999-12-15T00:00:00.000Z', 'daily', 1, 1_000_000), END_OF_TIME);
  });
});

describe('clock moves', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');

  it('durations past 2^53 ms are refused, not rounded', () => {
    assert.throws(() => parseDuration('99999999999999999999d'), /too long/);
    assert.equal(parseDuration('100000000d'), 100_000_000 * DAY);
    assert.throws(() => parseDuration('1x'), /not a duration/);
  });

  it('at most 10 years per move: the limit is the same moment 10 calendar years on', () => {
    assert.equal(new Date(clockMoveLimit(now)).toISOString(), '2036-11-26T12:00:00.000Z');
    assert.equal(new Date(clockMoveLimit(Date.parse('2028-02-29T00:00:00Z'))).toISOString(), '2038-02-28T00:00:00.000Z');
    assert.equal(clockMoveLimit(Date.parse('9995-01-01T00:00:00Z')), MAX_INSTANT_MS);
    const days = (clockMoveLimit(now) - now) / DAY; // 3653: 2028, 2032 and 2036 are leap years
    assert.deepEqual(clockMoveTarget(now, { advance: `${days}d` }), { ok: true, ms: clockMoveLimit(now) });
    for (const advance of [`${days + 1}d`, '100000000d', '99999999999999999999d', '522w']) {
      const r = clockMoveTarget(now, { advance });
      assert.equal(r.ok, false, advance);
      assert.equal(r.ok ? '' : r.field, 'advance');
      assert.match(r.ok ? '' : r.message, /at most 10 years/);
    }
  });

  it('set: never backwards, at most 10 years on, a real date in 1970–9999', () => {
    assert.deepEqual(clockMoveTarget(now, { set: '2030-01-01' }), { ok: true, ms: Date.parse('2030-01-01T00:00:00Z') });
    const cases: Array<[string, RegExp]> = [
      ['2025-01-01', /never moves backwards/],
      ['2037-01-01T00:00:00Z', /at most 10 years/],
      ['2027-02-30', /not a real date/],
      ['2027-01-01T24:00:00Z', /no hour 24/],
      ['10000-01-01T00:00:00Z', /is not/],
    ];
    for (const [set, why] of cases) {
      const r = clockMoveTarget(now, { set });
      assert.equal(r.ok, false, set);
      assert.equal(r.ok ? '' : r.field, 'set');
      assert.match(r.ok ? '' : r.message, why, set);
    }
  });

  it('any move the rules accept lands within the supported years', () => {
    fc.assert(fc.property(fc.integer({ min: MIN_INSTANT_MS, max: MAX_INSTANT_MS }), fc.integer({ min: 0, max: 5000 }), (from, days) => {
      const r = clockMoveTarget(from, { advance: `${days}d` });
      if (r.ok) assert.ok(r.ms >= from && r.ms <= MAX_INSTANT_MS && r.ms <= clockMoveLimit(from));
      else assert.ok(from + days * DAY > clockMoveLimit(from));
    }), { numRuns: 300 });
  });
});
