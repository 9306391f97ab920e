// Human output for products, invoices and partners.
import { paint, statusTone } from './colour.js';
import type { Invoice, Partner, Product } from '../domain/catalog.js';
import { dueDayOf, invoiceIncludedTax } from '../domain/catalog.js';
import { formatMoney } from '../domain/money.js';
import { keyValues, table, when } from './table.js';

export function productDetails(p: Product): string {
  return keyValues([
    ['id', p.id],
    ['name', p.name],
    ['description', p.description],
    ['amount', `${formatMoney(p.amount)} (${p.amount} cents)`],
    ['tax included', `${formatMoney(p.included_tax_amount)} (${p.included_tax_amount} cents)`],
    ['unit', p.unit_of_measure],
    ['created', when(p.created_at)],
    ['updated', when(p.updated_at)],
  ]);
}

export const partnerName = (p: Partner): string => {
  const person = [p.first_name, p.last_name].filter(Boolean).join(' ');
  return person ? `${p.company} (${person})` : p.company;
};

export function partnerDetails(p: Partner): string {
  return keyValues([
    ['id', p.id],
    ['company', p.company],
    ['name', [p.first_name, p.last_name].filter(Boolean).join(' ')],
    ['email', p.email],
    ['address', [p.line_1, p.line_2, `${p.city}, ${p.subdivision} ${p.postal_code}`, p.country].filter(Boolean).join(', ')],
    ['created', when(p.created_at)],
  ]);
}

const STATUS: Record<Invoice['status'], string> = { pending: 'pending', past_due: 'PAST DUE', paid: 'paid', archived: 'archived' };
export const invoiceStatusText = (s: Invoice['status']) => paint(STATUS[s], statusTone(s));

export function invoiceDetails(inv: Invoice, pageUrl: string): string {
  const head = keyValues([
    ['id', inv.id],
    ['number', inv.invoice_number],
    ['status', invoiceStatusText(inv.status)],
    ['partner', `${partnerName(inv.partner)} <${inv.partner.email}>`],
    ['due date', dueDayOf(inv.due_date)],
    ['amount', `${formatMoney(inv.amount)} (tax included ${formatMoney(invoiceIncludedTax(inv.products))})`],
    ['payment', [inv.card_enabled ? 'card' : '', inv.ach_enabled ? 'ACH' : ''].filter(Boolean).join(', ') || 'none online'],
    ['external id', inv.external_id],
    ['note', inv.note],
    ['page', pageUrl],
    ['created', when(inv.created_at)],
    ['updated', when(inv.updated_at)],
  ]);
  const lines = table(
    ['line id', 'product', 'quantity', 'unit price', 'line total'],
    inv.products.map((l) => [l.id, l.name, l.quantity, formatMoney(l.amount), formatMoney(l.amount * l.quantity)]),
  );
  return `${head}\n${lines}`;
}

export function invoiceTable(items: Invoice[]): string {
  return table(
    ['id', 'number', 'status', 'partner', 'due', 'amount'],
    items.map((i) => [i.id, i.invoice_number, invoiceStatusText(i.status), i.partner.company, dueDayOf(i.due_date), formatMoney(i.amount)]),
  );
}
