// The server serves groups, processors and API keys from memory and reads only a change
// counter per request: a change made by another process must still apply to the very
// next request (a revoked key refused at once, a new processor or key usable at once).
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/server.js';
import { openStore } from '../helpers/store.js';
import { runCli, runCliJson } from '../helpers/cli.js';
import { saleBody } from '../helpers/bodies.js';

test('a key revoked by `payctl key revoke` in another process is refused by the next request', async () => {
  const s = await startTestServer();
  try {
    const db = s.p.db.location;
    const created = await runCliJson<{ id: string; key: string }>(['key', 'create', '--group', s.demo.group_id, '--permission', 'manage_transactions'], { db });
    const sale = () => s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: created.key, body: saleBody(s.demo.processor_id) });
    // A key created by another process works at once, and is then cached.
    for (let i = 0; i < 3; i++) assert.equal((await sale()).status, 200);
    const revoked = await runCli(['key', 'revoke', created.id], { db });
    assert.equal(revoked.code, 0, revoked.stderr);
    const after = await sale();
    assert.equal(after.status, 401, after.text);
    assert.match(after.body.error.message, /revoked/);
    // Other keys keep working (the cache was refreshed, not poisoned).
    const other = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key: s.demo.keys.manage_transactions, body: saleBody(s.demo.processor_id) });
    assert.equal(other.status, 200, other.text);
  } finally {
    await s.close();
  }
});

test('a processor created by another process is usable by the next request; an unknown one is still refused', async () => {
  const s = await startTestServer();
  try {
    const key = s.demo.keys.manage_transactions;
    const sale = (processorId: string) => s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, { key, body: saleBody(processorId) });
    assert.equal((await sale(s.demo.processor_id)).status, 200);
    const made = await runCliJson<{ id: string }>(['processor', 'create', '--group', s.demo.group_id, '--type', 'merchant_level'], { db: s.p.db.location });
    const r = await sale(made.id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.processor_id ?? made.id, made.id);
    const unknown = await sale('018f0000-0000-7000-8000-000000000000');
    assert.equal(unknown.status, 400);
    assert.ok(unknown.body.error.fields.some((f: { path: string }) => f.path === 'processor_id'));
  } finally {
    await s.close();
  }
});

test('a stored card served from memory: a change or removal of the customer or card by another process applies to the next sale', async () => {
  const s = await startTestServer();
  const other = await openStore(s.dbPath); // another process's connection
  try {
    const g = s.demo.group_id;
    const added = await s.call('POST', `/api/v1/groups/${g}/processing/${s.demo.linked_account_id}/customers/${s.demo.customer_id}/payment_methods/card`, {
      key: s.demo.keys.manage_customers,
      body: { token: 'tok_visa', billing_address: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' } },
    });
    assert.equal(added.status, 200, added.text);
    const cardId = added.body.card_id as string;
    const { billing_address: _b, ...withoutBilling } = saleBody(s.demo.processor_id);
    const sale = () =>
      s.call('POST', `/api/v1/groups/${g}/transaction`, {
        key: s.demo.keys.manage_transactions,
        body: { ...withoutBilling, payment_details: { customer: { customer_id: s.demo.customer_id, card_id: cardId } } },
      });
    const names = async (id: string) => (await s.p.db.get<{ customer_name: string }>('SELECT customer_name FROM transactions WHERE id = ?', [id]))!.customer_name;
    for (let i = 0; i < 3; i++) assert.equal((await sale()).status, 200);
    // The customer renamed elsewhere: the next sale bills the new name.
    await other.write((tx) => tx.run("UPDATE customers SET first_name = 'Renamed', last_name = 'Elsewhere' WHERE id = ?", [s.demo.customer_id]));
    const renamed = await sale();
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(await names(renamed.body.id), 'Renamed Elsewhere');
    // The card removed elsewhere: the next sale is refused, naming the card.
    await other.write(async (tx) => {
      await tx.run('UPDATE transactions SET card_id = NULL WHERE card_id = ?', [cardId]);
      await tx.run('DELETE FROM customer_cards WHERE id = ?', [cardId]);
    });
    const gone = await sale();
    assert.equal(gone.status, 400, gone.text);
    assert.ok(gone.body.error.fields.some((f: { path: string }) => f.path === 'payment_details.customer.card_id'), gone.text);
  } finally {
    await other.close();
    await s.close();
  }
});
