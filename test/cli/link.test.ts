import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';

let db: string;
let groupId: string;
before(async () => {
  db = tempDbPath();
  const init = await runCliJson(['init', '--demo'], { db });
  groupId = init.group_id;
  assert.equal(init.payment_link_ids.length, 2, 'the demo adds two payment links');
});

test('init --demo prints the pay page of a demo link', async () => {
  const r = await runCli(['init', '--demo'], { db });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Pay page:\s+http:\/\/\S+\/pay\/[0-9a-f-]{36}/);
});

test('link create --amount 25.00 --json prints the link object with its id', async () => {
  const link = await runCliJson(
    ['link', 'create', '--group', groupId, '--amount', '25.00', '--description', 'Concert ticket', '--redirect-url', 'https://shop.example/thanks'],
    { db },
  );
  assert.match(link.id, /^[0-9a-f-]{36}$/);
  assert.equal(link.amount, 2500);
  assert.equal(link.open_amount, false);
  assert.equal(link.status, 'available');
  assert.equal(link.description, 'Concert ticket');
  assert.equal(link.redirect_url, 'https://shop.example/thanks');
  assert.equal(link.card_enabled, true);
  assert.match(link.url, new RegExp(`/pay/${link.id}$`));
});

test('--amount-cents and --open-amount', async () => {
  const cents = await runCliJson(['link', 'create', '--group', groupId, '--amount-cents', '1234', '--description', 'Cents'], { db });
  assert.equal(cents.amount, 1234);
  const open = await runCliJson(['link', 'create', '--group', groupId, '--open-amount', '--description', 'Donation', '--ach'], { db });
  assert.equal(open.amount, null);
  assert.equal(open.open_amount, true);
  assert.equal(open.ach_enabled, true);
});

test('human output names the link and its pay page', async () => {
  const r = await runCli(['link', 'create', '--group', groupId, '--amount', '9.99', '--description', 'Mug'], { db });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Created payment link [0-9a-f-]{36}/);
  assert.match(r.stdout, /\$9\.99 \(999 cents\)/);
  assert.match(r.stdout, /pay page\s+http:\/\/\S+\/pay\//);
});

test('bad money, both amount kinds and a missing description are usage errors (exit 2)', async () => {
  const money = await runCli(['link', 'create', '--group', groupId, '--amount', '12.345', '--description', 'x'], { db });
  assert.equal(money.code, 2, 'a usage error');
  assert.match(money.stderr, /--amount[^]*"12\.345" is not an amount of money/);
  const description = await runCli(['link', 'create', '--group', groupId, '--amount', '1.00'], { db });
  assert.equal(description.code, 2);
  assert.match(description.stderr, /missing required flag: --description/);
  const both = await runCli(['link', 'create', '--group', groupId, '--amount', '1.00', '--open-amount', '--description', 'x'], { db });
  assert.equal(both.code, 2, 'a usage error');
});

test('list, get and deactivate', async () => {
  const created = await runCliJson(['link', 'create', '--group', groupId, '--amount', '5', '--description', 'To switch off'], { db });
  const list = await runCliJson(['link', 'list', '--group', groupId, '--status', 'available'], { db });
  assert.equal(list.data.items[0].id, created.id, 'newest first');
  assert.ok(list.data.total_count >= 3);

  const got = await runCliJson(['link', 'get', created.id, '--group', groupId], { db });
  assert.equal(got.amount, 500);

  const off = await runCliJson(['link', 'deactivate', created.id, '--group', groupId], { db });
  assert.equal(off.status, 'deactivated');
  const deactivated = await runCliJson(['link', 'list', '--group', groupId, '--status', 'deactivated'], { db });
  assert.deepEqual(deactivated.data.items.map((l: { id: string }) => l.id), [created.id]);

  const human = await runCli(['link', 'list', '--group', groupId], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /To switch off/);
  assert.match(human.stdout, /open amount/);

  const missing = await runCli(['link', 'get', '00000000-0000-7000-8000-000000000000', '--group', groupId], { db });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /payment link not found/);
});
