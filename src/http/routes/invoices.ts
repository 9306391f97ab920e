import type { RouteDef } from '../route.js';
import { keyAuth, publicAuth, RawResponse, route } from '../route.js';
import { archiveInvoice, createInvoice, getInvoice, getPublicInvoice, invoicePdf, listInvoices, updateInvoice } from '../../services/catalog/invoices.js';
import { payInvoice } from '../../services/catalog/invoice-pay.js';
import {
  invoiceListSchema,
  invoicePaymentSchema,
  invoiceSchema,
  payInvoiceSchema,
  updateInvoiceSchema,
} from '../../domain/catalog.js';
import { AppError } from '../../errors.js';
import { executeRaw, withParams } from '../../services/use-case.js';
import { notFoundPage, readPageFile, renderInvoicePage } from '../invoice-page.js';
import { PAGE_HEADERS } from '../page-headers.js';

export const invoiceRoutes: RouteDef[] = [
  route({
    method: 'PUT',
    path: '/api/v1/groups/:group_id/invoices/:invoice_id',
    summary: 'Update Invoice',
    description:
      'A line with `id` keeps that attached line (its quantity may change); a line without `id` attaches the product anew; attached lines not sent are detached. The copied name, description, amount, included_tax_amount and unit_of_measure must equal the line\'s (or, for a new line, the product\'s) values: a differing copy is a 400. The amount is recomputed as the sum of amount × quantity. Archived and paid invoices cannot be updated (400).',
    tag: 'Invoices',
    auth: keyAuth('manage_invoices'),
    body: updateInvoiceSchema,
    response: invoiceSchema,
    handler: (c) => executeRaw(updateInvoice, c.platform, c.groupCtx, withParams(c.body, { invoice_id: c.params.invoice_id })),
  }),
  route({
    method: 'DELETE',
    path: '/api/v1/groups/:group_id/invoices/:invoice_id',
    summary: 'Archive Invoice',
    description: 'Any status → archived. Archiving an archived invoice returns it unchanged.',
    tag: 'Invoices',
    auth: keyAuth('manage_invoices'),
    response: invoiceSchema,
    handler: (c) => executeRaw(archiveInvoice, c.platform, c.groupCtx, { invoice_id: c.params.invoice_id }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/invoices/:invoice_id/download/pdf',
    summary: 'Download PDF',
    description: 'The invoice as a PDF (Content-Disposition: attachment; filename="<invoice_number>.pdf"), marked PAST DUE, PAID or ARCHIVED.',
    tag: 'Invoices',
    auth: keyAuth('manage_invoices', 'view_invoices'),
    produces: 'application/pdf',
    handler: async (c) => {
      const { filename, pdf } = await executeRaw(invoicePdf, c.platform, c.groupCtx, { invoice_id: c.params.invoice_id });
      return new RawResponse(200, pdf, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Content-Length': String(pdf.length),
        'Cache-Control': 'no-store',
      });
    },
  }),
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/invoices',
    summary: 'Create an invoice',
    description:
      'Lines name a product and a quantity; the product\'s values are copied. invoice_number is INV-<year>-<n zero-padded to 6>, n counting from 1 per group and UTC year of the platform clock. send_email: true queues the invoice e-mail with the public page link.',
    tag: 'Invoices',
    extension: true,
    auth: keyAuth('manage_invoices'),
    body: createInvoice.input,
    response: invoiceSchema,
    handler: (c) => executeRaw(createInvoice, c.platform, c.groupCtx, c.body),
  },
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/invoices',
    summary: 'List invoices',
    description: 'Newest first; `status` filters by the status as seen now (past_due included).',
    tag: 'Invoices',
    extension: true,
    auth: keyAuth('manage_invoices', 'view_invoices'),
    query: listInvoices.input,
    response: invoiceListSchema,
    handler: (c) => executeRaw(listInvoices, c.platform, c.groupCtx, c.query),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/invoices/:invoice_id',
    summary: 'Get an invoice',
    tag: 'Invoices',
    extension: true,
    auth: keyAuth('manage_invoices', 'view_invoices'),
    response: invoiceSchema,
    handler: (c) => executeRaw(getInvoice, c.platform, c.groupCtx, { invoice_id: c.params.invoice_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/invoices/:slug/pay',
    summary: 'Pay an invoice (public invoice page)',
    description:
      'No API key: the slug of the public page identifies the invoice. Takes a card or bank-account token from POST /api/v1/tokens, runs a sale (source invoice) and marks the invoice paid. A decline keeps the invoice payable and returns the transaction\'s response_code and response_text.',
    tag: 'Invoices',
    extension: true,
    auth: publicAuth,
    body: payInvoiceSchema,
    response: invoicePaymentSchema,
    handler: (c) => executeRaw(payInvoice, c.platform, c.ctx, withParams(c.body, { slug: c.params.slug, client_ip: c.clientIp })),
  }),
  route({
    method: 'GET',
    path: '/invoices/:slug',
    summary: 'Public invoice page',
    tag: 'Invoices',
    hidden: true,
    auth: publicAuth,
    handler: async (c) => {
      try {
        const { merchantName, invoice } = await executeRaw(getPublicInvoice, c.platform, c.ctx, { slug: c.params.slug });
        return new RawResponse(200, await renderInvoicePage(merchantName, invoice), PAGE_HEADERS);
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return new RawResponse(404, notFoundPage(), PAGE_HEADERS);
        throw err;
      }
    },
  }),
  {
    method: 'GET',
    path: '/assets/invoice-page.css',
    summary: 'Invoice page style sheet',
    tag: 'Invoices',
    hidden: true,
    auth: publicAuth,
    handler: async () =>
      new RawResponse(200, await readPageFile('invoice-page.css'), { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }),
  },
  {
    method: 'GET',
    path: '/assets/invoice-page.js',
    summary: 'Invoice page script',
    tag: 'Invoices',
    hidden: true,
    auth: publicAuth,
    handler: async () =>
      new RawResponse(200, await readPageFile('invoice-page.js'), {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
      }),
  },
];
