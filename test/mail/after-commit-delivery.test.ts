import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/server.js';
import { startTestSmtp } from '../helpers/smtp.js';
import { saleBody } from '../helpers/bodies.js';

// A receipt is delivered over SMTP after its write commits. Delivery records its outcome
// with a write of its own, so it must not run inside the writer's loop: awaiting it there
// would wait on a write queued behind itself and stall every later write.
test('a sale with email_receipt under SMTP answers, delivers the receipt, and later writes still commit', async () => {
  const smtp = await startTestSmtp('accept');
  const s = await startTestServer({ env: { PAYCTL_SMTP_URL: smtp.url } });
  try {
    const path = `/api/v1/groups/${s.demo.group_id}/transaction`;
    const key = s.demo.keys.manage_transactions;
    const sale = await s.call('POST', path, { key, body: saleBody(s.demo.processor_id, { emailReceipt: true, orderId: 'receipt-1' }) });
    assert.equal(sale.status, 200);
    const next = await s.call('POST', path, { key, body: saleBody(s.demo.processor_id, { orderId: 'after-1' }) });
    assert.equal(next.status, 200);
    // Delivery runs after the commit; wait for it (and the write recording its outcome) to finish.
    await s.p.db.afterCommitSettled();
    const row = await s.p.db.get<{ status: string }>('SELECT status FROM outbox WHERE related_id = ?', [sale.body.id]);
    assert.equal(row?.status, 'sent');
    assert.equal(smtp.received.length, 1);
    assert.ok(!smtp.received[0]!.raw.includes('4111111111111111'));
  } finally {
    await s.close();
    await smtp.close();
  }
});
