// Payment links: the spec's pay operation (both paths, session token, per-address rate
// limit), the public retrieval that yields the session token, the merchant's extension
// endpoints and the hosted pay page with its two static assets.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RawResponse, keyAuth, publicAuth, sessionAuth, type RouteDef, route } from '../route.js';
import { PAY_RATE_LIMIT } from '../rate-limit.js';
import { PAGE_HEADERS } from '../page-headers.js';
import { packageRoot } from '../../lib/paths.js';
import {
  createPaymentLink,
  deactivatePaymentLink,
  getPaymentLink,
  listPaymentLinks,
  payPaymentLink,
  paymentLinkGroup,
  retrievePublicPaymentLink,
} from '../../services/payment-links/payment-links.js';
import { payPageFacts } from '../../services/payment-links/pay-page.js';
import { renderPayPage } from '../pay-page.js';
import {
  paymentLinkListSchema,
  paymentLinkPayResultSchema,
  paymentLinkSchema,
  payPaymentLinkRequestSchema,
  publicPaymentLinkSchema,
} from '../../domain/payment-links.js';
import { execute, executeRaw } from '../../services/use-case.js';

const TAG = 'Payment Links';
const PAY_DESCRIPTION =
  'Authorization carries the session_token from GET /api/v1/payment-links/{payment_link_id} (scoped to that link, ' +
  '30 minutes of platform time). 401 missing/unknown/expired token, 403 token of another link, 400 validation error ' +
  'or link no longer available (paid, deactivated, expired), 400 invalid_request with code payment_declined and the ' +
  'processor\'s response_code/response_text when the payment is declined (nothing charged; the attempt is a declined transaction, whose id is transaction_id; the link stays available), ' +
  '429 rate limited per client address (Retry-After, RateLimit headers). `amount` only for open-amount links.';

const pages = path.join(packageRoot, 'src/http/pages');
const ASSETS: Record<string, string> = {
  'pay.css': 'text/css; charset=utf-8',
  'pay.js': 'text/javascript; charset=utf-8',
};

export const paymentLinkRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/api/v1/payment-links/:payment_link_id',
    summary: 'Retrieve a payment link (public) with a session token for paying it',
    description: 'No API key. Each retrieval issues a new session_token scoped to this link, valid 30 minutes of platform time.',
    tag: TAG,
    extension: true,
    auth: publicAuth,
    response: publicPaymentLinkSchema,
    handler: (c) => executeRaw(retrievePublicPaymentLink, c.platform, c.ctx, { payment_link_id: c.params.payment_link_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/payment-links/:payment_link_id/pay',
    summary: 'Pay Payment Link',
    description: PAY_DESCRIPTION,
    tag: TAG,
    auth: sessionAuth,
    rateLimit: PAY_RATE_LIMIT,
    body: payPaymentLinkRequestSchema,
    response: paymentLinkPayResultSchema,
    // The link's group is the sandbox whose faults (operation pay) apply, as on the group path.
    faultGroupOf: (c) => execute(paymentLinkGroup, c.platform, c.ctx, { payment_link_id: c.params.payment_link_id }),
    handler: (c) =>
      executeRaw(payPaymentLink, c.platform, c.ctx, {
        payment_link_id: c.params.payment_link_id,
        authorization: c.authorization,
        body: c.body,
        client_ip: c.clientIp,
      }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/payment-links/:payment_link_id/pay',
    summary: 'Pay Payment Link (group path of the usage example)',
    description: `${PAY_DESCRIPTION} The link must belong to {group_id} (404 otherwise).`,
    tag: TAG,
    auth: sessionAuth,
    rateLimit: PAY_RATE_LIMIT,
    body: payPaymentLinkRequestSchema,
    response: paymentLinkPayResultSchema,
    handler: (c) =>
      executeRaw(payPaymentLink, c.platform, c.ctx, {
        payment_link_id: c.params.payment_link_id,
        group_id: c.params.group_id,
        authorization: c.authorization,
        body: c.body,
        client_ip: c.clientIp,
      }),
  }),
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/payment-links',
    summary: 'Create a payment link',
    description: 'A fixed `amount` in cents, or `open_amount: true` for the payer to name it.',
    tag: TAG,
    extension: true,
    auth: keyAuth('manage_transactions'),
    body: createPaymentLink.input,
    response: paymentLinkSchema,
    handler: (c) => executeRaw(createPaymentLink, c.platform, c.groupCtx, c.body),
  },
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/payment-links',
    summary: 'List payment links, newest first',
    tag: TAG,
    extension: true,
    auth: keyAuth('manage_transactions'),
    query: listPaymentLinks.input,
    response: paymentLinkListSchema,
    handler: (c) => executeRaw(listPaymentLinks, c.platform, c.groupCtx, c.query),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/payment-links/:payment_link_id',
    summary: 'Get a payment link',
    tag: TAG,
    extension: true,
    auth: keyAuth('manage_transactions'),
    response: paymentLinkSchema,
    handler: (c) => executeRaw(getPaymentLink, c.platform, c.groupCtx, { payment_link_id: c.params.payment_link_id }),
  }),
  route({
    method: 'POST',
    path: '/api/v1/groups/:group_id/payment-links/:payment_link_id/deactivate',
    summary: 'Deactivate a payment link (it can no longer be paid)',
    tag: TAG,
    extension: true,
    auth: keyAuth('manage_transactions'),
    response: paymentLinkSchema,
    handler: (c) => executeRaw(deactivatePaymentLink, c.platform, c.groupCtx, { payment_link_id: c.params.payment_link_id }),
  }),
  route({
    method: 'GET',
    path: '/pay/:payment_link_id',
    summary: 'Hosted pay page',
    tag: TAG,
    hidden: true,
    auth: publicAuth,
    handler: async (c) => {
      const facts = await executeRaw(payPageFacts, c.platform, c.ctx, { payment_link_id: c.params.payment_link_id });
      if (!facts) return new RawResponse(404, await readFile(path.join(pages, 'pay-not-found.html')), PAGE_HEADERS);
      return new RawResponse(200, await renderPayPage(facts), PAGE_HEADERS);
    },
  }),
  route({
    method: 'GET',
    path: '/pay/assets/:file',
    summary: 'Hosted pay page assets',
    tag: TAG,
    hidden: true,
    auth: publicAuth,
    handler: async (c) => {
      const type = Object.hasOwn(ASSETS, c.params.file) ? ASSETS[c.params.file] : undefined;
      if (!type) return new RawResponse(404, 'not found', { 'Content-Type': 'text/plain; charset=utf-8' });
      return new RawResponse(200, await readFile(path.join(pages, c.params.file)), { 'Content-Type': type, 'Cache-Control': 'no-cache' });
    },
  }),
];
