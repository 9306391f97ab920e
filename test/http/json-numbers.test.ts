import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteNonIntegerNumbers } from '../../src/lib/exact-json.js';

const cases: Array<[string, unknown]> = [
  ['{"a":100}', { a: 100 }],
  ['{"a":1e2}', { a: '1e2' }],
  ['{"a":100.0,"b":-2.5E3}', { a: '100.0', b: '-2.5E3' }],
  ['{"s":"1.5e3 in a string","n":[1,2.0]}', { s: '1.5e3 in a string', n: [1, '2.0'] }],
  ['{"s":"quote \\" then 1e5","t":true}', { s: 'quote " then 1e5', t: true }],
  ['[0,-0,12,-7]', [0, -0, 12, -7]],
];
for (const [raw, expected] of cases) {
  test(`numbers with a fraction or exponent become strings: ${raw}`, () => {
    assert.deepEqual(JSON.parse(quoteNonIntegerNumbers(raw)), expected);
  });
}

test('bodies without such numbers are returned as they are', () => {
  const raw = '{"amounts":{"requested_amount":1050},"email":"a.b@example.com"}';
  assert.equal(quoteNonIntegerNumbers(raw), raw);
});

test('a sale amount written 1e2 or 100.0 is a 400 naming the field; 100 is accepted', async () => {
  const { startTestServer } = await import('../helpers/server.js');
  const s = await startTestServer();
  try {
    const body = (amount: string) =>
      `{"type":"sale","source":"api","processor_id":"${s.demo.processor_id}","currency":"USD","email_address":"a@b.co","email_receipt":false,` +
      `"amounts":{"requested_amount":${amount}},"billing_address":{"first_name":"A","last_name":"B","line_1":"1 St","city":"X",` +
      `"subdivision":"IL","postal_code":"62701","country":"US","email":"a@b.co"},"payment_details":{"token":"tok_visa"}}`;
    for (const amount of ['1e2', '100.0', '1E+2']) {
      const r = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, {
        key: s.demo.keys.manage_transactions, raw: body(amount), headers: { 'content-type': 'application/json' },
      });
      assert.equal(r.status, 400, amount);
      assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), ['amounts.requested_amount'], amount);
    }
    const ok = await s.call('POST', `/api/v1/groups/${s.demo.group_id}/transaction`, {
      key: s.demo.keys.manage_transactions, raw: body('100'), headers: { 'content-type': 'application/json' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.amounts.requested_amount, 100);
  } finally {
    await s.close();
  }
});
