// Paying an invoice on its public page (extension, no key: the slug is the secret).
// The token is used, the sale runs through the transaction service and the invoice
// moves pending → paid, all in one write: a crash leaves either all of it or none.
// A decline is not an error: the declined transaction is kept, the invoice stays
// payable, and the result says why (response_code, response_text).
import { platformClock, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { chargeEvent, event, forGroup } from '../events/events.js';
import { actFor, type RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { z } from 'zod';
import { invoiceIncludedTax, invoiceStatus, payInvoiceSchema, type InvoicePayment } from '../../domain/catalog.js';
import { formatMoney } from '../../domain/money.js';
import { invalidRequest, notFound } from '../../errors.js';
import { consumeToken } from '../tokens/tokens.js';
import { chargeInTx } from '../transactions/charge.js';
import { loadInvoice } from './invoices.js';

/** The body's token, the page's slug and the paying client's address. */
export const payInvoice = useCase({
  input: payInvoiceSchema.safeExtend({ slug: z.string(), client_ip: z.string().optional() }),
  run: (platform: Platform, request: RequestContext, input) => pay(platform, request, input),
});

async function pay(platform: Platform, request: RequestContext, input: { slug: string; token: string; client_ip?: string | undefined }): Promise<InvoicePayment> {
  const slug = input.slug;
  return unitOfWork(request, async ({ tx, emit }) => {
    const row = await tx.repos.invoices.findBySlug(tx, slug);
    if (!row) throw notFound('invoice');
    const { p, ctx } = await actFor(platform, request, row.group_id, tx);
    if (row.status === 'paid') throw invalidRequest('this invoice is already paid');
    if (row.status === 'archived') throw invalidRequest('this invoice is archived and can no longer be paid');
    if (row.amount === 0) throw invalidRequest(`the invoice total is ${formatMoney(0)}; there is nothing to pay`);

    const now = ctx.clock.now();
    const token = await consumeToken(tx, input.token, platformClock(p).now(), 'token');
    const method = token.type === 'card' ? 'card' : 'ach';
    if (method === 'card' && !row.card_enabled) {
      throw invalidRequest('card payments are not enabled for this invoice', [{ path: 'token', message: 'must be a bank account token (ACH)' }]);
    }
    if (method === 'ach' && !row.ach_enabled) {
      throw invalidRequest('ACH payments are not enabled for this invoice', [{ path: 'token', message: 'must be a card token' }]);
    }

    const [partner, lines] = await Promise.all([tx.repos.partners.find(tx, row.group_id, row.partner_id), tx.repos.invoiceLines.listByInvoice(tx, row.id)]);
    const transaction = await chargeInTx(tx, p, ctx.clock, {
      groupId: row.group_id,
      processorId: row.processor_id,
      type: 'sale',
      source: 'invoice',
      payment: { kind: 'token', token },
      amounts: { requested: row.amount, tax: invoiceIncludedTax(lines) },
      billingAddress: partner
        ? {
            first_name: partner.first_name, last_name: partner.last_name, company: partner.company, line_1: partner.line_1,
            line_2: partner.line_2, city: partner.city, subdivision: partner.subdivision, postal_code: partner.postal_code,
            country: partner.country, email: partner.email,
          }
        : undefined,
      email: partner?.email,
      emailReceipt: true,
      description: `Invoice ${row.invoice_number}`,
      orderId: row.invoice_number,
      ipAddress: input.client_ip,
      links: { invoiceId: row.id, invoiceNumber: row.invoice_number, invoiceExternalId: row.external_id || undefined },
    });

    const nowIso = now.toISOString();
    let status = invoiceStatus(row.status, row.due_date, nowIso);
    emit(forGroup(chargeEvent(transaction), ctx));
    if (transaction.status !== 'declined') {
      const { changes } = await tx.repos.invoices.markPaid(tx, row.id, transaction.id, nowIso);
      if (changes !== 1) throw invalidRequest('this invoice can no longer be paid');
      status = 'paid';
      const paid = await loadInvoice(tx, { ...row, status: 'paid', paid_transaction_id: transaction.id, paid_at: nowIso, updated_at: nowIso }, nowIso);
      emit(forGroup(event('invoice.paid', paid), ctx));
    }
    return {
      invoice_id: row.id,
      invoice_number: row.invoice_number,
      status,
      amount: row.amount,
      payment_method: method,
      transaction_id: transaction.id,
      transaction_status: transaction.status,
      response_code: transaction.response_code,
      response_text: transaction.response_text,
    };
  });
}
