// The per-endpoint lanes of the webhook sender: at most ENDPOINT_CONCURRENCY attempts in
// flight to one endpoint (more wait in its queue, others' lanes are untouched); a lane is
// given only its free slots until its receiver has answered fast, then a queue of up to
// QUEUE_MAX; a lane that was full tells its owner when it has room again.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lanes, QUEUE_MAX } from '../../src/services/webhooks/lanes.js';
import { ENDPOINT_CONCURRENCY as C } from '../../src/domain/webhooks.js';

/** A send the test finishes by hand. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { send: () => done, finish };
}

test('a lane runs at most ENDPOINT_CONCURRENCY sends at once; the rest wait in its queue; another lane is not held', async () => {
  const lanes = new Lanes();
  const a = lanes.lane('ep-a', 'g1');
  const b = lanes.lane('ep-b', 'g2');
  assert.equal(a.room(), C, 'no answer yet: only free slots');
  const sends = Array.from({ length: C + 4 }, () => pending());
  let started = 0;
  const runs = sends.map((s) => a.run(() => (started++, s.send())));
  assert.equal(started, C);
  assert.equal(a.inFlight, C);
  assert.equal(a.room(), 0);
  assert.deepEqual(lanes.full().map((l) => l.endpointId), ['ep-a']);
  assert.deepEqual(lanes.full('g2'), [], "another group's lanes are looked at apart");
  // Another endpoint's lane is not held by a's.
  let bRan = false;
  await b.run(async () => void (bRan = true));
  assert.ok(bRan);
  // One answer frees one slot: the next queued send starts.
  sends[0]!.finish();
  await runs[0];
  assert.equal(started, C + 1);
  for (const s of sends) s.finish();
  await Promise.all(runs);
  assert.equal(a.inFlight, 0);
});

test('a lane that answered fast gets a queue; a send may decline its turn; a full lane with a backlog tells its owner when it has room', async () => {
  const lanes = new Lanes();
  const told: string[] = [];
  lanes.onRoom = (g) => told.push(g);
  const l = lanes.lane('ep', 'g');
  await l.run(async () => undefined); // a fast answer
  assert.equal(l.room(), QUEUE_MAX);
  assert.equal(await l.run(() => undefined), undefined, 'declined: nothing sent');
  assert.equal(l.room(), QUEUE_MAX, 'a declined turn says nothing of the receiver');
  const sends = Array.from({ length: C }, () => pending());
  const runs = sends.map((s) => l.run(s.send));
  assert.equal(l.room(), QUEUE_MAX - C);
  l.reserved = QUEUE_MAX / 2; // a claim in progress past half the queue: nothing more until it drains
  assert.equal(l.room(), 0);
  l.backlog = true;
  l.reserved = 0;
  sends[0]!.finish();
  await runs[0];
  assert.deepEqual(told, ['g']);
  assert.equal(l.backlog, false);
  for (const s of sends) s.finish();
  await Promise.all(runs);
});
