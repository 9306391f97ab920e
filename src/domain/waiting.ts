// Waiting on a list instead of polling it (docs/testing.md, "Wait, don't poll"): the
// `wait` and `count` query parameters every waitable list takes (events, webhook delivery
// attempts, the inbox, the request journal), one schema for all of them. `wait` is a
// duration of real time — the network's, not a sandbox's clock — bounded so no request
// holds a connection for long; `count` is how many matching items end the wait early.
import { z } from 'zod';
import { validationError } from '../errors.js';
import { parseDuration } from './time.js';
import { queryInt } from './paging.js';

/** The longest a list request may wait. */
export const WAIT_MAX_MS = 30_000;

/** `wait`: `5s`, `1500ms`, `1m`, combinations like `1s500ms`, or `0` (answer at once); at most 30 s. */
export const waitSchema = z
  .string()
  .max(40, { error: 'must be at most 40 characters' })
  .transform((text, ctx) => {
    if (text.trim() === '0') return 0;
    let ms: number;
    try {
      ms = parseDuration(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a duration such as 5s, 1500ms or 1s500ms (0: answer at once)' });
      return z.NEVER;
    }
    if (ms > WAIT_MAX_MS) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${WAIT_MAX_MS / 1000}s` });
      return z.NEVER;
    }
    return ms;
  })
  .meta({
    description: `Wait up to this long (real time; at most ${WAIT_MAX_MS / 1000}s) for at least \`count\` matching items: the answer comes as soon as they exist, else at the deadline with what there is (still 200). E.g. \`5s\`, \`1500ms\`.`,
    example: '5s',
  });

/** The members of a waitable list query (spread into its z.strictObject). */
export const waitQuery = {
  wait: waitSchema.optional(),
  count: queryInt(1, 1000, 1).meta({ description: 'with `wait`: how many matching items end the wait (default 1; at most `limit`)' }),
};

/** What a list request waits for: how long (ms, 0: not at all) and for how many items. */
export interface WaitPlan {
  waitMs: number;
  count: number;
}

/** The wait a parsed query asks for; `count` above the page size could never be met, so it is refused naming `count`. */
export function waitPlan(q: { wait?: number | undefined; count: number; limit: number }): WaitPlan {
  if (q.count > q.limit) throw validationError([{ path: 'count', message: `must be at most limit (${q.limit}): a page holds at most limit items` }]);
  return { waitMs: q.wait ?? 0, count: q.count };
}
