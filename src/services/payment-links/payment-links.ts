// Payment links: created by the merchant (CLI or extension endpoint), retrieved publicly
// with a session token scoped to the link, and paid once by an end-user. Paying marks the
// link paid with a compare-and-set in the same write as the charge, so of two
// simultaneous pays exactly one charges; the other rolls back. A declined card is a
// declined transaction, and the link stays available.
import { z } from 'zod';
import { forGroup, platformClock, type Platform } from '../platform.js';
import { useCase } from '../use-case.js';
import { unitOfWork } from '../unit-of-work.js';
import { chargeEvent, event } from '../events/events.js';
import { actFor, type GroupContext, type RequestContext } from '../context.js';
import type { Executor } from '../../store/interfaces/db.js';
import {
  createPaymentLinkSchema,
  effectiveStatus,
  paymentLinkListQuerySchema,
  paySchemaFor,
  type LinkStatus,
  type PaymentLink,
  type PaymentLinkEntity,
  type PaymentLinkList,
  type PaymentLinkPayResult,
  type PublicPaymentLink,
} from '../../domain/payment-links.js';
import { AppError, authenticationError, invalidRequest, notFound, parseOrThrow, permissionError, validationError } from '../../errors.js';
import { requireGroup, requireProcessor } from '../groups/groups.js';
import { consumeToken } from '../tokens/tokens.js';
import { chargeInTx } from '../transactions/charge.js';
import { newId, randomBase62 } from '../../lib/ids.js';
import { sha256 } from '../../lib/hash.js';

/** A session token lives 30 minutes of platform time from the public retrieval. */
export const SESSION_TTL_MS = 30 * 60 * 1000;
/** Expired session rows are kept a day (so a late pay still hears "expired"), then purged. */
const SESSION_PURGE_AFTER_MS = 24 * 3_600_000;

// ---------------------------------------------------------------- merchant side

export const createPaymentLink = useCase({
  input: createPaymentLinkSchema,
  run: (p: Platform, ctx: GroupContext, input) => create(p, ctx, input),
});

async function create(p: Platform, ctx: GroupContext, input: z.output<typeof createPaymentLinkSchema>): Promise<PaymentLink> {
  const groupId = ctx.group;
  await requireGroup(ctx.store, groupId);
  const processorId = input.processor_id
    ? (await requireProcessor(ctx.store, groupId, input.processor_id)).id
    : (await ctx.store.repos.processors.listByGroup(ctx.store, groupId))[0]?.id;
  if (!processorId) throw validationError([{ path: 'processor_id', message: 'the group has no processor; create one first (payctl processor create)' }]);
  const now = ctx.clock.nowIso();
  if (input.expires_at !== undefined && input.expires_at <= now) {
    throw validationError([{ path: 'expires_at', message: 'must be in the future (platform time)' }]);
  }
  const row: PaymentLinkEntity = {
    id: newId(),
    group_id: groupId,
    processor_id: processorId,
    amount: input.open_amount ? null : input.amount!,
    description: input.description,
    redirect_url: input.redirect_url ?? '',
    card_enabled: input.card_enabled !== false,
    ach_enabled: input.ach_enabled ?? false,
    status: 'available',
    expires_at: input.expires_at ?? null,
    paid_transaction_id: null,
    created_at: now,
    updated_at: now,
  };
  return unitOfWork(ctx, async ({ tx, emit }) => {
    await tx.repos.paymentLinks.insert(tx, row);
    const link = toPaymentLink(p, row, now);
    emit(event('payment_link.created', link));
    return link;
  });
}

export const listPaymentLinks = useCase({
  input: paymentLinkListQuerySchema,
  run: (p: Platform, ctx: GroupContext, q) => linkPage(p, ctx, q),
});

async function linkPage(p: Platform, ctx: GroupContext, q: z.output<typeof paymentLinkListQuerySchema>): Promise<PaymentLinkList> {
  const groupId = ctx.group;
  await requireGroup(ctx.store, groupId);
  const now = ctx.clock.nowIso();
  const filter = { groupId, status: q.status, now, limit: q.limit, offset: q.offset };
  const [rows, total] = await Promise.all([ctx.store.repos.paymentLinks.list(ctx.store, filter), ctx.store.repos.paymentLinks.count(ctx.store, filter)]);
  return { data: { items: rows.map((r) => toPaymentLink(p, r, now)), total_count: total } };
}

const linkId = { payment_link_id: z.string() };

export const getPaymentLink = useCase({
  input: z.object(linkId),
  run: async (p: Platform, ctx: GroupContext, input): Promise<PaymentLink> =>
    toPaymentLink(p, await requireLink(ctx.store, ctx.group, input.payment_link_id), ctx.clock.nowIso()),
});

/** available (or expired) → deactivated; deactivating again returns the link unchanged; a paid link is a 400. */
export const deactivatePaymentLink = useCase({
  input: z.object(linkId),
  run: (p: Platform, ctx: GroupContext, input) => deactivate(p, ctx, input.payment_link_id),
});

async function deactivate(p: Platform, ctx: GroupContext, id: string): Promise<PaymentLink> {
  const groupId = ctx.group;
  return unitOfWork(ctx, async ({ tx }) => {
    const now = ctx.clock.nowIso();
    const row = await requireLink(tx, groupId, id);
    if (row.status === 'paid') throw invalidRequest('this payment link is already paid and cannot be deactivated');
    if (row.status === 'available') {
      const { changes } = await tx.repos.paymentLinks.deactivate(tx, id, now);
      if (changes !== 1) throw invalidRequest('this payment link changed while deactivating it; retry');
    }
    return toPaymentLink(p, (await tx.repos.paymentLinks.find(tx, id))!, now);
  });
}

const requireLink = async (ex: Executor, groupId: string, id: string): Promise<PaymentLinkEntity> =>
  (await ex.repos.paymentLinks.findInGroup(ex, groupId, id)) ?? Promise.reject(notFound('payment link'));

// ---------------------------------------------------------------- payer side

/**
 * Public retrieval (no key): the link's public fields and a new session token scoped to
 * it. Only the token's hash is stored. A token is issued whatever the link's status, so
 * paying a paid, deactivated or expired link gets its own answer (400), not a 401.
 */
export const retrievePublicPaymentLink = useCase({
  input: z.object(linkId),
  run: (platform: Platform, request: RequestContext, input) => retrieve(platform, request, input.payment_link_id),
});

async function retrieve(platform: Platform, request: RequestContext, id: string): Promise<PublicPaymentLink> {
  return unitOfWork(request, async ({ tx }) => {
    const row = await tx.repos.paymentLinks.find(tx, id);
    if (!row) throw notFound('payment link');
    // The session lives on the link's group clock.
    const now = (await actFor(platform, request, row.group_id, tx)).ctx.clock.now();
    const nowIso = now.toISOString();
    const token = `pls_${randomBase62(32)}`;
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
    await tx.repos.paymentLinkSessions.deleteExpiredBefore(tx, new Date(now.getTime() - SESSION_PURGE_AFTER_MS).toISOString());
    await tx.repos.paymentLinkSessions.insert(tx, { token_hash: sha256(token), payment_link_id: id, created_at: nowIso, expires_at: expiresAt });
    return {
      id: row.id,
      group_id: row.group_id,
      amount: row.amount,
      open_amount: row.amount === null,
      currency: 'USD' as const,
      description: row.description,
      card_enabled: row.card_enabled,
      ach_enabled: row.ach_enabled,
      status: effectiveStatus(row, nowIso),
      expires_at: row.expires_at,
      session_token: token,
      session_expires_at: expiresAt,
    };
  });
}

/** Whether a link exists (the hosted page answers 404 otherwise). */
export const paymentLinkExists = useCase({
  input: z.object(linkId),
  run: async (p: Platform, ctx: RequestContext, input): Promise<boolean> => (await ctx.store.repos.paymentLinks.find(ctx.store, input.payment_link_id)) !== undefined,
});

/**
 * A pay request. The body's shape depends on the link (an open-amount link also takes
 * the amount), and it is checked only after the session and the link's status, so it is
 * carried as it came and parsed with the link's own schema (`paySchemaFor`).
 */
const payInput = z.object({
  ...linkId,
  /** Set on /groups/{group_id}/payment-links/{id}/pay: the link must belong to it (else 404). */
  group_id: z.string().optional(),
  /** The session token (Authorization). */
  authorization: z.string().optional(),
  client_ip: z.string(),
  body: z.unknown(),
});

/** The group of a payment link (undefined when there is none): the sandbox whose faults the public pay path takes. */
export const paymentLinkGroup = useCase({
  input: z.object({ payment_link_id: z.string() }),
  run: async (p: Platform, ctx: RequestContext, input): Promise<string | undefined> => (await ctx.store.repos.paymentLinks.find(ctx.store, input.payment_link_id))?.group_id,
});

export const payPaymentLink = useCase({
  input: payInput,
  run: (platform: Platform, request: RequestContext, input) => pay(platform, request, input),
});

/**
 * Pay a link. Order of checks: session token (401 missing/unknown/expired, 403 another
 * link's), the link in the path's group (404), the link's status (400), the body (400),
 * then one write: compare-and-set available → paid, use the card token, charge. A
 * declined payment is kept as a declined transaction (its token used) and the link is
 * set back to available in that same write; the answer is then a 400 payment_declined.
 */
async function pay(platform: Platform, request: RequestContext, req: z.output<typeof payInput>): Promise<PaymentLinkPayResult> {
  await requireSession(platform, req.authorization, req.payment_link_id);
  const link = await platform.db.repos.paymentLinks.find(platform.db, req.payment_link_id);
  if (!link || (req.group_id !== undefined && link.group_id !== req.group_id)) throw notFound('payment link');
  const { p, ctx } = await actFor(platform, request, link.group_id, platform.db);
  assertAvailable(effectiveStatus(link, ctx.clock.nowIso()));
  const input = parseOrThrow(paySchemaFor(link), req.body);
  const amount = link.amount ?? (input as { amount: number }).amount;

  const outcome = await unitOfWork(ctx, async ({ tx, emit, answer }) => {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    const { changes } = await tx.repos.paymentLinks.markPaid(tx, link.id, nowIso);
    if (changes !== 1) {
      // Lost the race (or the link changed since the read above): nothing is charged.
      const current = await tx.repos.paymentLinks.find(tx, link.id);
      assertAvailable(current ? effectiveStatus(current, nowIso) : 'deactivated');
      throw invalidRequest('this payment link is no longer available');
    }
    const token = await consumeToken(tx, input.token, platformClock(p).now(), 'token');
    if (token.type === 'card' && !link.card_enabled) {
      throw invalidRequest('this payment link does not accept cards', [{ path: 'token', message: 'card payments are not enabled on this link' }]);
    }
    if (token.type === 'bank_account' && !link.ach_enabled) {
      throw invalidRequest('this payment link does not accept bank accounts (ACH)', [{ path: 'token', message: 'ACH payments are not enabled on this link' }]);
    }
    const txn = await chargeInTx(tx, p, ctx.clock, {
      groupId: link.group_id,
      processorId: link.processor_id,
      type: 'sale',
      ...(ctx.forcedOutcome ? { forcedOutcome: ctx.forcedOutcome } : {}),
      source: 'forms',
      payment: { kind: 'token', token },
      amounts: { requested: amount },
      billingAddress: input.billing_address,
      email: input.billing_address.email,
      emailReceipt: true,
      description: link.description,
      ipAddress: req.client_ip,
      links: { paymentLinkId: link.id },
    });
    if (txn.status === 'declined') {
      // The attempt reached the processor, so it is kept as a declined transaction (as a
      // declined sale is); the link goes back to available, as it was before this write.
      await tx.repos.paymentLinks.reopen(tx, link.id, link.updated_at);
      emit(chargeEvent(txn));
      // The answer is this 400, recorded as the key's answer in this same write.
      const declined = new PaymentDeclinedError(txn.response_code, txn.response_text, txn.id);
      answer(declined.status, declined.toBody());
      return { kind: 'declined' as const, declined };
    }
    await tx.repos.paymentLinks.setPaidTransaction(tx, link.id, txn.id);
    emit(chargeEvent(txn));
    emit(event('payment_link.paid', toPaymentLink(p, (await tx.repos.paymentLinks.find(tx, link.id))!, nowIso)));
    return {
      kind: 'paid' as const,
      result: {
        id: link.id,
        status: 'paid' as const,
        transaction_status: txn.status,
        redirect_url: link.redirect_url || payPageUrl(p, link.id),
      },
    };
  });
  if (outcome.kind === 'declined') throw outcome.declined;
  return outcome.result;
}

/** The session token in Authorization must exist, be unexpired and belong to this link. */
async function requireSession(p: Platform, authorization: string | undefined, linkId: string): Promise<void> {
  const token = authorization?.replace(/^Bearer\s+/i, '').trim();
  if (!token) {
    throw authenticationError('missing session token: send the session_token from GET /api/v1/payment-links/{id} as the Authorization header');
  }
  const session = await p.db.repos.paymentLinkSessions.find(p.db, sha256(token));
  if (!session) throw authenticationError('unknown session token; retrieve the payment link again for a new one');
  const link = await p.db.repos.paymentLinks.find(p.db, session.payment_link_id);
  const clock = link ? (await forGroup(p, link.group_id)).clock : p.clock;
  if (session.expires_at <= clock.nowIso()) {
    throw authenticationError('the session token has expired (they live 30 minutes); retrieve the payment link again for a new one');
  }
  if (session.payment_link_id !== linkId) throw permissionError('this session token belongs to another payment link');
}

function assertAvailable(status: LinkStatus): void {
  if (status === 'available') return;
  const why = { paid: 'it has already been paid', deactivated: 'the merchant deactivated it', expired: 'it has expired' }[status];
  throw invalidRequest(`this payment link is no longer available: ${why}`);
}

/**
 * A declined payment: 400 invalid_request with code `payment_declined`, the
 * processor's response_code and response_text, and the declined transaction's id.
 * Nothing is charged.
 */
export class PaymentDeclinedError extends AppError {
  constructor(
    readonly responseCode: string,
    readonly responseText: string,
    readonly transactionId: string,
  ) {
    super(400, 'invalid_request', `the payment was declined (${responseText}, response_code ${responseCode}); nothing was charged and the payment link is still available: try another card or account`);
  }

  override toBody() {
    const base = super.toBody();
    return {
      error: { ...base.error, code: 'payment_declined', response_code: this.responseCode, response_text: this.responseText, transaction_id: this.transactionId },
    };
  }
}

// ---------------------------------------------------------------- mapping

const payPageUrl = (p: Platform, id: string): string => `${p.publicUrl}/pay/${id}`;

function toPaymentLink(p: Platform, row: PaymentLinkEntity, nowIso: string): PaymentLink {
  return {
    id: row.id,
    group_id: row.group_id,
    processor_id: row.processor_id,
    amount: row.amount,
    open_amount: row.amount === null,
    currency: 'USD',
    description: row.description,
    redirect_url: row.redirect_url,
    card_enabled: row.card_enabled,
    ach_enabled: row.ach_enabled,
    status: effectiveStatus(row, nowIso),
    expires_at: row.expires_at,
    paid_transaction_id: row.paid_transaction_id,
    url: payPageUrl(p, row.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
