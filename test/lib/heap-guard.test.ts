// HeapGuard (src/lib/heap-guard.ts): work that makes large strings one after another keeps
// the heap within its budget of where it started, by a full collection when it grew past it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { HeapGuard } from '../../src/lib/heap-guard.js';

const MiB = 1024 * 1024;
const used = () => v8.getHeapStatistics().used_heap_size;

/** A fresh 1 MiB string (built, so V8 cannot share it), as an import's fat line is. */
const fatLine = (i: number) => `${i}:`.padEnd(MiB, String.fromCharCode(97 + (i % 26)));

/** 200 fat lines, each parsed out of a JSON text, the last 4 held across a turn of the event loop (an import's read-ahead): the heap's peak growth. */
async function fatWork(guard?: HeapGuard): Promise<number> {
  const start = used();
  let peak = 0;
  const held: string[] = [];
  for (let i = 0; i < 200; i++) {
    const line = (JSON.parse(JSON.stringify({ d: fatLine(i) })) as { d: string }).d;
    held.push(line);
    if (held.length > 4) held.shift();
    guard?.handled(line.length);
    await new Promise((resolve) => setImmediate(resolve));
    peak = Math.max(peak, used() - start);
  }
  return peak;
}

test('past its budget the guard collects: 200 MiB of fat lines keep the heap within its budget, where V8 alone lets it grow', async () => {
  const alone = await fatWork();
  const guard = new HeapGuard(8 * MiB);
  const guarded = await fatWork(guard);
  assert.ok(guard.collections > 0, 'it asked for full collections');
  // The budget, and a look every MiB handled: 8 MiB plus a few lines.
  assert.ok(guarded < 16 * MiB, `guarded, the heap grew by ${(guarded / MiB).toFixed(1)} MiB`);
  assert.ok(guarded < alone, `guarded ${(guarded / MiB).toFixed(1)} MiB, alone ${(alone / MiB).toFixed(1)} MiB`);
});

test('within its budget, or before a MiB is handled, the guard does nothing', () => {
  const guard = new HeapGuard(8 * MiB);
  for (let i = 0; i < 1000; i++) guard.handled(1000); // under a MiB in all: not even a look at the heap
  assert.equal(guard.collections, 0);
  const roomy = new HeapGuard(1024 * MiB);
  for (let i = 0; i < 50; i++) roomy.handled(fatLine(i).length);
  assert.equal(roomy.collections, 0, 'a heap within a large budget is left to V8');
});
