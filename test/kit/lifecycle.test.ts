// payctl/testing: what a sandbox is called and how long it lives on a shared server,
// forks, export and import (their collector endpoint pointed at this process's
// collector), and what a call says after drop() or stop(), or when `next` times out.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { startPayctl, DEFAULT_TTL, type Payctl, type Sandbox } from '../../src/testing/index.js';
import { traceableName } from '../../src/testing/test-name.js';

let payctl: Payctl;
before(async () => {
  payctl = await startPayctl();
});
after(() => payctl.stop());

const summary = async (groupId: string) => (await payctl.client.GET('/api/v1/sandboxes/{group_id}', { params: { path: { group_id: groupId } } })).data!;

/** A sale of 15.00 on the demo card of `sb`. */
const sale = (sb: Sandbox, demo: { customer_id: string; card_id: string }) =>
  sb.request('POST', '/api/v1/groups/{group_id}/transaction', {
    body: {
      type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
      amounts: { requested_amount: 1500 }, payment_details: { customer: { customer_id: demo.customer_id, card_id: demo.card_id } },
    },
  });

test('a sandbox is named after its test; it lives an hour without a request by default', async (t) => {
  const sb = await payctl.sandbox({ test: t, webhooks: false });
  const shown = await summary(sb.groupId);
  assert.equal(shown.name, t.fullName ?? t.name);
  assert.equal(DEFAULT_TTL, '1h');
  assert.equal(shown.ttl_seconds, 3600);
  assert.ok(Date.parse(shown.expires_at!) > Date.now() + 3_500_000);
  // Without the context: this file and a counter; a name or ttl given wins.
  const plain = await payctl.sandbox({ webhooks: false });
  assert.match((await summary(plain.groupId)).name, /^lifecycle\.test\.js #\d+$/);
  const named = await payctl.sandbox({ name: 'checkout', ttl: 90, webhooks: false });
  assert.equal((await summary(named.groupId)).name, 'checkout');
  assert.equal((await summary(named.groupId)).ttl_seconds, 90);
  await Promise.all([sb.drop(), plain.drop(), named.drop()]);
});

test("vitest's and jest's current test name name the sandbox", () => {
  const g = globalThis as Record<PropertyKey, unknown>;
  const vitest = Symbol.for('expect-global');
  const jest = Symbol.for('$$jest-matchers-object');
  try {
    g[vitest] = { getState: () => ({ currentTestName: 'checkout > a declined card is a 200' }) };
    assert.equal(traceableName(), 'checkout > a declined card is a 200');
    delete g[vitest];
    g[jest] = { state: { currentTestName: 'refunds a refund twice' } };
    assert.equal(traceableName(), 'refunds a refund twice');
    g[jest] = { state: { currentTestName: 'x'.repeat(150) } };
    assert.equal(traceableName().length, 100);
  } finally {
    delete g[vitest];
    delete g[jest];
  }
});

test('under vitest itself, a sandbox is named after the running test', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payctl-vitest-name-'));
  try {
    const kit = pathToFileURL(path.join(packageRoot, 'dist/src/testing/test-name.js')).href;
    writeFileSync(
      path.join(dir, 'name.test.mjs'),
      `import { test, expect } from 'vitest';\nimport { traceableName } from ${JSON.stringify(kit)};\n` +
        `test('checkout declines a card', () => { expect(traceableName()).toBe('checkout declines a card'); });\n`,
    );
    const r = spawnSync(process.execPath, [path.join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Tests\s+1 passed \(1\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fork: a copy with keys of its own, whose collector endpoint points at this process', async () => {
  const sb = await payctl.sandbox({ demo: true });
  assert.equal((await sale(sb, sb.demo)).status, 200);
  await sb.webhooks.next('transaction.approved');
  const fork = await sb.fork({ name: 'forked' });
  assert.notEqual(fork.groupId, sb.groupId);
  assert.equal(fork.created.name, 'forked');
  const copied = await fork.request('GET', '/api/v1/groups/{group_id}/events', { query: { types: 'transaction.approved' } });
  assert.equal(copied.status, 200, JSON.stringify(copied.body));
  // The fork's events reach the collector, signed with a secret the kit knows, in the fork's own inbox.
  const ids = fork.created as unknown as { id_map: Record<string, string> };
  const demo = { customer_id: ids.id_map[sb.demo.customer_id]!, card_id: ids.id_map[sb.demo.card_id]! };
  assert.equal((await sale(fork, demo)).status, 200);
  const event = await fork.webhooks.next('transaction.approved');
  assert.equal(event.group_id, fork.groupId);
  await sb.webhooks.none('transaction.approved', { within: 300 });
  const endpoints = await fork.request('GET', '/api/v1/groups/{group_id}/webhook_endpoints');
  assert.equal(endpoints.body.data.items.length, 1);
  assert.match(endpoints.body.data.items[0].url, new RegExp(`/payctl/${fork.groupId}$`));
  await Promise.all([sb.drop(), fork.drop()]);
});

test('export and importSandbox: a new sandbox of the file, its collector endpoint pointed at this process', async () => {
  const sb = await payctl.sandbox({ demo: true });
  assert.equal((await sale(sb, sb.demo)).status, 200);
  const file = await sb.export();
  try {
    assert.ok(existsSync(file));
    const copy = await payctl.importSandbox(file, { name: 'imported' });
    assert.equal(copy.created.name, 'imported');
    assert.equal((await summary(copy.groupId)).ttl_seconds, 3600);
    const ids = (copy.created as unknown as { id_map: Record<string, string> }).id_map;
    const demo = { customer_id: ids[sb.demo.customer_id]!, card_id: ids[sb.demo.card_id]! };
    assert.equal((await sale(copy, demo)).status, 200);
    const event = await copy.webhooks.next('transaction.approved');
    assert.equal(event.group_id, copy.groupId);
    const endpoints = await copy.request('GET', '/api/v1/groups/{group_id}/webhook_endpoints');
    assert.equal(endpoints.body.data.items.length, 1);
    assert.match(endpoints.body.data.items[0].url, new RegExp(`/payctl/${copy.groupId}$`));
    await copy.drop();
  } finally {
    rmSync(file, { force: true });
    await sb.drop();
  }
});

test("a next that times out: the error's stack points at the test's line", async () => {
  const sb = await payctl.sandbox();
  const err = (await sb.webhooks.next('transaction.settled', { timeout: 50 }).catch((e: unknown) => e)) as Error;
  assert.match(err.message, /no "transaction\.settled" webhook within 50 ms/);
  const frames = err.stack!.split('\n').slice(1);
  assert.match(frames[0]!, /lifecycle\.test\.js:\d+:\d+/, err.stack);
  assert.doesNotMatch(err.stack!, /listOnTimeout|processTimers/);
  const none = (await (async () => {
    await sale(sb, { customer_id: 'x', card_id: 'y' });
    return sb.webhooks.none('transaction.declined', { within: 50 });
  })().then(() => undefined, (e: unknown) => e)) as Error | undefined;
  assert.equal(none, undefined);
  await sb.drop();
  await sb.drop(); // a second drop does nothing
});

test('after stop(): calls say the server was stopped, not "fetch failed"', async () => {
  const own = await startPayctl();
  const sb = await own.sandbox({ webhooks: false });
  const collected = await own.sandbox();
  await own.stop();
  await assert.rejects(collected.webhooks.next('transaction.settled'), /was stopped/);
  await assert.rejects(sb.request('GET', '/api/v1/groups/{group_id}/events'), /the server at http:\/\/127\.0\.0\.1:\d+ was stopped \(payctl\.stop\(\) ran\)/);
  await assert.rejects(sb.client.GET('/api/v1/groups/{group_id}/events'), /was stopped/);
  await assert.rejects(sb.clock.now(), /was stopped/);
  await assert.rejects(own.sandbox(), /was stopped/);
  await assert.rejects(sb.export(), /was stopped/);
});

test('docs/testing.md: a declined card is a 200 with status "declined" (the example as the page shows it)', async () => {
  const sb = await payctl.sandbox();
  const r = await sb.request('POST', '/api/v1/groups/{group_id}/transaction', {
    body: {
      type: 'sale', source: 'api', processor_id: sb.processorId, currency: 'USD',
      email_address: 'ada@example.com', email_receipt: false, amounts: { requested_amount: 1500 },
      billing_address: { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield',
        subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' },
      payment_details: { token: 'tok_visa_declined' },
    },
  });
  assert.equal(r.status, 200);
  assert.equal(r.body.status, 'declined');
  assert.equal(r.body.response_code, '05'); // do not honor
  const ev = await sb.webhooks.next('transaction.declined');
  assert.equal(ev.data.object.id, r.body.id);
  await sb.drop();
  const page = readFileSync(path.join(packageRoot, 'docs/testing.md'), 'utf8');
  for (const line of ["payment_details: { token: 'tok_visa_declined' },", "assert.equal(r.status, 200);", "assert.equal(r.body.status, 'declined');", "assert.equal(r.body.response_code, '05'); // do not honor"]) {
    assert.ok(page.includes(line), `docs/testing.md shows ${line}`);
  }
});

test('an exact event type payctl never sends is refused at once, with a guess (JavaScript has no compiler to say so)', async () => {
  const sb = await payctl.sandbox();
  const untyped = sb.webhooks as unknown as { next(t: string): Promise<unknown>; none(t: string): Promise<void>; all(t: string): unknown[] };
  // Its own error, not the timeout's ("no … webhook within …").
  await assert.rejects(untyped.next('transaction.setled'), /"transaction\.setled" is not an event type payctl sends \(did you mean "transaction\.settled"\?\)/);
  await assert.rejects(untyped.none('customer.creatd'), /did you mean "customer\.created"/);
  assert.throws(() => untyped.all('nothing.like.it'), /"nothing\.like\.it" is not an event type/);
  // Globs and predicates are not checked.
  assert.deepEqual(untyped.all('nothing.*'), []);
  await sb.drop();
});
