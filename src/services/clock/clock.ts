// The platform clock: real time plus an offset stored in the database, so the CLI and
// a running server share one clock and tests move it instead of sleeping. Each group
// has its own clock on top of it (GroupClock: the platform clock plus the group's
// offset), so one sandbox can move its time without moving anyone else's. Business
// code reads `clock.now()`; only this file reads the real time.
import type { Executor, Store } from '../../store/interfaces/db.js';
import { MAX_INSTANT_MS } from '../../domain/time.js';
import { clockAt, clockTime, runningClock, type ClockMode, type GroupClockSetting } from '../../domain/clock-modes.js';

/**
 * A clock stands still at the last instant of year 9999 (docs/decisions.md#time: moves stop
 * there, but real time runs on under the offset), so every time it answers keeps the
 * fixed-width form.
 */
const endOfTime = (ms: number): number => Math.min(ms, MAX_INSTANT_MS);

export interface Clock {
  now(): Date;
  nowIso(): string;
  /** Re-read the offset (another process may have moved the clock). */
  refresh(): Promise<void>;
  /** Make `now()` real time plus `offsetMs`. */
  setOffset(offsetMs: number): Promise<void>;
  /** How far `now()` is from real time. */
  offsetMs(): number;
}

export class DbClock implements Clock {
  private offset = 0;
  constructor(
    private readonly db: Store,
    private readonly realNow: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(endOfTime(this.realNow() + this.offset));
  }
  nowIso(): string {
    return this.now().toISOString();
  }
  offsetMs(): number {
    return this.offset;
  }
  async refresh(reader: Executor = this.db): Promise<void> {
    this.offset = await reader.repos.clock.offset(reader);
  }
  /** The offset as read just now with other things (the request pipeline's one read: http/pipeline/fresh.ts). */
  adopt(offsetMs: number): void {
    this.offset = offsetMs;
  }
  async setOffset(offsetMs: number): Promise<void> {
    await this.db.write((tx) => tx.repos.clock.setOffset(tx, offsetMs));
    this.offset = offsetMs;
  }
}

/** The platform clock shifted by a fixed offset: the time of every group whose own offset that is. */
export class ShiftedClock implements Clock {
  constructor(
    protected readonly platform: Clock,
    protected shift: number,
  ) {}

  /** The platform clock under this one. */
  get platformClock(): Clock {
    return this.platform;
  }

  now(): Date {
    return new Date(endOfTime(this.platform.now().getTime() + this.shift));
  }
  nowIso(): string {
    return this.now().toISOString();
  }
  offsetMs(): number {
    return this.platform.offsetMs() + this.shift;
  }
  refresh(): Promise<void> {
    return this.platform.refresh();
  }
  setOffset(_offsetMs: number): Promise<void> {
    return Promise.reject(new Error('a shifted clock is read-only; move a group clock or the platform clock'));
  }
}

/**
 * A group's clock, in its mode (docs/clock.md "Clock modes"): running, the platform clock
 * plus the group's own offset; frozen, standing at one instant until moved; accelerated,
 * `rate` times real time from where it was set. Re-read by refresh (another server may
 * have moved it).
 */
export class GroupClock extends ShiftedClock {
  private setting: GroupClockSetting;
  constructor(
    platform: Clock,
    private readonly db: Store,
    readonly groupId: string,
    setting: GroupClockSetting | number,
  ) {
    const s = typeof setting === 'number' ? runningClock(setting) : setting;
    super(platform, s.offset_ms);
    this.setting = s;
  }

  override now(): Date {
    if (this.setting.mode === 'running') return super.now();
    return new Date(clockTime(this.setting, 0, this.realNow()));
  }
  override offsetMs(): number {
    return this.setting.mode === 'running' ? super.offsetMs() : this.now().getTime() - this.realNow();
  }
  /** Real time (ms), read through the platform clock: this file's one reader of it. */
  realNow(): number {
    return this.platform.now().getTime() - this.platform.offsetMs();
  }
  get mode(): ClockMode {
    return this.setting.mode;
  }
  /** The clock as stored (its mode, offset, rate, anchor). */
  get clockSetting(): GroupClockSetting {
    return this.setting;
  }
  /** The group's own part of the offset (what moving only this group changes); 0 unless running. */
  groupOffsetMs(): number {
    return this.setting.mode === 'running' ? this.shift : 0;
  }
  override async refresh(reader: Executor = this.db): Promise<void> {
    const [, own] = await Promise.all([this.platform.refresh(), reader.repos.groupClocks.get(reader, this.groupId)]);
    if (own !== undefined) this.adoptSetting(own);
  }
  adoptSetting(s: GroupClockSetting): void {
    this.setting = s;
    this.shift = s.mode === 'running' ? s.offset_ms : 0;
  }
  /** Make the clock read real time plus `offsetMs` now, in its mode. */
  override async setOffset(offsetMs: number): Promise<void> {
    const real = this.realNow();
    const next = clockAt(this.setting.mode, real + offsetMs, this.setting.rate, this.platform.now().getTime(), real);
    await this.db.write((tx) => tx.repos.groupClocks.put(tx, this.groupId, next));
    this.adoptSetting(next);
  }
}

/**
 * The clock webhook deliveries of a group are scheduled on (docs/clock.md "What runs on
 * which clock"): a running group's own clock (real time, shifted: a move brings its
 * retries forward), else the platform clock — deliveries are the network, and the
 * network neither stands still nor runs fast. `realTime`: the group's clock is not the
 * one its deliveries keep.
 */
export function deliveryClock(clock: Clock): { clock: Clock; realTime: boolean } {
  if (clock instanceof GroupClock && clock.mode !== 'running') return { clock: clock.platformClock, realTime: true };
  return { clock, realTime: false };
}

/** Real time (ms) under the platform clock `base`. */
const realOf = (base: Clock): number => base.now().getTime() - base.offsetMs();

/** The time (ms) a group clock `s` reads now, over the platform clock `base`. */
export const groupTimeOn = (base: Clock, s: GroupClockSetting): number => clockTime(s, base.now().getTime(), realOf(base));

/** The setting of a clock in `mode` that reads `atMs` now, over the platform clock `base`. */
export const clockSettingOn = (base: Clock, mode: ClockMode, atMs: number, rate = 1): GroupClockSetting =>
  clockAt(mode, atMs, rate, base.now().getTime(), realOf(base));

export { parseDuration, parseInstant } from '../../domain/time.js';
