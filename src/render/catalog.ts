// Human output for products, invoices and partners.
import { paint, statusTone } from './colour.js';
import type { Invoice, Partner, Product } from '../domain/catalog.js';
import { dueDayOf, invoiceIncludedTax } from '../domain/catalog.js';
import { keyValues, table } from './table.js';
import { dateTime, money, moneyWithCents } from './format.js';

export function productDetails(p: Product): string {
  return keyValues([
    ['id', p.id],
    ['name', p.name],
    ['description', p.description],
    ['amount', moneyWithCents(p.amount)],
    ['tax included', moneyWithCents(p.included_tax_amount)],
    ['unit', p.unit_of_measure],
    ['created', dateTime(p.created_at)],
    ['updated', dateTime(p.updated_at)],
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
    ['created', dateTime(p.created_at)],
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
    ['amount', `${money(inv.amount)} (tax included ${money(invoiceIncludedTax(inv.products))})`],
    ['payment', [inv.card_enabled ? 'card' : '', inv.ach_enabled ? 'ACH' : ''].filter(Boolean).join(', ') || 'none online'],
    ['external id', inv.external_id],
    ['note', inv.note],
    ['page', pageUrl],
    ['created', dateTime(inv.created_at)],
    ['updated', dateTime(inv.updated_at)],
  ]);
  const lines = table(
    ['line id', { title: 'product', truncate: 12 }, 'quantity', 'unit price', 'line total'],
    inv.products.map((l) => [l.id, l.name, l.quantity, money(l.amount), money(l.amount * l.quantity)]),
  );
  return `${head}\n${lines}`;
}

export function invoiceTable(items: Invoice[]): string {
  return table(
    ['id', 'number', 'status', { title: 'partner', truncate: 12 }, 'due', 'amount'],
    items.map((i) => [i.id, i.invoice_number, invoiceStatusText(i.status), i.partner.company, dueDayOf(i.due_date), money(i.amount)]),
  );
}

export function productTable(items: Product[]): string {
  return table(
    ['id', { title: 'name', truncate: 12 }, 'amount', 'tax incl.', 'unit'],
    items.map((x) => [x.id, x.name, money(x.amount), money(x.included_tax_amount), x.unit_of_measure]),
  );
}

export function partnerTable(items: Partner[]): string {
  return table(
    ['id', { title: 'company', truncate: 12 }, { title: 'name', truncate: 10 }, { title: 'email', truncate: 12 }, { title: 'city', truncate: 8 }, 'country'],
    items.map((x) => [x.id, x.company, [x.first_name, x.last_name].filter(Boolean).join(' '), x.email, x.city, x.country]),
  );
}
