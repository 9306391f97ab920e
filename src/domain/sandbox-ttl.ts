// A sandbox's time to live (docs/sandboxes.md "Time to live"): the server drops a sandbox
// that has had no request for that long, in real time (not the sandbox's clock: a test
// that moves the clock a year on does not expire its sandbox). A duration (`1h`, `30m`,
// `1d`) or whole seconds.
import { z } from 'zod';
import { parseDuration } from './time.js';

export const MIN_TTL_MS = 1_000;
export const MAX_TTL_MS = 30 * 86_400_000;
const RULE = 'must be a duration (30s, 10m, 1h, 1d) or whole seconds, from 1s to 30d';

/** Milliseconds of a ttl as the API takes it, or undefined when it breaks the rule. */
export function ttlMs(value: string | number): number | undefined {
  let ms: number;
  if (typeof value === 'number' || /^\d{1,10}$/.test(value)) {
    // Whole seconds (a number, or digits: a query parameter's text).
    if (!Number.isInteger(Number(value))) return undefined;
    ms = Number(value) * 1000;
  } else {
    try {
      ms = parseDuration(value);
    } catch {
      return undefined;
    }
  }
  return ms >= MIN_TTL_MS && ms <= MAX_TTL_MS ? ms : undefined;
}

export const ttlSchema = z
  .union([z.string().max(40), z.number()], { error: RULE })
  .refine((v) => ttlMs(v) !== undefined, { error: RULE })
  .describe(
    'Drop the sandbox once it has had no request for this long, in real time (not its clock): a duration (30s, 10m, 1h, 1d) or whole seconds, 1s to 30d. Default: kept until dropped',
  );
