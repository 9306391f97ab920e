// Per-route, per-client-address rate limits (rate-limiter-flexible, in memory, one set
// per server). A window of `durationMs` opens at an address's first counted request and
// allows `points` requests; every request counts, answered or refused, so guessing
// session tokens or card tokens costs attempts too. Limits use real time, not the
// platform clock: they protect the server, and moving the test clock must not unlock them.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../errors.js';
import type { RateLimitSpec } from './rate-limit-spec.js';

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

export class RateLimits {
  private readonly buckets = new Map<string, { limiter: RateLimiterMemory; spec: RateLimitSpec }>();

  constructor(private readonly settings: Record<string, unknown>) {}

  /**
   * Count one request from `address`. Returns the RateLimit headers to send; throws a
   * 429 (with Retry-After and the same headers) when the address is over its limit.
   */
  async consume(rule: RateLimitRule, address: string): Promise<Record<string, string>> {
    const { limiter, spec } = this.bucket(rule);
    try {
      return headers(spec, await limiter.consume(address));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const h = headers(spec, err);
      throw rateLimited(Number(h['RateLimit-Reset']), h);
    }
  }

  private bucket(rule: RateLimitRule) {
    let b = this.buckets.get(rule.bucket);
    if (!b) {
      const spec = asSpec(this.settings[rule.settingsKey]) ?? rule.fallback;
      b = { spec, limiter: new RateLimiterMemory({ keyPrefix: rule.bucket, points: spec.points, duration: spec.durationMs / 1000 }) };
      this.buckets.set(rule.bucket, b);
    }
    return b;
  }
}

function asSpec(v: unknown): RateLimitSpec | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { points, durationMs } = v as Partial<RateLimitSpec>;
  return Number.isInteger(points) && points! > 0 && typeof durationMs === 'number' && durationMs > 0 ? { points: points!, durationMs } : undefined;
}

/** IETF RateLimit headers: the combined draft form and the separate RateLimit-* fields. */
function headers(spec: RateLimitSpec, res: RateLimiterRes): Record<string, string> {
  const remaining = Math.max(0, res.remainingPoints);
  const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  const windowSec = Math.ceil(spec.durationMs / 1000);
  return {
    RateLimit: `limit=${spec.points}, remaining=${remaining}, reset=${reset}`,
    'RateLimit-Policy': `${spec.points};w=${windowSec}`,
    'RateLimit-Limit': String(spec.points),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(reset),
    'Access-Control-Expose-Headers': EXPOSED,
  };
}
