// A group's clock mode (docs/clock.md "Clock modes"): `running` is the platform clock plus
// the group's offset (an interactive sandbox lives in real time); `frozen` stands exactly
// still until moved (what a test wants: moves are exact, nothing falls due by itself);
// `accelerated` runs `rate` times faster than real time from where it was set. The time a
// setting reads is computed here, without I/O: the services' clocks (src/services/clock)
// hand in the platform's time and real time.
import { z } from 'zod';
import { MAX_INSTANT_MS } from './time.js';

export const CLOCK_MODES = ['running', 'frozen', 'accelerated'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/**
 * The fastest an accelerated clock runs: a day per real second. A server's tick (every
 * second by default) then makes at most a day of one group's work due at once, as a
 * `clock advance 1d` would.
 */
export const MAX_CLOCK_RATE = 86_400;

/** A group's clock as stored with its row (offset_ms: running; at_ms/since_ms: frozen and accelerated). */
export interface GroupClockSetting {
  mode: ClockMode;
  /** running: the group's own offset from the platform clock. */
  offset_ms: number;
  /** accelerated: sandbox ms per real ms (1 otherwise). */
  rate: number;
  /** frozen: the instant it stands at; accelerated: its time at the real instant since_ms. */
  at_ms: number;
  /** accelerated: the real instant (ms) at which it read at_ms. */
  since_ms: number;
}

/** A running clock with this offset (a group that never chose a mode). */
export const runningClock = (offsetMs: number): GroupClockSetting => ({ mode: 'running', offset_ms: offsetMs, rate: 1, at_ms: 0, since_ms: 0 });

/** The time (ms) a group's clock reads, given the platform clock's time and real time now. */
export function clockTime(s: GroupClockSetting, platformNowMs: number, realNowMs: number): number {
  const ms = s.mode === 'frozen' ? s.at_ms : s.mode === 'accelerated' ? s.at_ms + s.rate * (realNowMs - s.since_ms) : platformNowMs + s.offset_ms;
  return Math.min(ms, MAX_INSTANT_MS);
}

/**
 * The setting that reads `atMs` now in `mode` (rate for accelerated): a move or a mode
 * change keeps the mode's own fields and sets what it needs so the clock reads `atMs`.
 */
export function clockAt(mode: ClockMode, atMs: number, rate: number, platformNowMs: number, realNowMs: number): GroupClockSetting {
  if (mode === 'running') return runningClock(atMs - platformNowMs);
  return { mode, offset_ms: 0, rate: mode === 'accelerated' ? rate : 1, at_ms: atMs, since_ms: realNowMs };
}

/** A mode as requests give it (a refinement, so that a bad value is named by the field rather than lost in a union's "invalid input"). */
export const clockModeSchema = z
  .string()
  .refine((v) => (CLOCK_MODES as readonly string[]).includes(v), { error: `must be one of ${CLOCK_MODES.join(', ')}` })
  .meta({ enum: [...CLOCK_MODES] })
  .describe('running: real time plus an offset; frozen: stands still until moved; accelerated: `rate` times real time');

export const clockRateSchema = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(2, { error: 'must be at least 2 (1 is a running clock)' })
  .max(MAX_CLOCK_RATE, { error: `must be at most ${MAX_CLOCK_RATE} (a day per second)` })
  .describe(`accelerated only: sandbox seconds per real second, 2 to ${MAX_CLOCK_RATE}`);

/** `rate` goes with accelerated and accelerated needs it (`mode` undefined: the mode the clock has, not known here). */
export function rateProblem(mode: string | undefined, rate: number | undefined): { path: string; message: string } | undefined {
  if (mode === 'accelerated' && rate === undefined) return { path: 'rate', message: 'is required with mode accelerated' };
  if (rate !== undefined && mode !== 'accelerated') return { path: 'rate', message: 'goes only with mode accelerated' };
  return undefined;
}

/** What an answer shows of a clock's mode: the mode, and the rate when accelerated. */
export const modeFields = (s: GroupClockSetting): { mode: ClockMode; rate?: number } => (s.mode === 'accelerated' ? { mode: s.mode, rate: s.rate } : { mode: s.mode });

/** The setting a group row's clock columns hold. */
export const clockOfRow = (r: { clock_offset_ms: number; clock_mode: ClockMode; clock_rate: number; clock_at_ms: number; clock_since_ms: number }): GroupClockSetting => ({
  mode: r.clock_mode,
  offset_ms: Number(r.clock_offset_ms),
  rate: Number(r.clock_rate),
  at_ms: Number(r.clock_at_ms),
  since_ms: Number(r.clock_since_ms),
});

/** The same on a sandbox's answers, beside its `clock`: clock_mode, and clock_rate when accelerated. */
export const sandboxClockAnswer = (s: GroupClockSetting): { clock_mode: ClockMode; clock_rate?: number } =>
  s.mode === 'accelerated' ? { clock_mode: s.mode, clock_rate: s.rate } : { clock_mode: s.mode };
