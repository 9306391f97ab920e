// One tenant's bad data harms only that tenant (docs/operations.md, "One group's failing
// work"): the scheduler runs the groups that share a clock offset in one pass, and when
// that pass throws for a reason that is not the store being away (a row the API would
// never have made, say), it runs them again one group at a time. A group whose own work
// throws is said once on stderr with its id and the cause and kept out of the shared
// pass; its work is tried again after a backoff that doubles up to a bound, while every
// other group's settlement, billing and deliveries go on. The first success lets it back.
// Kept per store in this process (another server finds the same group for itself).
import type { Store } from '../../store/interfaces/db.js';
import { asStoreUnavailable } from '../../store/errors.js';

export const FIRST_GROUP_BACKOFF_MS = 1_000;
export const MAX_GROUP_BACKOFF_MS = 5 * 60_000;

interface Failing {
  /** The clock offset the group had when its work failed (the pass it is kept out of). */
  offsetMs: number;
  failures: number;
  retryAt: number;
  cause: string;
}

export interface FailureDomainOptions {
  now?: () => number;
  log?: (line: string) => void;
}

export class FailureDomains {
  private readonly failing = new Map<string, Failing>();
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  constructor(opts: FailureDomainOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** Whether a group of this offset failed: its pass then runs its groups one by one. */
  hasFailing(offsetMs: number): boolean {
    for (const f of this.failing.values()) if (f.offsetMs === offsetMs) return true;
    return false;
  }

  /** Whether the group's work waits out its backoff now. */
  waiting(groupId: string): boolean {
    const f = this.failing.get(groupId);
    return f !== undefined && this.now() < f.retryAt;
  }

  /** The group's work threw: said once (and again only when the cause changes), then backed off. */
  failed(groupId: string, offsetMs: number, err: unknown): void {
    const cause = String(err instanceof Error ? `${err.name}: ${err.message}` : err).slice(0, 500);
    const f = this.failing.get(groupId) ?? { offsetMs, failures: 0, retryAt: 0, cause: '' };
    f.failures++;
    f.offsetMs = offsetMs;
    const backoff = Math.min(MAX_GROUP_BACKOFF_MS, FIRST_GROUP_BACKOFF_MS * 2 ** Math.min(f.failures - 1, 30));
    f.retryAt = this.now() + backoff;
    if (f.cause !== cause) {
      this.log(`due work of group ${groupId} failed: ${cause}; only this group's work waits (tried again with backoff up to ${MAX_GROUP_BACKOFF_MS / 1000}s), other groups go on`);
      f.cause = cause;
    }
    this.failing.set(groupId, f);
  }

  /** The group's work ran: it is back in the shared pass. */
  succeeded(groupId: string): void {
    const f = this.failing.get(groupId);
    if (!f) return;
    this.failing.delete(groupId);
    this.log(`due work of group ${groupId} ran again after ${f.failures} failure${f.failures === 1 ? '' : 's'}`);
  }

  /** Forget groups of this offset that no longer have it (dropped, or their clock moved). */
  prune(offsetMs: number, groupIds: ReadonlySet<string>): void {
    for (const [id, f] of this.failing) if (f.offsetMs === offsetMs && !groupIds.has(id)) this.failing.delete(id);
  }

  /** Groups whose work is failing now (for tests and diagnostics). */
  get size(): number {
    return this.failing.size;
  }
}

/** Whether an error is the store being away: that pauses all background work (store-watch.ts), never one group. */
export const isOutage = (err: unknown): boolean => asStoreUnavailable(err) !== undefined;

const domains = new WeakMap<Store, FailureDomains>();

/** The failure domains of a store's groups in this process. */
export function failureDomains(db: Store): FailureDomains {
  let d = domains.get(db);
  if (!d) domains.set(db, (d = new FailureDomains()));
  return d;
}
