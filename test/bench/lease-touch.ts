// A sandbox's time to live costs no write per request (src/services/sandboxes/leases.ts):
// requests note their sandbox in memory and the tick writes the noted ones in one
// statement per 50. This measures, on a SQLite store, side by side: the noting itself,
// one tick's flush of N sandboxes, N writes of one sandbox each (what a write per request
// would cost), and the tick's read of the expired leases among N.
// Standalone: `node dist/test/bench/lease-touch.js` (not part of `npm run bench`); results
// in docs/benchmarks/kit.md.
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import { tempPlatform } from '../helpers/platform.js';
import { expireSandboxes, noteRequest } from '../../src/services/sandboxes/leases.js';
import { newId } from '../../src/lib/ids.js';

if (process.env.NODE_TEST_CONTEXT) process.exit(0);

const p = await tempPlatform();
const N = Number(process.env.BENCH_LEASES ?? 1000);
const ROUNDS = 5;
const now = Date.now();
const ids: string[] = [];
await p.db.write(async (tx) => {
  for (let i = 0; i < N; i++) {
    const id = newId();
    ids.push(id);
    await tx.run("INSERT INTO groups (id, name, pricing, status, created_at, updated_at, clock_offset_ms, sandbox) VALUES (?, 'bench', 'flat', 'active', ?, ?, 0, 1)", [id, new Date(now).toISOString(), new Date(now).toISOString()]);
    await tx.repos.leases.insert(tx, id, 86_400_000, now);
  }
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = async (fn: () => Promise<unknown> | unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const notes: number[] = [];
const flushes: number[] = [];
const perRequest: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  notes.push((await time(() => ids.forEach((id) => noteRequest(p.db, id)))) / N);
  flushes.push(await time(() => expireSandboxes(p, now + (r + 1) * 1000)));
  perRequest.push(await time(async () => {
    for (const id of ids) await p.db.write((tx) => tx.repos.leases.touch(tx, [id], now + (r + 1) * 1000 + 500));
  }));
}
const expiredRead = median(await Promise.all(Array.from({ length: ROUNDS }, () => time(() => p.db.repos.leases.expired(p.db, now, 20)))));

const line = (what: string, ms: number) => process.stdout.write(`${what.padEnd(64)} ${ms.toFixed(3)} ms\n`);
process.stdout.write(`lease bench: ${N} sandboxes, SQLite, median of ${ROUNDS} rounds\n`);
process.stdout.write(`${'note one request (in memory), per request'.padEnd(64)} ${(median(notes) * 1e6).toFixed(0)} ns\n`);
line(`one tick: write ${N} noted sandboxes (statements of 50) + expiry read`, median(flushes));
line(`a write per request instead: ${N} writes of one sandbox`, median(perRequest));
line(`the tick's read of expired leases among ${N}`, expiredRead);
process.stdout.write(`ratio (writes per request / one tick's flush): ${(median(perRequest) / median(flushes)).toFixed(1)}x\n`);
const location = p.db.location;
await p.close();
for (const suffix of ['', '-wal', '-shm']) rmSync(`${location}${suffix}`, { force: true });
