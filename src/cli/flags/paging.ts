// The --limit/--offset flags of list commands, bounded like the API's list queries
// (src/domain/paging.ts): out of bounds is a usage error before anything runs.
import { Flags } from '@oclif/core';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../domain/paging.js';

/** --limit of a list: its page size. */
export const limitFlag = Flags.integer({ description: `page size (1 to ${PAGE_LIMIT_MAX})`, default: PAGE_LIMIT_DEFAULT, min: 1, max: PAGE_LIMIT_MAX });

export const pagingFlags = {
  limit: limitFlag,
  offset: Flags.integer({ description: 'items to skip', default: 0, min: 0 }),
};

/** --starting-after of a cursor-paged list (newest first): the page after this id of `what`. */
export const startingAfterFlag = (what: string) => Flags.string({ description: `the page after this ${what} id (the last id of the previous page)` });
