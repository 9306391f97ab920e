// The platform clock: real time plus an offset stored in the database, so the CLI and
// a running server share one clock and tests move it instead of sleeping. Business
// code reads `clock.now()`; only this file reads the real time.
import type { Database, Executor } from '../store/db.js';
import { clockRepo } from '../store/repositories/clock.js';

export interface Clock {
  now(): Date;
  nowIso(): string;
  /** Re-read the offset (another process may have moved the clock). */
  refresh(): Promise<void>;
  setOffset(offsetMs: number): Promise<void>;
  offsetMs(): number;
}

export class DbClock implements Clock {
  private offset = 0;
  constructor(
    private readonly db: Database,
    private readonly realNow: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(this.realNow() + this.offset);
  }
  nowIso(): string {
    return this.now().toISOString();
  }
  offsetMs(): number {
    return this.offset;
  }
  async refresh(reader: Executor = this.db): Promise<void> {
    this.offset = await clockRepo.offset(reader);
  }
  async setOffset(offsetMs: number): Promise<void> {
    await this.db.write((tx) => clockRepo.setOffset(tx, offsetMs));
    this.offset = offsetMs;
  }
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "30d", "12h", "90m", "1d12h" → milliseconds. */
export function parseDuration(text: string): number {
  const re = /(\d+)(ms|s|m|h|d|w)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.trim().matchAll(re)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== text.trim().length) {
    throw new Error(`"${text}" is not a duration (write 30d, 12h, 90m, 45s or combinations like 1d12h)`);
  }
  return total;
}

/** RFC 3339 with an explicit zone, or a plain YYYY-MM-DD (midnight UTC). */
export function parseInstant(text: string): Date {
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text);
  const d = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (!ok || Number.isNaN(d.getTime())) throw new Error(`"${text}" is not an RFC 3339 time (write 2027-01-01T00:00:00Z)`);
  return d;
}
