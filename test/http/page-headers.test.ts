// Both hosted pages — the invoice page and the payment-link pay page — answer with the
// same security headers, taken from one place (src/http/page-headers.ts): a page served
// with a header missing or different (a CSP loosened for one of them) fails here.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PAGE_HEADERS } from '../../src/http/page-headers.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const headersOf = (res: Response) => Object.fromEntries(Object.keys(PAGE_HEADERS).map((name) => [name, res.headers.get(name)]));

test('the invoice page and the pay page (found or not) send the same security headers, those of page-headers.ts', async () => {
  const invoiceId = (s.demo.invoice_ids as string[])[0]!;
  const invoice = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/invoices/${invoiceId}`, { key: s.demo.keys.view_invoices });
  assert.equal(invoice.status, 200, invoice.text);
  const pages = {
    'invoice page': `/invoices/${invoice.body.slug}`,
    'unknown invoice page': '/invoices/no-such-slug',
    'pay page': `/pay/${(s.demo.payment_link_ids as string[])[0]}`,
    'unknown pay page': '/pay/01900000-0000-7000-8000-000000000000',
  };
  const seen: Record<string, Record<string, string | null>> = {};
  for (const [name, path] of Object.entries(pages)) {
    const res = await fetch(`${s.url}${path}`);
    await res.arrayBuffer();
    assert.ok(res.status === 200 || res.status === 404, `${name}: ${res.status}`);
    seen[name] = headersOf(res);
  }
  for (const [name, headers] of Object.entries(seen)) assert.deepEqual(headers, PAGE_HEADERS, name);
  assert.match(PAGE_HEADERS['Content-Security-Policy']!, /default-src 'none'/);
  assert.match(PAGE_HEADERS['Content-Security-Policy']!, /frame-ancestors 'none'/);
  assert.equal(PAGE_HEADERS['X-Frame-Options'], 'DENY');
});
