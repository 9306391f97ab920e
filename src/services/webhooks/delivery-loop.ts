// The delivery loop of a long-running process (`payctl serve`): nudged after each commit
// that appended events of a group with endpoints, and when a full lane has room again,
// it runs passes of this process's sender (sender.ts) that only claim and start attempts,
// so no group's receivers hold another group's pass. One loop per database, registered
// here: `deliverDue` hands an all-groups sweep to it, commits nudge it, and a CLI command
// (no loop) nudges nothing.
import type { Store } from '../../store/interfaces/db.js';
import { deliveryClock, type Clock } from '../clock/clock.js';
import { forGroup, type Platform } from '../platform.js';
import { configCache } from '../../store/config-cache.js';
import { senderFor, type Sender } from './sender.js';
import { storeWatch } from '../store-watch.js';

/** How long a nudged loop waits for more commits before its pass: fewer, larger passes under load. */
const COALESCE_MS = 20;

/**
 * The delivery loop of a long-running process (`payctl serve`): nudged after a commit
 * that appended events, it runs a pass for each group nudged that has an enabled
 * endpoint (known from a cache that follows config_version, so a sale of a group
 * without endpoints costs no read), all groups at once; a pass only claims and starts
 * attempts (the lanes send them), so no group's receivers hold another group's pass.
 */
export class DeliveryLoop {
  private nudged = new Map<string, Clock | undefined>();
  private scheduled = false;
  private running: Promise<void> | undefined;
  private stopped = false;
  private active: { version: number | undefined; groups: Set<string> } | undefined;
  private readonly sender: Sender;

  constructor(private readonly p: Platform) {
    this.sender = senderFor(p.db);
    // A lane that was full has room again: its group's waiting deliveries go now.
    this.sender.lanes.onRoom = (groupId) => this.nudge(groupId);
  }

  nudge(groupId: string, clock?: Clock): void {
    if (this.stopped) return;
    if (clock || !this.nudged.has(groupId)) this.nudged.set(groupId, clock);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.run(), COALESCE_MS);
  }

  /** Resolves once no pass is running or about to and every attempt started is recorded (the nudges so far are done). */
  async settled(): Promise<void> {
    while (this.running || this.scheduled || this.sender.pending.size > 0) {
      if (this.running) await this.running;
      else if (this.sender.pending.size > 0) await Promise.allSettled([...this.sender.pending]);
      else await new Promise<void>((r) => setTimeout(r, COALESCE_MS));
    }
  }

  /** Resolves when no pass is running and the attempts started are recorded (after stop(): none will start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sender.lanes.onRoom) this.sender.lanes.onRoom = undefined;
    while (this.running) await this.running;
    while (this.sender.pending.size > 0) await Promise.allSettled([...this.sender.pending]);
  }

  private run(): void {
    this.scheduled = false;
    // A running pass schedules the next one when it ends (the nudges wait in the map).
    if (this.running || this.stopped) return;
    const groups = this.nudged;
    this.nudged = new Map();
    this.running = this.pass(groups).finally(() => {
      this.running = undefined;
      if (this.nudged.size > 0 && !this.stopped && !this.scheduled) {
        this.scheduled = true;
        setTimeout(() => this.run(), COALESCE_MS);
      }
    });
  }

  private async pass(groups: Map<string, Clock | undefined>): Promise<void> {
    try {
      const active = await this.activeGroups();
      await Promise.all(
        [...groups].map(async ([groupId, clock]) => {
          if (!active.has(groupId)) return;
          const d = deliveryClock(clock ?? (await forGroup(this.p, groupId)).clock);
          const c = d.clock;
          const t = { db: this.p.db, clock: c, env: this.p.env, realTime: d.realTime };
          for (;;) {
            if (this.stopped) return;
            const r = await this.sender.dispatch(t, { groupId }, c.now().toISOString(), { backlog: true });
            for (const a of r.started) a.catch((err: unknown) => process.stderr.write(`webhook delivery failed: ${String(err)}\n`));
            if (!r.more || r.started.length === 0) return;
          }
        }),
      );
    } catch (err) {
      // A store outage is said once (store-watch.ts); the tick delivers what is due once it is back.
      if (!storeWatch(this.p.db).failed(err)) process.stderr.write(`webhook delivery failed: ${String(err)}\n`);
    }
  }

  private async activeGroups(): Promise<Set<string>> {
    const version = configCache(this.p.db).currentVersion;
    if (!this.active || version === undefined || this.active.version !== version) {
      this.active = { version, groups: new Set(await this.p.db.repos.webhookEndpoints.activeGroups(this.p.db)) };
    }
    return this.active.groups;
  }
}

const loops = new WeakMap<object, DeliveryLoop>();

/** The delivery loop of this process on `db`, if it delivers (payctl serve). */
export const deliveryLoopOf = (db: Store): DeliveryLoop | undefined => loops.get(db);

/** Deliver from this process: nudges after commits start passes (payctl serve). */
export function startDeliveryLoop(p: Platform): DeliveryLoop {
  const loop = new DeliveryLoop(p);
  loops.set(p.db, loop);
  return loop;
}

export function stopDeliveryLoop(p: Platform): Promise<void> {
  const loop = loops.get(p.db);
  loops.delete(p.db);
  return loop?.stop() ?? Promise.resolve();
}

/** Resolves once this process's delivery loop has finished what it was nudged for so far. */
export async function deliveriesSettled(p: Platform): Promise<void> {
  await p.db.afterCommitSettled();
  await loops.get(p.db)?.settled();
}

/** After a commit that appended events of `groupId`: start a pass if this process delivers (a no-op in CLI commands). */
export function nudgeDelivery(store: Store, groupId: string, clock?: Clock): void {
  loops.get(store)?.nudge(groupId, clock);
}
