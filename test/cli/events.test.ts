// payctl events list / show: the API objects with --json, a table otherwise, filters,
// and usage errors for a bad type.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { eventListSchema, eventSchema } from '../../src/domain/events.js';

let db: string;
let groupId: string;
before(async () => {
  db = tempDbPath();
  groupId = (await runCliJson(['init', '--demo'], { db })).group_id;
});

test('events list --json is the list answer, newest first; --type filters with wildcards; --limit pages', async () => {
  const all = await runCliJson(['events', 'list', '--group', groupId, '--limit', '1000'], { db });
  assert.ok(eventListSchema.safeParse(all).success);
  const ids = all.data.items.map((e: { id: string }) => e.id);
  assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first');
  const links = await runCliJson(['events', 'list', '--group', groupId, '--type', 'payment_link.*', '--type', 'plan.created'], { db });
  assert.ok(links.data.items.length > 0);
  assert.ok(links.data.items.every((e: { type: string }) => e.type.startsWith('payment_link.') || e.type === 'plan.created'));
  const two = await runCliJson(['events', 'list', '--group', groupId, '--limit', '2'], { db });
  assert.equal(two.data.items.length, 2);
  assert.equal(two.data.has_more, true);
  const next = await runCliJson(['events', 'list', '--group', groupId, '--limit', '2', '--starting-after', two.data.items[1].id], { db });
  assert.equal(next.data.items[0].id, ids[2]);
});

test('events list prints a table; events show prints the event and its object, --json exactly the event', async () => {
  // --wide: every column (at the tests' 120 columns the request column would be hidden).
  const table = await runCli(['events', 'list', '--group', groupId, '--type', 'plan.created', '--wide'], { db });
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /created .*type .*id .*object .*request/);
  assert.match(table.stdout, /plan\.created/);
  const [first] = (await runCliJson(['events', 'list', '--group', groupId, '--type', 'plan.created', '--limit', '1'], { db })).data.items;
  const shown = await runCliJson(['events', 'show', first.id, '--group', groupId], { db });
  assert.deepEqual(shown, first);
  assert.ok(eventSchema.safeParse(shown).success);
  const human = await runCli(['events', 'show', first.id, '--group', groupId], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`type\\s+plan\\.created`));
  assert.match(human.stdout, new RegExp(first.data.object.id));
});

test('a bad --type is a usage error naming the valid types; an unknown event is not found', async () => {
  const bad = await runCli(['events', 'list', '--group', groupId, '--type', 'nope.*'], { db });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--type: "nope\.\*" is not an event type/);
  assert.match(bad.stderr, /transaction\.approved/);
  assertUserError(await runCli(['events', 'show', '01a207a6-41ad-721c-b4f0-014a51c53eb3', '--group', groupId], { db }), /event not found|not found/i);
});
