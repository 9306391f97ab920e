// The one footer under every list: the rows shown, of how many, and the flag for the next page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageFooter } from '../../src/render/page-footer.js';

test('pageFooter: range, total and the next page, the same words for every list', () => {
  const cases: Array<[Parameters<typeof pageFooter>[0], string]> = [
    [{ shown: 20, offset: 0, total: 45 }, 'Showing 1–20 of 45; more with --offset 20.'],
    [{ shown: 5, offset: 40, total: 45 }, 'Showing 41–45 of 45.'],
    [{ shown: 0, offset: 0, total: 0 }, 'Showing 0 of 0.'],
    [{ shown: 0, offset: 60, total: 45 }, 'Showing 0 of 45 (offset 60).'],
    // No total: a full page may have more after it.
    [{ shown: 50, offset: 0, limit: 50 }, 'Showing 1–50; more with --offset 50.'],
    [{ shown: 3, offset: 50, limit: 50 }, 'Showing 51–53.'],
    // A cursor-paged list names its own next page.
    [{ shown: 2, next: '--starting-after evt_1' }, 'Showing 2; more with --starting-after evt_1.'],
    [{ shown: 2 }, 'Showing 2.'],
    [{ shown: 5, offset: 0, total: 9, also: 'every row with --output csv' }, 'Showing 1–5 of 9; more with --offset 5, every row with --output csv.'],
  ];
  for (const [page, line] of cases) assert.equal(pageFooter(page), line, JSON.stringify(page));
});
