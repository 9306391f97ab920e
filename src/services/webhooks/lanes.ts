// A process's webhook attempts, queued per endpoint: each endpoint has a lane with at
// most ENDPOINT_CONCURRENCY attempts in flight, so an endpoint that hangs holds only its
// own slots and every other endpoint's attempts go on without waiting for it.
//
// How much a lane may take (what a pass claims for it) depends on how its receiver
// answers: a lane is *slow* until it has answered within SLOW_MS, and again while an
// attempt of it has been out longer than that or its last took longer (a hang, a
// trickle, a timeout). A slow lane is given only its free slots, so nothing claimed for
// it waits behind a hanging attempt while its lease runs; a fast one also a queue of up
// to QUEUE_MAX claimed deliveries (a busy receiver gets batches, not one claim per slot).
import { performance } from 'node:perf_hooks';
import { ENDPOINT_CONCURRENCY } from '../../domain/webhooks.js';

/** An attempt that took longer than this makes its endpoint slow. */
export const SLOW_MS = 1_000;
/** Claimed deliveries a fast lane holds at most (in flight and queued); it takes more once under half of it. */
export const QUEUE_MAX = 256;

export class Lane {
  inFlight = 0;
  /** Claimed deliveries waiting for a slot, oldest first. */
  private readonly queue: Array<() => void> = [];
  /** Slots promised to a claim in progress. */
  reserved = 0;
  /** Start times (performance.now) of the attempts in flight. */
  private readonly starts = new Set<number>();
  /** How long the last attempt took (none yet: counts as slow for room, not as proof). */
  private lastMs: number | undefined;
  /** A pass left due deliveries of this lane unclaimed (it was full): tell the owner when it has room. */
  backlog = false;
  /** A pass skipped this lane as full: wake the waiting passes when it has room. */
  skipped = false;

  constructor(
    readonly endpointId: string,
    readonly groupId: string,
    private readonly lanes: Lanes,
  ) {}

  /** Not known to answer fast: no answer yet, or a slow one. */
  slow(now = performance.now()): boolean {
    return this.lastMs === undefined || this.provenSlow(now);
  }

  /** Seen slow: its last attempt took longer than SLOW_MS, or one in flight has. */
  provenSlow(now = performance.now()): boolean {
    if (this.lastMs !== undefined && this.lastMs > SLOW_MS) return true;
    for (const s of this.starts) if (now - s > SLOW_MS) return true;
    return false;
  }

  /** How many more deliveries a pass may claim for this lane now. */
  room(now = performance.now()): number {
    const used = this.inFlight + this.queue.length + this.reserved;
    if (this.slow(now)) return Math.max(0, ENDPOINT_CONCURRENCY - used);
    return used > QUEUE_MAX / 2 ? 0 : QUEUE_MAX - used;
  }

  get idle(): boolean {
    return this.inFlight === 0 && this.queue.length === 0 && this.reserved === 0;
  }

  /**
   * Run `send` in a slot of this lane (queued until one is free); what it returns
   * resolves when the receiver's part is over, which frees the slot. `send` may decline
   * when its turn comes (returns undefined: nothing sent, no slot used).
   */
  run<T>(send: () => Promise<T> | undefined): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      const start = () => {
        const sending = send();
        if (sending === undefined) {
          resolve(undefined);
          this.queue.shift()?.();
          return;
        }
        this.inFlight++;
        const t0 = performance.now();
        this.starts.add(t0);
        // The slot is free before the caller goes on.
        const free = () => {
          this.inFlight--;
          this.starts.delete(t0);
          this.lastMs = performance.now() - t0;
          this.queue.shift()?.();
          this.lanes.freed(this);
        };
        sending.then(
          (v) => (free(), resolve(v)),
          (err: unknown) => (free(), reject(err)),
        );
      };
      if (this.inFlight < ENDPOINT_CONCURRENCY) start();
      else this.queue.push(start);
    });
  }
}

/** The lanes of one process's sender (one per endpoint it has sent to). */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  /** The same lanes by group (a group's pass looks at its own endpoints only). */
  private readonly byGroup = new Map<string, Set<Lane>>();
  private waiters: Array<() => void> = [];
  /** Called when a lane with a backlog has room again (the delivery loop nudges its group). */
  onRoom: ((groupId: string) => void) | undefined;

  lane(endpointId: string, groupId: string): Lane {
    let l = this.lanes.get(endpointId);
    if (!l) {
      if (this.lanes.size >= 10_000) for (const x of this.lanes.values()) if (x.idle) this.forget(x);
      this.lanes.set(endpointId, (l = new Lane(endpointId, groupId, this)));
      let group = this.byGroup.get(groupId);
      if (!group) this.byGroup.set(groupId, (group = new Set()));
      group.add(l);
    }
    return l;
  }

  get(endpointId: string): Lane | undefined {
    return this.lanes.get(endpointId);
  }

  private forget(l: Lane): void {
    this.lanes.delete(l.endpointId);
    const group = this.byGroup.get(l.groupId);
    group?.delete(l);
    if (group?.size === 0) this.byGroup.delete(l.groupId);
  }

  /** Lanes (of `groupId`, default every group) that can take nothing now: a pass skips their endpoints. */
  full(groupId?: string, now = performance.now()): Lane[] {
    const out: Lane[] = [];
    const lanes = groupId === undefined ? this.lanes.values() : (this.byGroup.get(groupId) ?? []);
    for (const l of lanes) {
      if (l.idle || l.room(now) > 0) continue;
      l.skipped = true;
      out.push(l);
    }
    return out;
  }

  /** Resolves the next time a lane that a pass skipped as full has room again. */
  nextRoom(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  freed(l: Lane): void {
    if (l.room() === 0) return;
    if (l.skipped) {
      l.skipped = false;
      for (const w of this.waiters.splice(0)) w();
    }
    if (l.backlog) {
      l.backlog = false;
      this.onRoom?.(l.groupId);
    }
  }
}
