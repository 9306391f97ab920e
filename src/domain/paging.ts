// Paging of list queries, one rule for every list of the API: limit 1..1000 (default
// 50), offset ≥ 0 (default 0). Query strings are text, so both also take digit strings.
// The CLI's --limit/--offset flags are bounded by the same numbers.
import { z } from 'zod';
import { MAX_WHOLE, uint64Loose } from './money.js';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 1000;

/** A query value: a number or digit string within [min, max], `fallback` when absent. */
export const queryInt = (min: number, max: number, fallback: number) =>
  uint64Loose
    .pipe(z.int().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }))
    .default(fallback);

/** A list's page size: 1..1000, 50 when absent (cursor-paged lists take it with `starting_after`). */
export const pageLimit = queryInt(1, PAGE_LIMIT_MAX, PAGE_LIMIT_DEFAULT);

/** The paging members of a list query schema (spread into its z.strictObject). */
export const pagingQuery = {
  limit: pageLimit,
  offset: queryInt(0, MAX_WHOLE, 0),
};
