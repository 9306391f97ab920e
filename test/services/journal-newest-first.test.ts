// The journal's list use case, newest first (the dashboard's Requests view reads one page
// of it, no more): the newest calls that match come first, `starting_after` then answers
// the ones before it (the next page in that order), `has_more` says whether there is one,
// and the filters hold as they do oldest first. Without the option the order is the API's
// (oldest first), unchanged; a wait is refused with it (it waits for newer calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempPlatform } from '../helpers/platform.js';
import { createSandbox } from '../../src/services/sandboxes/sandboxes.js';
import { seedDemoInGroup } from '../../src/dev/demo.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';
import { listRequests } from '../../src/services/journal/list.js';
import { AppError } from '../../src/errors.js';
import type { JournalEntry } from '../../src/store/interfaces/journal.js';

const entry = (group_id: string, i: number, method: string, status: number, path: string): JournalEntry => ({
  group_id,
  request_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString(),
  method,
  path,
  route: path,
  status,
  duration_ms: 1,
  idempotency_key: null,
  fault: null,
  recordable: true,
  headers: null,
  body: null,
  answer: null,
  note: null,
  bytes: 10,
});

test('newest first: one page of the newest matching calls, a cursor to the older ones, filters kept; oldest first unchanged', async () => {
  const p = await tempPlatform();
  try {
    const ctx = contextFor(p, undefined);
    const box = await execute(createSandbox(seedDemoInGroup), p, ctx, {});
    const g = box.group_id;
    // Calls 1..12: odd ones GETs answered 200 on /a, even ones POSTs answered 400 on /b.
    const entries = Array.from({ length: 12 }, (_, k) => (k % 2 === 0 ? entry(g, k + 1, 'GET', 200, `/a/${k + 1}`) : entry(g, k + 1, 'POST', 400, `/b/${k + 1}`)));
    await p.db.write((tx) => tx.repos.journal.append(tx, entries, { entries: 1000, bytes: 1 << 20 }));
    const seqs = (items: Array<{ seq: number }>) => items.map((r) => r.seq);

    const first = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '5' });
    assert.deepEqual(seqs(first.data.items), [12, 11, 10, 9, 8], 'the newest five, newest first');
    assert.equal(first.data.has_more, true);
    const second = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '5', starting_after: first.data.items[4]!.id });
    assert.deepEqual(seqs(second.data.items), [7, 6, 5, 4, 3], 'the page after the cursor: the five before it');
    const last = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '5', starting_after: second.data.items[4]!.id });
    assert.deepEqual(seqs(last.data.items), [2, 1]);
    assert.equal(last.data.has_more, false, 'no page after the oldest');

    const gets = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '3', method: 'GET' });
    assert.deepEqual(seqs(gets.data.items), [11, 9, 7], 'the method filter: the newest GETs only');
    const fours = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '3', status: '4xx', starting_after: entries[9]!.request_id });
    assert.deepEqual(seqs(fours.data.items), [8, 6, 4], 'the status filter, from a cursor');
    const prefix = await executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '50', path: '/a/1*' });
    assert.deepEqual(seqs(prefix.data.items), [11, 1], 'the path prefix filter');

    const oldest = await executeRaw(listRequests, p, ctx, { group_id: g, limit: '5' });
    assert.deepEqual(seqs(oldest.data.items), [1, 2, 3, 4, 5], 'without the option: oldest first, as the API lists them');

    await assert.rejects(
      executeRaw(listRequests, p, ctx, { group_id: g, newest_first: true, limit: '5', wait: '1s' }),
      (err: unknown) => err instanceof AppError && err.status === 400 && /newest first/.test(JSON.stringify(err.fields)),
    );
    await assert.rejects(executeRaw(listRequests, p, ctx, { group_id: g, newest_first: 'true', limit: '5' }), (err: unknown) => err instanceof AppError && err.status === 400, 'a query string cannot ask for it');
  } finally {
    await p.close();
  }
});
