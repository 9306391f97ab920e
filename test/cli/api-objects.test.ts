// `payctl group|processor|linked-account|outbox … --json` print the objects their
// mappers build (domain/groups.ts, domain/email.ts): exactly those fields, never a
// database row (no clock_offset_ms, sandbox, key_hash or to_address columns).
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { groupSchema, linkedAccountSchema, processorSchema } from '../../src/domain/groups.js';
import { outboxEmailSchema } from '../../src/domain/email.js';

let db: string;
let demo: { group_id: string; processor_id: string };
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
});

/** The object has exactly the schema's fields, each of the schema's type. */
function assertObject(schema: z.ZodObject, value: unknown, what: string) {
  const parsed = schema.safeParse(value);
  assert.ok(parsed.success, `${what}: ${JSON.stringify(parsed.error?.issues)}`);
  assert.deepEqual(Object.keys(value as object).sort(), Object.keys(schema.shape).sort(), what);
}

test('group create --json prints the Group object', async () => {
  const g = await json(['group', 'create', '--name', 'Objects Shop', '--pricing', 'interchange_plus']);
  assertObject(groupSchema, g, 'group create');
  assert.equal(g.name, 'Objects Shop');
  assert.equal(g.pricing, 'interchange_plus');
});

test('group list --json prints Group objects', async () => {
  const groups = await json<unknown[]>(['group', 'list']);
  assert.ok(groups.length >= 1);
  for (const g of groups) assertObject(groupSchema, g, 'group list');
});

test('processor create --json prints the Processor object', async () => {
  const p = await json(['processor', 'create', '--group', demo.group_id, '--type', 'merchant_level', '--name', 'Second']);
  assertObject(processorSchema, p, 'processor create');
  assert.deepEqual([p.group_id, p.type, p.name], [demo.group_id, 'merchant_level', 'Second']);
});

test('processor list --json prints Processor objects', async () => {
  const list = await json<Array<{ id: string }>>(['processor', 'list', '--group', demo.group_id]);
  assert.ok(list.some((p) => p.id === demo.processor_id));
  for (const p of list) assertObject(processorSchema, p, 'processor list');
});

test('linked-account create and list --json print LinkedAccount objects', async () => {
  const a = await json(['linked-account', 'create', '--group', demo.group_id, '--processor', demo.processor_id, '--name', 'Second account']);
  assertObject(linkedAccountSchema, a, 'linked-account create');
  const list = await json<unknown[]>(['linked-account', 'list', '--group', demo.group_id]);
  for (const x of list) assertObject(linkedAccountSchema, x, 'linked-account list');
});

test('outbox list and outbox show --json print outbox e-mail objects', async () => {
  const t = await json(['sale', '--group', demo.group_id, '--amount', '3.00', '--token', 'tok_visa', '--email-receipt',
    '--first-name', 'Ada', '--last-name', 'Lovelace', '--line1', '1 Main St', '--city', 'Springfield', '--state', 'IL', '--zip', '62701', '--country', 'US', '--email', 'objects@example.com']);
  const list = await json<Array<{ id: string; related_id: string }>>(['outbox', 'list', '--kind', 'receipt']);
  for (const e of list) assertObject(outboxEmailSchema, e, 'outbox list');
  const mine = list.find((e) => e.related_id === t.id);
  assert.ok(mine, 'the receipt of the sale');
  const shown = await json(['outbox', 'show', mine.id]);
  assertObject(outboxEmailSchema, shown, 'outbox show');
  assert.equal(shown.to, 'objects@example.com');
  assert.deepEqual(shown, mine);
});
