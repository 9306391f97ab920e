// The --limit/--offset flags of list commands, bounded like the API's list queries
// (src/domain/paging.ts): out of bounds is a usage error before anything runs.
import { Flags } from '@oclif/core';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../domain/paging.js';

export const pagingFlags = {
  limit: Flags.integer({ description: `page size (1 to ${PAGE_LIMIT_MAX})`, default: PAGE_LIMIT_DEFAULT, min: 1, max: PAGE_LIMIT_MAX }),
  offset: Flags.integer({ description: 'items to skip', default: 0, min: 0 }),
};
