// What another process may have changed, read once per request (src/http/pipeline/fresh.ts):
// the platform clock's offset and the configuration counter in one statement, where two
// reads were (on PostgreSQL two transactions; with three servers a third of a sale's). Still
// every request sees a clock moved, or a key revoked, by another process before it was sent.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { saleBody } from '../helpers/bodies.js';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { createKey, revokeKey } from '../../src/services/groups/keys.js';

let s: TestServer;
/** Another process on the same database (the CLI, or another server). */
let other: Platform;
before(async () => {
  s = await startTestServer();
  other = await openPlatform({ db: s.dbPath });
});
after(async () => {
  await other.close();
  await s.close();
});

/** The SQL texts the server's store reads outside writes (get, all, getShared) while `fn` runs. */
async function readsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const db = s.p.db as unknown as Record<'get' | 'all' | 'getShared', (sql: string, ...rest: unknown[]) => unknown>;
  const originals = { get: db.get, all: db.all, getShared: db.getShared };
  const seen: string[] = [];
  for (const name of ['get', 'all', 'getShared'] as const) {
    const original = originals[name]!;
    db[name] = function (this: unknown, sql: string, ...rest: unknown[]) {
      // getShared calls get itself: count the statement once, by the outer call.
      if (name === 'getShared' || !seen.includes(`shared:${sql}`)) seen.push(name === 'getShared' ? `shared:${sql}` : sql);
      return original.call(this, sql, ...rest);
    };
  }
  try {
    await fn();
  } finally {
    Object.assign(db, originals);
  }
  return seen;
}

const sale = () => s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id) });

test('a sale reads the clock and the configuration counter once, in one statement', async () => {
  assert.equal((await sale()).status, 200); // caches warm
  const reads = await readsDuring(async () => assert.equal((await sale()).status, 200));
  const counters = reads.filter((sql) => /\bclock\b|config_version/.test(sql));
  assert.equal(counters.length, 1, `reads of the clock or the counter: ${JSON.stringify(counters)}`);
  assert.match(counters[0]!, /^shared:.*config_version.*clock/);
});

test('a request sees the platform clock another process moved before it was sent', async () => {
  const before = Date.parse((await sale()).body.created_at as string);
  await other.clock.setOffset(other.clock.offsetMs() + 30 * 86_400_000);
  const moved = Date.parse((await sale()).body.created_at as string);
  assert.ok(moved - before >= 30 * 86_400_000 - 60_000, `${new Date(before).toISOString()} → ${new Date(moved).toISOString()}`);
  await other.clock.setOffset(other.clock.offsetMs() - 30 * 86_400_000);
  const back = Date.parse((await sale()).body.created_at as string);
  assert.ok(back < moved - 29 * 86_400_000, `moved back: ${new Date(back).toISOString()}`);
});

test('a key another process revoked is refused by the next request', async () => {
  const k = await execute(createKey, other, contextFor(other, s.demo.group_id), { permissions: ['manage_customers'] });
  const customers = `/api/v1/groups/${s.demo.group_id}/customers`;
  assert.equal((await s.call('POST', customers, { body: {}, key: k.key })).status, 200);
  await execute(revokeKey, other, contextFor(other, undefined), { key_id: k.id });
  const r = await s.call('POST', customers, { body: {}, key: k.key });
  assert.equal(r.status, 401, r.text);
  assert.match(r.body.error.message, /revoked/);
});

test('a request without a key is a 401 that looks up no key', async () => {
  const reads = await readsDuring(async () => assert.equal((await s.call('POST', `/api/v1/groups/${s.demo.group_id}/customers`, { body: {} })).status, 401));
  // (The server's own background work may read meanwhile: only the request's key lookup is looked for.)
  assert.ok(!reads.some((sql) => /api_keys/.test(sql)), JSON.stringify(reads));
});
