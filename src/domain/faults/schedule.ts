// What every fault rule shares, API or webhook: how often it fires (rate, first, every;
// seeded and stateless: call n of seed s fires or not, whatever ran before), for how long
// (count, from/until on the group's clock), and the checks of those fields.
import { z } from 'zod';
import { parseInstant } from '../time.js';

const MAX_N = 1_000_000;
export const MAX_LATENCY_MS = 60_000;
export const MAX_SEED = 0xffffffff;

const instant = z.string().max(40, { error: 'must be at most 40 characters' }).refine(
  (v) => {
    try {
      parseInstant(v);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'must be an RFC 3339 time with a zone, like 2027-01-01T00:00:00Z' },
);
const count = (what: string) =>
  z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(MAX_N, { error: `must be at most ${MAX_N}` }).describe(what);

// The API reads a number with a fraction as its text (src/lib/exact-json.ts, quoteNonIntegerNumbers: every
// other number is an integer), so a rate comes as 0.25 or "0.25"; it is kept as a number.
const RATE_TEXT = /^(0|1)(\.\d{1,9})?$/;
const rate = z
  .union([z.number(), z.string().regex(RATE_TEXT, { error: 'must be a number from 0 to 1, like 0.25' })], { error: 'must be a number from 0 to 1, like 0.25' })
  .transform(Number)
  .pipe(z.number().min(0, { error: 'must be from 0 to 1' }).max(1, { error: 'must be from 0 to 1' }));

/** How often and for how long a rule fires: shared by API and webhook rules. */
export const scheduleFields = {
  rate: rate.optional().describe('Fire on this share of matching calls, drawn from the seed (0–1, like 0.25)'),
  first: count('Fire on the first N matching calls').optional(),
  every: count('Fire on every Nth matching call (the Nth, 2Nth …)').optional(),
  count: count('Stop after firing this many times').optional(),
  from: instant.optional().describe("Active from this time of the group's clock"),
  until: instant.optional().describe("Active until this time of the group's clock (exclusive)"),
  seed: z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(0, { error: 'must be at least 0' }).max(MAX_SEED, { error: `must be at most ${MAX_SEED}` }).optional()
    .describe('Seed of the rule\'s draws (rate, latency ranges); generated and returned when absent'),
};

export type Problem = { path: string; message: string };
export type Schedule = { rate?: number; first?: number; every?: number; from?: string; until?: string };

export function scheduleProblems(v: Schedule): Problem[] {
  const out: Problem[] = [];
  const given = (['rate', 'first', 'every'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1) out.push({ path: given[1]!, message: `give at most one of rate, first or every (${given.join(' and ')} given)` });
  if (v.from !== undefined && v.until !== undefined) {
    try {
      if (parseInstant(v.until).getTime() <= parseInstant(v.from).getTime()) out.push({ path: 'until', message: 'must be after from' });
    } catch {
      // the field's own rule names it
    }
  }
  return out;
}

export const need = (v: Record<string, unknown>, field: string, action: string, out: Problem[]) => {
  if (v[field] === undefined) out.push({ path: field, message: `is required with action ${action}` });
};
export const refuse = (v: Record<string, unknown>, fields: string[], action: string, out: Problem[]) => {
  for (const f of fields) if (v[f] !== undefined) out.push({ path: f, message: `is not a field of action ${action}` });
};

export const addProblems = <T>(problems: (v: T) => Problem[]) => (v: T, ctx: z.RefinementCtx) => {
  for (const p of problems(v)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
};

/** A 32-bit mix of (seed, call, draw) (splitmix-style): the same three give the same number, on any machine. */
function mix(seed: number, call: number, draw: number): number {
  let h = (seed ^ Math.imul(call, 0x9e3779b9) ^ Math.imul(draw + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** Draw `draw` of call `call` of `seed`: a number in [0, 1). */
export const uniform = (seed: number, call: number, draw = 0): number => mix(seed, call, draw) / 0x1_0000_0000;

/** Whether call number `call` (1-based, counting the rule's matching calls) fires, before count and window. */
export function fires(rule: Schedule & { seed: number }, call: number): boolean {
  if (rule.first !== undefined) return call <= rule.first;
  if (rule.every !== undefined) return call % rule.every === 0;
  if (rule.rate !== undefined) return uniform(rule.seed, call, 0) < rule.rate;
  return true;
}

/** Whether `now` (ms) is inside the rule's window of the group's clock. */
export function inWindow(rule: { from?: string; until?: string }, nowMs: number): boolean {
  if (rule.from !== undefined && nowMs < parseInstant(rule.from).getTime()) return false;
  if (rule.until !== undefined && nowMs >= parseInstant(rule.until).getTime()) return false;
  return true;
}

export const newSeed = (random: () => number = Math.random): number => Math.floor(random() * (MAX_SEED + 1)) >>> 0;
