// The long poll's own rules, with a page query the test controls: waits on one key share
// their reads, a wait never joins a read that began before the write that woke it, and an
// abort answers at once with the last page read.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { longPoll, waitingRequests } from '../../src/services/long-poll.js';

/** A store of `items` whose reads the test releases one by one (each sees `items` as it was when it began). */
function world() {
  const bus = new EventEmitter();
  const w = {
    items: 0,
    reads: 0,
    pending: [] as Array<() => void>,
    read: () => {
      w.reads++;
      const seen = w.items;
      return new Promise<number>((resolve) => w.pending.push(() => resolve(seen)));
    },
    write(n: number) {
      w.items = n;
      bus.emit('w');
    },
    wait: (count: number, signal?: AbortSignal) =>
      longPoll({
        waitMs: 10_000,
        count,
        signal,
        read: w.read,
        size: (n) => n,
        wake: (fn) => (bus.on('w', fn), () => void bus.off('w', fn)),
        share: { store: bus, key: ['page'] },
      }),
    /** Let every read asked for so far finish. */
    releaseAll() {
      for (const done of w.pending.splice(0)) done();
    },
    /** Let the next read finish once it has been asked for. */
    async release() {
      for (let i = 0; w.pending.length === 0; i++) await new Promise((r) => setImmediate(r));
      w.pending.shift()!();
    },
  };
  return w;
}

test('a wait woken after a read began reads again, and joins the read begun after the write', async () => {
  const w = world();
  const a = w.wait(1);
  await new Promise((r) => setImmediate(r)); // a's first read has begun (it sees 0)
  w.write(1); // wakes a during that read
  const b = w.wait(1); // subscribed after the write: must not take a's older read
  await w.release(); // a's read: 0 items, but a was woken → reads again, joining b's
  await w.release(); // the read b began after the write: 1 item, for both
  assert.deepEqual(await Promise.all([a, b]), [1, 1]);
  assert.equal(w.reads, 2, 'two reads for two waits: the second was shared');
  assert.equal(waitingRequests(), 0);
});

test('many waits on one key read once per wake-up, not once each', async () => {
  const w = world();
  const waits = Array.from({ length: 50 }, () => w.wait(1));
  // Each request's first read is its own: a read begun before it arrived may predate a write it must see.
  assert.equal(w.reads, 50);
  w.write(1);
  w.releaseAll(); // 0 items each, but all were woken: they read again, together
  await w.release(); // one read after the write, shared by the 50
  assert.deepEqual(new Set(await Promise.all(waits)), new Set([1]));
  assert.equal(w.reads, 51);
});

test('an abort answers at once with the last page read', async () => {
  const w = world();
  const ac = new AbortController();
  const a = w.wait(1, ac.signal);
  await w.release();
  ac.abort();
  assert.equal(await a, 0);
  assert.equal(w.reads, 1);
});
