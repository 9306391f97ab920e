// Testing an integration against a real `payctl serve`: one server for the whole suite,
// one sandbox per test (its own keys, data and clock), so the tests run in parallel and
// move time without touching each other. Copy this file and ./shop.ts to start.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shop } from './shop.js';

// In your project: the installed payctl (node_modules/payctl/bin/run.js, or `npx payctl`).
const PAYCTL = fileURLToPath(new URL('../../../bin/run.js', import.meta.url));
const ADMIN = 'padm_example_suite';
let url = '';
let server: ChildProcess;

before(async () => {
  const db = path.join(mkdtempSync(path.join(tmpdir(), 'shop-')), 'payctl.db');
  server = spawn(process.execPath, [PAYCTL, 'serve', '--port', '0', '--db', db], { env: { ...process.env, PAYCTL_ADMIN_TOKEN: ADMIN } });
  url = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      const m = /serving (http:\/\/\S+)\/api\/v1/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`payctl serve exited ${code}`)));
  });
});
after(() => server.kill());

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}/api/v1/sandboxes${path}`, { method, headers: { authorization: ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  return res.json();
};

/** A fresh sandbox (or a fork of one) for one test, dropped when the test ends. */
async function sandbox(t: TestContext | undefined, from?: string) {
  const sb = from ? await admin('POST', `/${from}/fork`) : await admin('POST', '', { name: t?.name });
  t?.after(() => admin('DELETE', `/${sb.group_id}`));
  return {
    shop: shop({ url, groupId: sb.group_id, accountId: sb.linked_account_id, processorId: sb.processor_id, keys: sb.keys }),
    advance: (by: string) => admin('POST', `/${sb.group_id}/clock`, { advance: by }),
    drop: () => admin('DELETE', `/${sb.group_id}`),
    groupId: sb.group_id as string,
    newId: (old: string): string => sb.id_map?.[old] ?? old,
  };
}

describe('shop', { concurrency: true }, () => {
  test('a card payment settles at the next daily cutoff', async (t) => {
    const { shop, advance } = await sandbox(t);
    const payment = await shop.checkout(2599, 'tok_visa');
    assert.equal(payment.status, 'pending');
    await advance('1d');
    assert.equal(await shop.paymentStatus(payment.id), 'settled');
  });

  test('a declined card is reported, not charged', async (t) => {
    const { shop } = await sandbox(t);
    assert.equal((await shop.checkout(1500, 'tok_visa_declined')).status, 'declined');
  });

  test('a membership renews every month', async (t) => {
    const { shop, advance } = await sandbox(t);
    const member = await shop.startMembership(999, 'tok_visa');
    assert.equal(member.metadata.charge_count, 1);
    await advance('31d'); // only this sandbox's month passes
    assert.equal((await shop.membership(member.id)).metadata.charge_count, 2);
  });
});

describe('a fixture built once, forked per test', { concurrency: true }, () => {
  let fixture: Awaited<ReturnType<typeof sandbox>>;
  let memberId = '';
  before(async () => {
    fixture = await sandbox(undefined);
    memberId = (await fixture.shop.startMembership(999, 'tok_visa')).id;
    await fixture.advance('365d'); // a year of billing history
  });
  after(() => fixture.drop());

  for (const months of [1, 2]) {
    test(`a year-old member billed ${months} more month(s)`, async (t) => {
      const copy = await sandbox(t, fixture.groupId); // every row, new ids, same clock
      await copy.advance(`${months * 31}d`);
      assert.equal((await copy.shop.membership(copy.newId(memberId))).metadata.charge_count, 13 + months);
    });
  }
});
