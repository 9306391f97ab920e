// Background work while the store is away (docs/decisions.md#store-outage): a failure
// that is an outage pauses the work (one line on stderr saying why, not one per attempt)
// and it is tried again after a backoff that doubles up to a bound; the first success
// says it is back. Every loop of a server (the tick, webhook deliveries) reports here, so
// they pause and resume together and metrics read one state.
import { asStoreUnavailable, FIRST_BACKOFF_MS, MAX_BACKOFF_MS, type OutageCause, type StoreUnavailable } from '../store/errors.js';

export interface StoreWatchOptions {
  now?: () => number;
  log?: (line: string) => void;
}

export class StoreWatch {
  /** When the current outage was first seen (real time), or undefined while the store answers. */
  awaySince: number | undefined;
  /** The current outage's cause. */
  cause: OutageCause | undefined;
  private backoffMs = 0;
  private retryAt = 0;
  /** Store errors seen so far, by cause (requests and background work). */
  readonly errors = new Map<OutageCause, number>();
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  constructor(opts: StoreWatchOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  get away(): boolean {
    return this.awaySince !== undefined;
  }

  /** Whether background work should wait (the store is away and its backoff has not passed). */
  paused(): boolean {
    return this.away && this.now() < this.retryAt;
  }

  /** Count an error; an outage pauses background work. Returns the outage, or undefined for any other error. */
  failed(err: unknown): StoreUnavailable | undefined {
    const outage = asStoreUnavailable(err);
    if (!outage) return undefined;
    this.count(outage);
    const now = this.now();
    if (!this.away) {
      this.awaySince = now;
      this.log(`store unavailable: ${outage.message}; background work paused, trying again with backoff up to ${MAX_BACKOFF_MS / 1000}s`);
    }
    this.cause = outage.reason;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs === 0 ? FIRST_BACKOFF_MS : this.backoffMs * 2);
    this.retryAt = now + this.backoffMs;
    return outage;
  }

  /** A request answered 503 for an outage: counted, and it does not change the background's backoff. */
  count(outage: StoreUnavailable): void {
    this.errors.set(outage.reason, (this.errors.get(outage.reason) ?? 0) + 1);
  }

  /** Background work reached the store: it is back (said once). */
  succeeded(): void {
    if (!this.away) return;
    this.log(`store available again after ${((this.now() - this.awaySince!) / 1000).toFixed(1)}s; background work resumed`);
    this.awaySince = undefined;
    this.cause = undefined;
    this.backoffMs = 0;
    this.retryAt = 0;
  }
}

const watches = new WeakMap<object, StoreWatch>();

/** The watch of a store (one per open store in this process). */
export function storeWatch(store: object): StoreWatch {
  let w = watches.get(store);
  if (!w) watches.set(store, (w = new StoreWatch()));
  return w;
}
