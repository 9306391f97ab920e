// The object lists of a group (transactions, customers, subscriptions, invoices, payment
// links): the API's own list use cases with the API's own filters, taken from the page's
// query string as they are (a bad one is the API's 400, shown on the page), paged as the
// API pages them (limit and offset: the spec's lists have no cursor, so a page's query
// string is the API call that answers the same rows; docs/dashboard.md "Paging"), each row
// linking to its object page.
import { report } from '../../../services/reporting/reporting.js';
import { listCustomers } from '../../../services/customers/customers.js';
import { listSubscriptions } from '../../../services/recurring/subscriptions.js';
import { listInvoices } from '../../../services/catalog/invoices.js';
import { listPaymentLinks } from '../../../services/payment-links/payment-links.js';
import { execute, executeRaw } from '../../../services/use-case.js';
import { formatMoney } from '../../../domain/money.js';
import { redactText } from '../../../domain/sensitive.js';
import { PAGE_LIMIT_DEFAULT } from '../../../domain/paging.js';
import { enc, html, queryString, type Html } from '../html.js';
import { tableWrap, when } from '../layout.js';
import type { Answer } from '../respond.js';
import { pathId, type ViewContext } from '../context.js';
import { groupScope, linkedAccountsOf, type GroupScope } from '../scope.js';
import { groupPage } from './group-page.js';
import { objectHref } from './object-links.js';

type Row = Record<string, unknown>;
type Query = Record<string, string | string[]>;

interface Filter {
  name: string;
  label: string;
  /** Fixed values (a select); free text otherwise. */
  options?: readonly string[];
}

interface ListKind {
  title: string;
  /** Listed per linked account (a select of the group's accounts). */
  perAccount: boolean;
  filters: Filter[];
  head: string[];
  cells(r: Row): Array<Html | string>;
  /** The object page's kind. */
  kind: string;
  fetch(s: GroupScope, q: Query, account: string | undefined): Promise<{ items: Row[]; total?: number }>;
}

const money = (n: unknown) => (typeof n === 'number' ? formatMoney(n) : '');
/** A field as a cell: a card number, key or secret a client put in it masked, as the journal masks it. */
const str = (v: unknown) => (v === undefined || v === null ? '' : redactText(String(v)));
const amounts = (r: Row) => (r.amounts ?? {}) as Record<string, unknown>;
const card = (r: Row) => ((r.payment_details as { card?: { brand: string; last_four: string } } | undefined)?.card);

const KINDS: Record<string, ListKind> = {
  transactions: {
    title: 'Transactions',
    perAccount: true,
    kind: 'transaction',
    filters: [
      { name: 'statuses', label: 'Statuses (comma list)' },
      { name: 'brands', label: 'Brands (comma list)' },
      { name: 'sources', label: 'Sources (comma list)' },
      { name: 'start', label: 'From (date or time)' },
      { name: 'end', label: 'To (date or time)' },
    ],
    head: ['Created', 'Status', 'Type', 'Amount', 'Card', 'Source', 'Description'],
    cells: (r) => [when(str(r.created_at)), str(r.status), str(r.transaction_type), money(amounts(r).requested_amount), card(r) ? `${card(r)!.brand} …${card(r)!.last_four}` : str(r.payment_method), str(r.source), str(r.description)],
    fetch: async (s, q, account) => {
      const r = await execute(report, s.g, s.ctx, { linked_account_id: account!, query: { ...q, type: 'table' } });
      return 'items' in r ? { items: r.items as unknown as Row[], total: r.total_count } : { items: [] };
    },
  },
  customers: {
    title: 'Customers',
    perAccount: false,
    kind: 'customer',
    filters: [],
    head: ['Created', 'Name', 'E-mail', 'Cards'],
    cells: (r) => [when(str(r.created_at)), `${str(r.first_name)} ${str(r.last_name)}`.trim(), str(r.email), String((r.cards as unknown[] | undefined)?.length ?? 0)],
    fetch: async (s, q) => ({ items: (await executeRaw(listCustomers, s.g, s.ctx, q)) as unknown as Row[] }),
  },
  subscriptions: {
    title: 'Subscriptions',
    perAccount: true,
    kind: 'subscription',
    filters: [
      { name: 'status', label: 'Status' },
      { name: 'plan_id', label: 'Plan id' },
      { name: 'customer_id', label: 'Customer id' },
    ],
    head: ['Created', 'Status', 'Amount', 'Cycle', 'Next bill', 'Description'],
    cells: (r) => [when(str(r.created_at)), str(r.status), money(amounts(r).amount), `${str(r.billing_factor)} ${str(r.billing_cycle)}`, when(r.next_bill_date as string | null), str(r.description)],
    fetch: async (s, q, account) => {
      const r = await executeRaw(listSubscriptions, s.g, s.ctx, { ...q, linked_account_id: account });
      return { items: r.data.items as unknown as Row[], total: r.data.total_count };
    },
  },
  invoices: {
    title: 'Invoices',
    perAccount: false,
    kind: 'invoice',
    filters: [
      { name: 'status', label: 'Status', options: ['', 'pending', 'past_due', 'paid', 'archived'] },
      { name: 'partner_id', label: 'Partner id' },
    ],
    head: ['Created', 'Number', 'Status', 'Amount', 'Due'],
    cells: (r) => [when(str(r.created_at)), str(r.invoice_number), str(r.status), money(r.amount), str(r.due_date).slice(0, 10)],
    fetch: async (s, q) => {
      const r = await executeRaw(listInvoices, s.g, s.ctx, q);
      return { items: r.data.items as unknown as Row[], total: r.data.total_count };
    },
  },
  'payment-links': {
    title: 'Payment links',
    perAccount: false,
    kind: 'payment_link',
    filters: [{ name: 'status', label: 'Status', options: ['', 'available', 'expired', 'paid', 'deactivated'] }],
    head: ['Created', 'Status', 'Amount', 'Description'],
    cells: (r) => [when(str(r.created_at)), str(r.status), money(r.amount), str(r.description)],
    fetch: async (s, q) => {
      const r = await executeRaw(listPaymentLinks, s.g, s.ctx, q);
      return { items: r.data.items as unknown as Row[], total: r.data.total_count };
    },
  },
};

/** The query string as the API reads it (repeated keys as a list), less the page's own keys. */
function apiQuery(url: URL, drop: string[]): Query {
  const q: Query = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (drop.includes(key)) continue;
    const all = url.searchParams.getAll(key).filter((v) => v !== '');
    if (all.length === 1) q[key] = all[0]!;
    else if (all.length > 1) q[key] = all;
  }
  return q;
}

function filterForm(c: ViewContext, k: ListKind, accounts: Array<{ id: string; name: string }>, account: string | undefined): Html {
  const v = (n: string) => c.url.searchParams.get(n) ?? '';
  return html`<form method="get" class="filters" aria-label="Filters">
${k.perAccount ? html`<label>Linked account <select name="linked_account_id">${accounts.map((a) => html`<option value="${a.id}"${a.id === account ? html` selected` : ''}>${a.name}</option>`)}</select></label>` : ''}
${k.filters.map((f) =>
  f.options
    ? html`<label>${f.label} <select name="${f.name}">${f.options.map((o) => html`<option value="${o}"${o === v(f.name) ? html` selected` : ''}>${o || 'any'}</option>`)}</select></label>`
    : html`<label>${f.label} <input name="${f.name}" value="${v(f.name)}" maxlength="200"></label>`,
)}
<label>Rows <input name="limit" value="${v('limit') || String(PAGE_LIMIT_DEFAULT)}" inputmode="numeric" size="4"></label>
<button type="submit">Apply</button></form>`;
}

function pager(c: ViewContext, shown: number, total: number | undefined, limit: number, offset: number): Html {
  const link = (o: number) => {
    const params: Record<string, string> = {};
    for (const [k, val] of c.url.searchParams) params[k] = val;
    return c.url.pathname + queryString({ ...params, offset: o });
  };
  const more = total === undefined ? shown === limit : offset + shown < total;
  return html`<nav class="pager" aria-label="Pages"><span>${shown === 0 ? 'No rows' : `Rows ${offset + 1}–${offset + shown}`}${total !== undefined ? ` of ${total}` : ''}</span>
${offset > 0 ? html`<a href="${link(Math.max(0, offset - limit))}" rel="prev">Previous</a>` : ''}
${more ? html`<a href="${link(offset + limit)}" rel="next">Next</a>` : ''}</nav>`;
}

export async function objectListPage(c: ViewContext): Promise<Answer> {
  const s = await groupScope(c.p, pathId(c, 'group_id'));
  const slug = pathId(c, 'kind');
  const k = KINDS[slug]!;
  const accounts = k.perAccount ? await linkedAccountsOf(s) : [];
  const account = k.perAccount ? (c.url.searchParams.get('linked_account_id') ?? accounts[0]?.id) : undefined;
  const q = apiQuery(c.url, ['linked_account_id']);
  const { items, total } = k.perAccount && !account ? { items: [], total: 0 } : await k.fetch(s, q, account);
  const limit = Number(q.limit ?? PAGE_LIMIT_DEFAULT);
  const offset = Number(q.offset ?? 0);
  const rows = items.map((r) => {
    const href = objectHref(s.head.id, k.kind, String(r.id));
    const cells = k.cells(r);
    return html`<tr><td><a href="${href}"><code class="id">${String(r.id)}</code></a></td>${cells.map((cell) => html`<td>${cell}</td>`)}</tr>`;
  });
  const body = html`${filterForm(c, k, accounts, account)}
${tableWrap(k.title, ['Id', ...k.head], rows, 'Nothing matches.')}
${pager(c, items.length, total, limit, offset)}`;
  return groupPage(c, s, slug, k.title, body);
}

export const objectListHref = (groupId: string, slug: string) => `/dashboard/groups/${enc(groupId)}/${slug}`;
