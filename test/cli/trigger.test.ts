// payctl trigger: every type's recipe makes an event of that type happen for real (the
// API, and the group's clock for clock work), with the events it caused read back; the
// CLI prints them as a table, or (--json) the event of the type as the API answers it; an unknown type is a usage error.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { runCli, runCliJson } from '../helpers/cli.js';
import { trigger, TRIGGER_TYPES } from '../../src/dev/trigger.js';
import { forGroup, type Platform } from '../../src/services/platform.js';
import { eventSchema, eventSchemaOf, EVENT_TYPES, type EventType } from '../../src/domain/events.js';
import type { DemoOutput } from '../../src/dev/demo.js';

let p: Platform;
let demo: DemoOutput;
let dbPath: string;
before(async () => {
  ({ p, demo, dbPath } = await demoPlatform());
});
after(() => p.close());

test('every transaction, subscription, invoice and payment link type (and the rest but signup entries) can be triggered', () => {
  for (const family of ['transaction.', 'subscription.', 'invoice.', 'payment_link.']) {
    const all = EVENT_TYPES.filter((t) => t.startsWith(family));
    assert.deepEqual(all.filter((t) => !(TRIGGER_TYPES as string[]).includes(t)), [], family);
  }
  assert.deepEqual(EVENT_TYPES.filter((t) => !(TRIGGER_TYPES as string[]).includes(t)), ['signup_entry.created']);
});

for (const type of TRIGGER_TYPES) {
  test(`trigger ${type}`, async () => {
    const g = await forGroup(p, demo.group_id);
    const r = await trigger(g, demo.group_id, type);
    assert.ok(r.events.some((e) => e.type === type), `${type}: ${r.events.map((e) => e.type).join(', ')}`);
    for (const e of r.events) {
      assert.equal(e.group_id, demo.group_id);
      const checked = eventSchemaOf(e.type as EventType).safeParse(e);
      assert.ok(checked.success, `${e.type}: ${JSON.stringify(checked.error?.issues)}`);
    }
    const seen = r.events.map((e) => e.id);
    assert.deepEqual([...seen].sort(), seen, 'oldest first');
  });
}

test('payctl trigger prints the events it caused; --json the event of the type, as the API answers it; unknown types are usage errors', async () => {
  // Another process on the same database, as a developer runs it beside `payctl serve`.
  // A recipe that moves the group's clock runs only when that is allowed: without --move-clock, exit 2 and nothing moved.
  const before = await runCliJson(['clock', 'show', '--group', demo.group_id], { db: dbPath });
  const refused = await runCli(['trigger', 'subscription.payment_failed', '--group', demo.group_id], { db: dbPath });
  assert.equal(refused.code, 2, refused.stderr);
  const said = refused.stderr.replace(/\s*›\s*/g, ' ');
  assert.match(said, /subscription\.payment_failed moves the clock of group \S+ forward by 1d/);
  assert.match(said, /Add --move-clock to allow it, or trigger it in a throwaway sandbox: `payctl sandbox create --demo`/);
  assert.equal((await runCliJson(['clock', 'show', '--group', demo.group_id], { db: dbPath })).offset_ms, before.offset_ms);
  const human = await runCli(['trigger', 'subscription.payment_failed', '--group', demo.group_id, '--move-clock'], { db: dbPath });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Triggering subscription\.payment_failed: a customer with the insufficient-funds card/);
  assert.match(human.stdout, /subscription\.payment_failed/);
  assert.match(human.stdout, /transaction\.declined/);
  assert.match(human.stdout, /\d+ events/);
  // --json: the API's event object of that type, exactly as events show --json prints it.
  const json = await runCliJson(['trigger', 'transaction.captured', '--group', demo.group_id], { db: dbPath });
  assert.equal(json.type, 'transaction.captured');
  assert.ok(eventSchema.safeParse(json).success, 'an API event object');
  assert.equal(json.events, undefined);
  const shown = await runCliJson(['events', 'show', json.id, '--group', demo.group_id], { db: dbPath });
  assert.deepEqual(shown, json);
  const unknown = await runCli(['trigger', 'transaction.exploded', '--group', demo.group_id], { db: dbPath });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr.replace(/\s*›\s*/g, ' '), /unknown event type "transaction\.exploded": give one of transaction\.approved, transaction\.declined/);
  const signup = await runCli(['trigger', 'signup_entry.created', '--group', demo.group_id], { db: dbPath });
  assert.equal(signup.code, 2);
});
