// The hosted pay page (GET /pay/{id}): the HTML template in pages/pay.html with the
// merchant's name and, for a paid link, its receipt filled in on the server (every value
// HTML-escaped), so the receipt is there to read or print without a script. The form
// and the link's amount are driven by pages/pay.js through the public API.
import type { PayPageFacts } from '../services/payment-links/pay-page.js';
import { formatMoney } from '../domain/money.js';
import { escapeHtml, readPageFile } from './invoice-page.js';

/** "2026-11-26T14:10:05.123Z" → "2026-11-26 14:10 UTC" (the page shows platform time in UTC). */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function receiptHtml(facts: PayPageFacts): string {
  const r = facts.receipt;
  if (!r) return '';
  const rows: Array<[string, string, string]> = [
    ['Amount paid', 'receipt-amount', formatMoney(r.amount)],
    ['Paid with', 'receipt-method', r.paid_with],
    ['Transaction', 'receipt-transaction', r.transaction_id],
    ['Date', 'receipt-date', when(r.paid_at)],
  ];
  return (
    '<section id="receipt" class="receipt" aria-labelledby="receipt-title" hidden>' +
    '<h2 id="receipt-title">Receipt</h2>' +
    `<p class="paid-to">Paid to ${escapeHtml(facts.merchant_name || 'the merchant')}. Thank you!</p>` +
    '<dl>' +
    rows.map(([label, id, value]) => `<dt>${label}</dt><dd data-testid="${id}">${escapeHtml(value)}</dd>`).join('') +
    '</dl>' +
    '<button type="button" id="print-receipt" class="secondary">Print receipt</button>' +
    '</section>'
  );
}

export async function renderPayPage(facts: PayPageFacts): Promise<string> {
  const template = (await readPageFile('pay.html')).toString('utf8');
  return template.replaceAll('{{merchant}}', escapeHtml(facts.merchant_name)).replace('{{receipt}}', receiptHtml(facts));
}
