// The foundation commands as a user runs them: help, init --demo, keys,
// tokens, customers, the clock, groups, and choosing the database.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { assertUserError, runCli, runCliJson } from '../helpers/cli.js';
import { databaseExists, tempDbPath } from '../helpers/platform.js';
import { openPlatform } from '../../src/services/platform.js';
import { authenticateKey } from '../../src/services/groups/keys.js';
import { PERMISSIONS } from '../../src/domain/permissions.js';
import { AppError } from '../../src/errors.js';

let db: string;
let demo: any; // eslint-disable-line @typescript-eslint/no-explicit-any

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
});

const json = <T = any>(args: string[], d = db) => runCliJson<T>(args, { db: d }); // eslint-disable-line @typescript-eslint/no-explicit-any

async function counts(dbPath: string): Promise<Record<string, number>> {
  const p = await openPlatform({ db: dbPath });
  try {
    const out: Record<string, number> = {};
    for (const table of ['groups', 'processors', 'linked_accounts', 'api_keys', 'customers', 'customer_cards', 'transactions']) {
      out[table] = (await p.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;
    }
    return out;
  } finally {
    await p.close();
  }
}

test('payctl --help lists the topics and the transaction commands', async () => {
  const r = await runCli(['--help'], { db });
  assert.equal(r.code, 0, r.stderr);
  for (const topic of ['clock', 'customer', 'group', 'key', 'token', 'card', 'transaction', 'outbox', 'processor', 'linked-account']) {
    assert.match(r.stdout, new RegExp(`^\\s+${topic}\\s`, 'm'), `topic ${topic}`);
  }
  for (const command of ['sale', 'auth', 'capture', 'void', 'refund', 'init']) {
    assert.match(r.stdout, new RegExp(`^\\s+${command}\\s`, 'm'), `command ${command}`);
  }
  const sale = await runCli(['sale', '--help'], { db });
  assert.match(sale.stdout, /--amount-cents/);
  assert.match(sale.stdout, /EXAMPLES/);
});

test('init --demo --json prints the documented shape', async () => {
  assert.equal(demo.db, db);
  for (const field of ['group_id', 'linked_account_id', 'processor_id', 'customer_id', 'card_id']) {
    assert.match(demo[field], /^[0-9a-f-]{36}$/, field);
  }
  assert.deepEqual(Object.keys(demo.keys).sort(), [...PERMISSIONS].sort());
  assert.equal(PERMISSIONS.length, 8);
  for (const key of Object.values(demo.keys)) assert.match(key as string, /^sk_test_\w{32}$/);
  assert.equal(demo.transaction_ids.length, 4);
  const human = await runCli(['init', '--demo'], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, new RegExp(`Demo group:\\s+${demo.group_id}`));
  assert.match(human.stdout, /manage_transactions\s+sk_test_/);
});

test('init --demo a second time returns the same ids and duplicates nothing', async () => {
  const before = await counts(db);
  const again = await json(['init', '--demo']);
  assert.deepEqual(again, demo);
  assert.deepEqual(await counts(db), before);
  // The demo keys work.
  const p = await openPlatform({ db: db });
  try {
    const info = await authenticateKey(p, demo.keys.manage_transactions);
    assert.equal(info.group_id, demo.group_id);
    assert.deepEqual(info.permissions, ['manage_transactions']);
  } finally {
    await p.close();
  }
});

test('key create / list / revoke; a revoked key is refused with 401', async () => {
  const created = await json(['key', 'create', '--group', demo.group_id, '--permission', 'view_invoices', '--permission', 'manage_invoices', '--name', 'ci']);
  assert.match(created.key, /^sk_test_/);
  assert.deepEqual(created.permissions, ['view_invoices', 'manage_invoices']);
  const listed = await json<Array<{ id: string; prefix: string; revoked_at: string | null }>>(['key', 'list', '--group', demo.group_id]);
  const mine = listed.find((k) => k.id === created.id);
  assert.ok(mine);
  assert.equal(mine.revoked_at, null);
  assert.ok(!JSON.stringify(listed).includes(created.key), 'the key itself is never listed');
  const p = await openPlatform({ db: db });
  try {
    assert.equal((await authenticateKey(p, created.key)).id, created.id);
    const revoked = await json(['key', 'revoke', created.id]);
    assert.ok(revoked.revoked_at);
    await assert.rejects(authenticateKey(p, created.key), (err: unknown) => err instanceof AppError && err.status === 401);
  } finally {
    await p.close();
  }
  const bad = await runCli(['key', 'create', '--group', demo.group_id, '--permission', 'everything'], { db });
  assert.equal(bad.code, 2, 'a bad option value is a usage error');
});

test('token create mints a single-use card or bank token', async () => {
  const card = await json(['token', 'create', '--card', '4111111111111111', '--exp', '12/39', '--cvv', '123', '--holder', 'Ada Lovelace']);
  assert.match(card.token, /^tok_\w+$/);
  assert.equal(card.type, 'card');
  assert.deepEqual([card.card.brand, card.card.first_six, card.card.last_four], ['Visa', '411111', '1111']);
  assert.ok(!JSON.stringify(card).includes('4111111111111111'));
  const bank = await json(['token', 'create', '--routing', '110000000', '--account', '000123456789']);
  assert.equal(bank.type, 'bank_account');
  assert.equal(bank.bank_account.last_four, '6789');
  const bad = await runCli(['token', 'create', '--card', '4111111111111112', '--exp', '12/39', '--cvv', '123'], { db });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Luhn/);
});

test('customer create / get', async () => {
  const c = await json(['customer', 'create', '--group', demo.group_id, '--first-name', 'Grace', '--last-name', 'Hopper', '--email', 'grace@example.com']);
  assert.deepEqual([c.first_name, c.last_name, c.email], ['Grace', 'Hopper', 'grace@example.com']);
  const got = await json(['customer', 'get', c.id, '--group', demo.group_id]);
  assert.equal(got.id, c.id);
  assert.deepEqual(got.cards, []);
  const human = await runCli(['customer', 'get', demo.customer_id, '--group', demo.group_id], { db });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Ada Lovelace/);
  assert.match(human.stdout, /Visa/, 'the demo card is listed');
  const missing = await runCli(['customer', 'get', '01900000-0000-7000-8000-000000000000', '--group', demo.group_id], { db });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /customer not found/);
});

test('clock show / advance / set', async () => {
  const d = tempDbPath();
  await json(['init'], d);
  const shown = await json(['clock', 'show'], d);
  assert.ok(Math.abs(Date.parse(shown.now) - Date.now()) < 60_000);
  const advanced = await json(['clock', 'advance', '1d12h'], d);
  assert.ok(Math.abs(advanced.offset_ms - 36 * 3_600_000) < 60_000, String(advanced.offset_ms));
  assert.equal(typeof advanced.work, 'object');
  const set = await json(['clock', 'set', '2031-01-01T00:00:00Z'], d);
  assert.ok(set.now.startsWith('2031-01-01T00:0'), set.now);
  assert.ok((await json(['clock', 'show'], d)).now.startsWith('2031-01-01'));
  const bad = await runCli(['clock', 'advance', 'soon'], { db: d });
  assert.equal(bad.code, 2);
});

test('group create / list', async () => {
  const d = tempDbPath();
  const a = await json(['group', 'create', '--name', 'Corner Shop'], d);
  const b = await json(['group', 'create', '--name', 'Big Store', '--pricing', 'interchange_plus'], d);
  assert.deepEqual([a.pricing, b.pricing], ['flat', 'interchange_plus']);
  const list = await json<Array<{ id: string; name: string }>>(['group', 'list'], d);
  assert.deepEqual(list.map((x) => x.name), ['Corner Shop', 'Big Store']);
  const human = await runCli(['group', 'list'], { db: d });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Corner Shop/);
  assert.match(human.stdout, /interchange_plus/);
});

test('--db and PAYCTL_DB choose the database (the flag wins)', async () => {
  const viaFlag = tempDbPath();
  const viaEnv = tempDbPath();
  const r1 = await runCli(['init', '--json', '--db', viaFlag]);
  assert.equal(JSON.parse(r1.stdout).db, viaFlag);
  const r2 = await runCli(['init', '--json'], { env: { PAYCTL_DB: viaEnv } });
  assert.equal(JSON.parse(r2.stdout).db, viaEnv);
  assert.ok((await databaseExists(viaFlag)) && (await databaseExists(viaEnv)));
  const both = await runCli(['group', 'create', '--name', 'Flagged', '--json', '--db', viaFlag], { env: { PAYCTL_DB: viaEnv } });
  assert.equal(both.code, 0, both.stderr);
  assert.deepEqual((await json<Array<{ name: string }>>(['group', 'list'], viaFlag)).map((x) => x.name), ['Flagged']);
  assert.deepEqual(await json(['group', 'list'], viaEnv), []);
});

test('an unknown --group is "group ID not found" (exit 1) on every command that takes --group', async () => {
  const unknown = '00000000-0000-7000-8000-000000000000';
  const commands: string[][] = [
    ['sale', '--amount', '1.00', '--token', 'tok_visa', '--email', 'ada@example.com'],
    ['customer', 'create', '--first-name', 'A', '--last-name', 'B'],
    ['key', 'create', '--permission', 'manage_transactions'],
    ['report'],
    ['plan', 'list'],
    ['invoice', 'list'],
    ['clock', 'show'],
    ['link', 'list'],
    ['product', 'list'],
  ];
  for (const args of commands) {
    const r = await runCli([...args, '--group', unknown], { db });
    assertUserError(r, new RegExp(`group ${unknown} not found`));
    assert.doesNotMatch(r.stderr, /is required/, args.join(' '));
  }
});
