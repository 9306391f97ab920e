// Invoices (spec 9, 10, 11; create, get and list are extensions). Status is stored as
// pending, paid or archived; past_due is derived from the due day and the platform
// clock every time an invoice is read, so it is right the moment the clock moves.
import type { Progress } from '../clock/chunks.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { forGroup, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event, updatedEvent } from '../events/events.js';
import { editField } from '../edit.js';
import type { GroupContext, RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import type { InvoiceListFilter } from '../../store/interfaces/catalog.js';
import {
  buildInvoiceLines,
  createInvoiceSchema,
  dueDateToTimestamp,
  dueDayOf,
  invoiceListQuerySchema,
  invoiceNumbering,
  invoicePageUrl,
  invoiceSlug,
  invoiceStatus,
  pastDueCutoffDay,
  reconcileInvoiceLines,
  SLUG_BYTES,
  updateInvoiceSchema,
  type Invoice,
  type InvoiceLine,
  type InvoiceList,
  type NewInvoiceLine,
  type ProductValues,
  type UpdateInvoiceInput,
} from '../../domain/catalog.js';
import type { InvoiceEntity, InvoiceLineEntity, PartnerEntity } from '../../domain/catalog-entities.js';
import { formatMoney } from '../../domain/money.js';
import { AppError, invalidRequest, notFound, parseOrThrow, validationError, type FieldProblem } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireGroup, requireProcessor } from '../groups/groups.js';
import { queueEmail } from '../mail/outbox.js';

// ---------------------------------------------------------------- reading

export function toInvoiceLine(row: InvoiceLineEntity): InvoiceLine {
  return {
    id: row.id,
    product_id: row.product_id,
    name: row.name,
    description: row.description,
    amount: row.amount,
    included_tax_amount: row.included_tax_amount,
    unit_of_measure: row.unit_of_measure,
    quantity: row.quantity,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The API object, with the status as seen at `nowIso` (past_due derived). */
export function toInvoice(row: InvoiceEntity, partner: PartnerEntity, lines: InvoiceLineEntity[], nowIso: string): Invoice {
  return {
    id: row.id,
    invoice_number: row.invoice_number,
    group_id: row.group_id,
    slug: row.slug,
    invoice_number_numeric: String(row.invoice_number_numeric),
    year: String(row.year),
    note: row.note,
    external_id: row.external_id,
    due_date: dueDateToTimestamp(row.due_date),
    send_email: row.send_email,
    processor_id: row.processor_id,
    card_enabled: row.card_enabled,
    ach_enabled: row.ach_enabled,
    partner,
    products: lines.map(toInvoiceLine),
    amount: row.amount,
    status: invoiceStatus(row.status, row.due_date, nowIso),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** An invoice with its partner and lines, as the API object. */
export async function loadInvoice(ex: Executor, row: InvoiceEntity, nowIso: string): Promise<Invoice> {
  const [partner, lines] = await Promise.all([ex.repos.partners.find(ex, row.group_id, row.partner_id), ex.repos.invoiceLines.listByInvoice(ex, row.id)]);
  return toInvoice(row, partner!, lines, nowIso);
}

export async function requireInvoice(ex: Executor, groupId: string, id: string): Promise<InvoiceEntity> {
  const row = await ex.repos.invoices.find(ex, groupId, id);
  if (!row) throw notFound('invoice');
  return row;
}

async function findInvoice(ctx: GroupContext, id: string): Promise<Invoice> {
  return loadInvoice(ctx.store, await requireInvoice(ctx.store, ctx.group, id), ctx.clock.nowIso());
}

export const getInvoice = useCase({
  input: z.object({ invoice_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, input) => findInvoice(ctx, input.invoice_id),
});

/** Newest first; `status` is the effective one (past_due and pending are told apart by the due day). */
export const listInvoices = useCase({
  input: invoiceListQuerySchema,
  run: (p: Platform, ctx: GroupContext, q) => invoicePage(ctx, q),
});

async function invoicePage(ctx: GroupContext, q: z.output<typeof invoiceListQuerySchema>): Promise<InvoiceList> {
  const groupId = ctx.group;
  const now = ctx.clock.nowIso();
  const today = pastDueCutoffDay(now);
  const filter: InvoiceListFilter = { limit: q.limit, offset: q.offset, partnerId: q.partner_id };
  if (q.status === 'past_due') Object.assign(filter, { stored: 'pending', dueBefore: today });
  else if (q.status === 'pending') Object.assign(filter, { stored: 'pending', dueFrom: today });
  else if (q.status !== undefined) filter.stored = q.status;
  const { items, total_count } = await ctx.store.repos.invoices.list(ctx.store, groupId, filter);
  const ids = items.map((i) => i.id);
  const [partners, lines] = await Promise.all([
    ctx.store.repos.partners.findMany(ctx.store, [...new Set(items.map((i) => i.partner_id))]),
    ctx.store.repos.invoiceLines.listByInvoices(ctx.store, ids),
  ]);
  const partnerById = new Map(partners.map((x) => [x.id, x]));
  const linesByInvoice = new Map<string, InvoiceLineEntity[]>(ids.map((id) => [id, []]));
  for (const l of lines) linesByInvoice.get(l.invoice_id)!.push(l);
  return {
    data: { items: items.map((r) => toInvoice(r, partnerById.get(r.partner_id)!, linesByInvoice.get(r.id)!, now)), total_count },
  };
}

// ---------------------------------------------------------------- writing

/** Run a check and collect its field problems instead of stopping at the first. */
async function collect<T>(problems: FieldProblem[], fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof AppError && e.type === 'validation_error' && e.fields) {
      problems.push(...e.fields);
      return undefined;
    }
    throw e;
  }
}

async function productsById(ex: Executor, groupId: string, ids: string[]): Promise<Map<string, ProductValues>> {
  const products = await ex.repos.products.findMany(ex, groupId, ids);
  return new Map(products.map((x) => [x.id, x]));
}

async function insertLines(tx: Tx, invoiceId: string, lines: Array<{ line: NewInvoiceLine; position: number }>, now: string) {
  const rows: InvoiceLineEntity[] = [];
  for (const { line, position } of lines) {
    const row: InvoiceLineEntity = {
      id: newId(),
      invoice_id: invoiceId,
      product_id: line.product_id,
      position,
      name: line.name,
      description: line.description,
      amount: line.amount,
      included_tax_amount: line.included_tax_amount,
      unit_of_measure: line.unit_of_measure,
      quantity: line.quantity,
      created_at: now,
      updated_at: now,
    };
    await tx.repos.invoiceLines.insert(tx, row);
    rows.push(row);
  }
  return rows;
}

/**
 * Create an invoice (extension). Numbering (invoiceNumbering): per group and UTC year
 * of the platform clock, n = last + 1 taken from invoice_counters inside this write, so
 * two concurrent creates never share a number. Lines copy their product's values now.
 * send_email queues the invoice e-mail with the public page link in the same write.
 */
export const createInvoice = useCase({
  input: createInvoiceSchema,
  run: (p: Platform, ctx: GroupContext, input) => create(p, ctx, input),
});

async function create(p: Platform, ctx: GroupContext, input: z.output<typeof createInvoiceSchema>): Promise<Invoice> {
  const groupId = ctx.group;
  await requireGroup(ctx.store, groupId);
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const problems: FieldProblem[] = [];
    const partner = await tx.repos.partners.find(tx, groupId, input.partner_id);
    if (!partner) problems.push({ path: 'partner_id', message: 'must be an existing partner of this group' });
    await collect(problems, () => requireProcessor(tx, groupId, input.processor_id));
    const products = await productsById(tx, groupId, input.products.map((l) => l.product_id));
    const built = await collect(problems, () => buildInvoiceLines(input.products, products));
    if (problems.length || !built || !partner) throw validationError(problems);

    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const year = now.getUTCFullYear();
    const n = await tx.repos.invoices.nextNumber(tx, groupId, year);
    const numbering = invoiceNumbering(year, n);
    const row: InvoiceEntity = {
      id: newId(),
      group_id: groupId,
      partner_id: partner.id,
      invoice_number: numbering.invoice_number,
      invoice_number_numeric: n,
      year,
      slug: invoiceSlug(randomBytes(SLUG_BYTES)),
      note: input.note ?? '',
      external_id: input.external_id ?? '',
      due_date: dueDayOf(input.due_date),
      send_email: input.send_email ?? false,
      processor_id: input.processor_id,
      card_enabled: input.card_enabled,
      ach_enabled: input.ach_enabled,
      amount: built.amount,
      status: 'pending',
      paid_transaction_id: null,
      paid_at: null,
      archived_at: null,
      created_at: nowIso,
      updated_at: nowIso,
    };
    await tx.repos.invoices.insert(tx, row);
    const lines = await insertLines(tx, row.id, built.lines.map((line, position) => ({ line, position })), nowIso);
    const invoice = toInvoice(row, partner, lines, nowIso);
    if (input.send_email) await queueInvoiceEmail(tx, p, invoice);
    emit(event('invoice.created', invoice));
    return invoice;
  });
}

async function queueInvoiceEmail(tx: Tx, p: Platform, invoice: Invoice): Promise<void> {
  const group = await tx.repos.groups.find(tx, invoice.group_id);
  const merchant = group?.name ?? 'Your supplier';
  const who = [invoice.partner.first_name, invoice.partner.last_name].filter(Boolean).join(' ') || invoice.partner.company;
  const url = invoicePageUrl(p.publicUrl, invoice.slug);
  const body = [
    `Hello ${who},`,
    '',
    `${merchant} sent you invoice ${invoice.invoice_number} for ${formatMoney(invoice.amount)}, due ${dueDayOf(invoice.due_date)}.`,
    ...(invoice.note ? ['', invoice.note] : []),
    '',
    `View and pay it online: ${url}`,
    '',
    `— ${merchant}`,
  ].join('\n');
  await queueEmail(tx, p, {
    kind: 'invoice',
    to: invoice.partner.email,
    subject: `Invoice ${invoice.invoice_number} from ${merchant}`,
    body,
    relatedId: invoice.id,
    groupId: invoice.group_id,
  });
}

/**
 * Update Invoice (spec 9): replaces note, external_id, due date, processor and payment
 * options, and reconciles the lines (reconcileInvoiceLines: keep by id, attach new,
 * detach the rest; differing copies of product values are refused). The amount is
 * recomputed from the resulting lines. Archived and paid invoices cannot be updated.
 */
async function update(ctx: GroupContext, id: string, given: (current: Invoice) => Promise<UpdateInvoiceInput>): Promise<Invoice> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const row = await requireInvoice(tx, groupId, id);
    if (row.status === 'archived') throw invalidRequest('an archived invoice cannot be updated');
    if (row.status === 'paid') throw invalidRequest('a paid invoice cannot be updated');
    const before = await loadInvoice(tx, row, ctx.clock.nowIso());
    const input = await given(before);

    const problems: FieldProblem[] = [];
    await collect(problems, () => requireProcessor(tx, groupId, input.processor_id));
    const existing = (await tx.repos.invoiceLines.listByInvoice(tx, row.id)).map(toInvoiceLine);
    const products = await productsById(tx, groupId, input.products.filter((l) => l.id === undefined).map((l) => l.product_id));
    const r = await collect(problems, () => reconcileInvoiceLines(existing, input.products, products));
    if (problems.length || !r) throw validationError(problems);

    const now = ctx.clock.nowIso();
    for (const line of r.detach) await tx.repos.invoiceLines.remove(tx, line.id);
    const added: Array<{ line: NewInvoiceLine; position: number }> = [];
    for (const [position, line] of r.lines.entries()) {
      if (line.id !== undefined) await tx.repos.invoiceLines.keep(tx, line.id, position, line.quantity, now);
      else added.push({ line, position });
    }
    await insertLines(tx, row.id, added, now);
    const next: InvoiceEntity = {
      ...row,
      note: input.note ?? '',
      external_id: input.external_id ?? '',
      due_date: dueDayOf(input.due_date),
      processor_id: input.processor_id,
      card_enabled: input.card_enabled,
      ach_enabled: input.ach_enabled,
      amount: r.amount,
      updated_at: now,
    };
    const { changes } = await tx.repos.invoices.updatePending(tx, next);
    if (changes !== 1) throw invalidRequest('the invoice changed while it was being updated; retry');
    const after = await loadInvoice(tx, next, now);
    const updated = updatedEvent('invoice.updated', before, after);
    if (updated) emit(updated);
    return after;
  });
}

export const updateInvoice = useCase({
  input: updateInvoiceSchema.safeExtend({ invoice_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, { invoice_id, ...fields }) => update(ctx, invoice_id, async () => fields),
});

/** The CLI's update: `edit` maps the current invoice to the full Update Invoice body (checked as the API's). */
export const editInvoice = useCase({
  input: z.object({ invoice_id: z.string(), edit: editField<Invoice>() }),
  run: (p: Platform, ctx: GroupContext, { invoice_id, edit }) =>
    update(ctx, invoice_id, async (current) => parseOrThrow(updateInvoiceSchema, await edit(current))),
});

/** Archive Invoice (spec 10): any status → archived; archiving again returns it unchanged. */
export const archiveInvoice = useCase({
  input: z.object({ invoice_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, input) => archive(ctx, input.invoice_id),
});

async function archive(ctx: GroupContext, id: string): Promise<Invoice> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const row = await requireInvoice(tx, groupId, id);
    const now = ctx.clock.nowIso();
    const { changes } = await tx.repos.invoices.archive(tx, row.id, now);
    const current = changes === 1 ? { ...row, status: 'archived' as const, archived_at: now, updated_at: now } : row;
    const invoice = await loadInvoice(tx, current, now);
    // Archiving again changes nothing and tells nothing new.
    if (changes === 1) emit(event('invoice.archived', invoice));
    return invoice;
  });
}

// ---------------------------------------------------------------- PDF and public page

export interface InvoicePdf {
  filename: string;
  pdf: Buffer;
  invoice: Invoice;
}

/** Download PDF (spec 11): the invoice as seen now (PAST DUE / ARCHIVED / PAID marked). */
export const invoicePdf = useCase({
  input: z.object({ invoice_id: z.string(), progress: z.custom<Progress>((v) => typeof v === 'function').optional() }),
  run: (p: Platform, ctx: GroupContext, input) => renderPdf(p, ctx, input.invoice_id, input.progress),
});

async function renderPdf(p: Platform, ctx: GroupContext, id: string, progress?: Progress): Promise<InvoicePdf> {
  const groupId = ctx.group;
  const invoice = await findInvoice(ctx, id);
  const group = await requireGroup(ctx.store, groupId);
  const { renderInvoicePdf } = await import('../../pdf/invoice.js');
  const pdf = await renderInvoicePdf({ merchantName: group.name, invoice, publicUrl: invoicePageUrl(p.publicUrl, invoice.slug), progress });
  return { filename: `${invoice.invoice_number}.pdf`, pdf, invoice };
}

export interface PublicInvoice {
  merchantName: string;
  invoice: Invoice;
}

/** The invoice behind a public page slug (no key: the slug is the 128-bit secret), as seen on its group's clock. */
export const getPublicInvoice = useCase({
  input: z.object({ slug: z.string() }),
  run: (p: Platform, ctx: RequestContext, input) => publicInvoice(p, input.slug),
});

async function publicInvoice(p: Platform, slug: string): Promise<PublicInvoice> {
  const row = await p.db.repos.invoices.findBySlug(p.db, slug);
  if (!row) throw notFound('invoice');
  const g = await forGroup(p, row.group_id);
  const [invoice, group] = await Promise.all([loadInvoice(p.db, row, g.clock.nowIso()), p.db.repos.groups.find(p.db, row.group_id)]);
  return { merchantName: group?.name ?? '', invoice };
}
