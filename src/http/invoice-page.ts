// The public invoice page (GET /invoices/{slug}): the HTML template in pages/invoice.html
// filled with the invoice, every value HTML-escaped. Paying happens in the browser
// (pages/invoice-page.js): tokenize, then POST /api/v1/invoices/{slug}/pay.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../lib/paths.js';
import { dueDayOf, invoiceIncludedTax, type Invoice, type InvoiceStatus } from '../domain/catalog.js';
import { formatMoney } from '../domain/money.js';

const PAGES = path.join(packageRoot, 'src/http/pages');

export const readPageFile = (name: string) => readFile(path.join(PAGES, name));

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STATUS_LABELS: Record<InvoiceStatus, string> = { pending: 'Pending', past_due: 'Past due', paid: 'Paid', archived: 'Archived' };

/** Headers of every hosted page: the slug is a secret, so no referrer, no framing, no caching, own origin only. */

function partnerLines(inv: Invoice): string[] {
  const p = inv.partner;
  const person = [p.first_name, p.last_name].filter(Boolean).join(' ');
  const cityLine = [p.city, [p.subdivision, p.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [p.company, person, p.line_1, p.line_2, cityLine, p.country, p.email].filter((s) => s.trim() !== '');
}

function lineRows(inv: Invoice): string {
  return inv.products
    .map((l) => {
      const desc = l.description ? `<span class="desc">${escapeHtml(l.description)}</span>` : '';
      return (
        `<tr><td><strong>${escapeHtml(l.name)}</strong>${desc}</td>` +
        `<td class="num" data-label="Quantity">${l.quantity}</td>` +
        `<td class="num" data-label="Unit price">${formatMoney(l.amount)}</td>` +
        `<td class="num" data-label="Line total">${formatMoney(l.amount * l.quantity)}</td></tr>`
      );
    })
    .join('');
}

/** What the page offers: a payment form, or a closing message. */
function paymentState(inv: Invoice, merchant: string): { payable: boolean; title: string; text: string } {
  if (inv.status === 'paid') return { payable: false, title: 'Paid', text: 'This invoice has been paid. Thank you!' };
  if (inv.status === 'archived') return { payable: false, title: 'Archived', text: 'This invoice has been archived and can no longer be paid.' };
  if (inv.amount === 0) return { payable: false, title: 'Nothing to pay', text: `The total of this invoice is ${formatMoney(0)}.` };
  if (!inv.card_enabled && !inv.ach_enabled) {
    return { payable: false, title: 'Payment', text: `Online payment is not available for this invoice. Please contact ${merchant || 'the sender'}.` };
  }
  return { payable: true, title: '', text: '' };
}

export async function renderInvoicePage(merchantName: string, inv: Invoice): Promise<string> {
  const template = (await readPageFile('invoice.html')).toString('utf8');
  const state = paymentState(inv, merchantName);
  const both = inv.card_enabled && inv.ach_enabled;
  const hidden = (h: boolean) => (h ? 'hidden' : '');
  // Pre-escaped HTML fragments and attributes; every other value is escaped below.
  const raw: Record<string, string> = {
    bill_to: partnerLines(inv).map(escapeHtml).join('\n'),
    lines: lineRows(inv),
    note_hidden: hidden(!inv.note),
    pay_hidden: hidden(!state.payable),
    result_hidden: hidden(state.payable),
    methods_hidden: hidden(!both),
    card_checked: inv.card_enabled ? 'checked' : '',
    ach_checked: !inv.card_enabled && inv.ach_enabled ? 'checked' : '',
    card_hidden: hidden(!inv.card_enabled),
    ach_hidden: hidden(inv.card_enabled || !inv.ach_enabled),
  };
  const text: Record<string, string> = {
    merchant: merchantName,
    invoice_number: inv.invoice_number,
    slug: inv.slug,
    status: inv.status,
    status_label: STATUS_LABELS[inv.status],
    issued: inv.created_at.slice(0, 10),
    due_date: dueDayOf(inv.due_date),
    total: formatMoney(inv.amount),
    tax: formatMoney(invoiceIncludedTax(inv.products)),
    note: inv.note,
    card_enabled: String(inv.card_enabled),
    ach_enabled: String(inv.ach_enabled),
    result_title: state.title,
    result_text: state.text,
  };
  return template.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => {
    if (name in raw) return raw[name]!;
    if (name in text) return escapeHtml(text[name]!);
    throw new Error(`invoice page template: unknown placeholder ${whole}`);
  });
}

export function notFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice not found</title><link rel="stylesheet" href="/assets/invoice-page.css"></head>
<body><main class="invoice"><section class="card"><h1>Invoice not found</h1>
<p>This invoice link is not valid. Check the link in your e-mail, or contact the sender.</p></section></main></body></html>`;
}
