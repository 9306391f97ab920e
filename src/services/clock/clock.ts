// The platform clock: real time plus an offset stored in the database, so the CLI and
// a running server share one clock and tests move it instead of sleeping. Each group
// has its own clock on top of it (GroupClock: the platform clock plus the group's
// offset), so one sandbox can move its time without moving anyone else's. Business
// code reads `clock.now()`; only this file reads the real time.
import type { Executor, Store } from '../../store/interfaces/db.js';
import { MAX_INSTANT_MS } from '../../domain/time.js';

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

/** A group's clock: the platform clock plus the group's own offset (re-read by refresh). */
export class GroupClock extends ShiftedClock {
  constructor(
    platform: Clock,
    private readonly db: Store,
    readonly groupId: string,
    groupOffsetMs: number,
  ) {
    super(platform, groupOffsetMs);
  }

  /** The group's own part of the offset (what moving only this group changes). */
  groupOffsetMs(): number {
    return this.shift;
  }
  override async refresh(reader: Executor = this.db): Promise<void> {
    const [, own] = await Promise.all([this.platform.refresh(), reader.repos.groupClocks.offset(reader, this.groupId)]);
    if (own !== undefined) this.shift = own;
  }
  override async setOffset(offsetMs: number): Promise<void> {
    const own = offsetMs - this.platform.offsetMs();
    await this.db.write((tx) => tx.repos.groupClocks.put(tx, this.groupId, own));
    this.shift = own;
  }
}

export { parseDuration, parseInstant } from '../../domain/time.js';
