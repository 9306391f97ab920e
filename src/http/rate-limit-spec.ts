// `<count>/<duration>` as given to --pay-rate-limit: "10/60s", "1000/1m".
import { parseDuration } from '../services/clock/clock.js';

export interface RateLimitSpec {
  points: number;
  durationMs: number;
}

export function parseRateLimit(text: string): RateLimitSpec {
  const m = /^(\d+)\/(.+)$/.exec(text.trim());
  if (!m || Number(m[1]) < 1) throw new Error(`--pay-rate-limit "${text}" must be <count>/<duration>, e.g. 10/60s or 1000/1m`);
  const durationMs = parseDuration(m[2]!);
  if (durationMs < 1000) throw new Error(`--pay-rate-limit "${text}": the window must be at least 1s`);
  return { points: Number(m[1]), durationMs };
}
