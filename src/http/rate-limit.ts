// Per-route, per-client-address rate limits: a sliding window log, in memory when one
// process serves the database (SQLite), in the database when several servers may share
// it (PostgreSQL: the store's shared state counts each hit under a lock, so the limit
// holds across servers). An address may make `points` requests in any trailing `durationMs`; the
// timestamps of its counted requests are kept (at most `points` of them), so there is no
// burst at a window boundary as with a fixed window. Every request that passes the limit
// counts, whatever its answer, so guessing session or card tokens costs attempts too.
// Limits use real time, not the platform clock: they protect the server, and moving the
// test clock must not unlock them. (Written here rather than with rate-limiter-flexible,
// whose in-memory limiter is a fixed window.)
import { rateLimited } from '../errors.js';
import type { RateLimitSpec } from './rate-limit-spec.js';
import type { SharedServerState } from '../store/interfaces/shared.js';

/** Which limit a route uses: routes sharing a bucket share one count per address. */
export interface RateLimitRule {
  bucket: string;
  /** Key in the server's `settings` holding a RateLimitSpec (e.g. from --pay-rate-limit). */
  settingsKey: string;
  fallback: RateLimitSpec;
}

/** Both pay paths: 10 attempts per minute per address unless --pay-rate-limit says otherwise. */
export const PAY_RATE_LIMIT: RateLimitRule = {
  bucket: 'pay',
  settingsKey: 'payRateLimit',
  fallback: { points: 10, durationMs: 60_000 },
};

const EXPOSED = 'Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/** Shared counts between sweeps of a bucket's expired hits. */
const SHARED_SWEEP_EVERY = 1024;

export class RateLimits {
  private readonly buckets = new Map<string, SlidingWindow>();
  private sharedCalls = 0;

  constructor(
    private readonly settings: Record<string, unknown>,
    private readonly now: () => number = Date.now,
    /** The database's shared state: counts go there instead of this process's memory. */
    private readonly shared?: SharedServerState,
  ) {}

  /**
   * Count one request from `address`. Returns the RateLimit headers to send; throws a
   * 429 (with Retry-After and the same headers) when the address is over its limit.
   */
  async consume(rule: RateLimitRule, address: string): Promise<Record<string, string>> {
    const window = this.bucket(rule);
    const now = this.now();
    let result: { allowed: boolean; remaining: number; resetMs: number };
    if (this.shared) {
      const { points, durationMs } = window.spec;
      result = await this.shared.rateHit(rule.bucket, address, now, points, durationMs);
      if (++this.sharedCalls % SHARED_SWEEP_EVERY === 0) void this.shared.rateSweep(rule.bucket, now, durationMs).catch(() => undefined);
    } else {
      result = window.hit(address, now);
    }
    const h = headers(window.spec, result.remaining, result.resetMs);
    if (!result.allowed) throw rateLimited(Number(h['RateLimit-Reset']), h);
    return h;
  }

  private bucket(rule: RateLimitRule): SlidingWindow {
    let b = this.buckets.get(rule.bucket);
    if (!b) {
      b = new SlidingWindow(asSpec(this.settings[rule.settingsKey]) ?? rule.fallback);
      this.buckets.set(rule.bucket, b);
    }
    return b;
  }
}

/** At most `points` hits per address in any trailing `durationMs`. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();
  private calls = 0;

  constructor(readonly spec: RateLimitSpec) {}

  hit(address: string, now: number): { allowed: boolean; remaining: number; resetMs: number } {
    if (++this.calls % 1024 === 0) this.sweep(now);
    const since = now - this.spec.durationMs;
    let times = this.hits.get(address);
    if (!times) this.hits.set(address, (times = []));
    while (times.length > 0 && times[0]! <= since) times.shift();
    const allowed = times.length < this.spec.points;
    if (allowed) times.push(now);
    // The oldest counted hit leaves the window first; that frees the next place.
    const resetMs = times.length > 0 ? times[0]! + this.spec.durationMs - now : 0;
    return { allowed, remaining: this.spec.points - times.length, resetMs };
  }

  /** Forget addresses with no hit inside the window (memory stays bounded by active clients). */
  private sweep(now: number): void {
    const since = now - this.spec.durationMs;
    for (const [address, times] of this.hits) if (times.length === 0 || times.at(-1)! <= since) this.hits.delete(address);
  }
}

function asSpec(v: unknown): RateLimitSpec | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { points, durationMs } = v as Partial<RateLimitSpec>;
  return Number.isInteger(points) && points! > 0 && typeof durationMs === 'number' && durationMs > 0 ? { points: points!, durationMs } : undefined;
}

/** IETF RateLimit headers: the combined draft form and the separate RateLimit-* fields. */
function headers(spec: RateLimitSpec, remaining: number, resetMs: number): Record<string, string> {
  const reset = Math.max(1, Math.ceil(resetMs / 1000));
  const windowSec = Math.ceil(spec.durationMs / 1000);
  return {
    RateLimit: `limit=${spec.points}, remaining=${Math.max(0, remaining)}, reset=${reset}`,
    'RateLimit-Policy': `${spec.points};w=${windowSec}`,
    'RateLimit-Limit': String(spec.points),
    'RateLimit-Remaining': String(Math.max(0, remaining)),
    'RateLimit-Reset': String(reset),
    'Access-Control-Expose-Headers': EXPOSED,
  };
}
