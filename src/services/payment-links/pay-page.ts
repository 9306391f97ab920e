// What the hosted pay page (GET /pay/{id}) shows besides the link's public fields: the
// merchant it pays, and once paid, the receipt — amount, card brand and last four (or the
// bank account's last four), transaction id, date. Only what a receipt carries: never a
// full card number (none is stored) and nothing of the payer beyond the last four.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { useCase } from '../use-case.js';
import type { RequestContext } from '../context.js';
import { toApiTransaction } from '../transactions/mapper.js';

export interface PayPageReceipt {
  amount: number;
  currency: string;
  /** "Visa …1111", or "Bank account …6789". */
  paid_with: string;
  transaction_id: string;
  paid_at: string;
}

export interface PayPageFacts {
  merchant_name: string;
  receipt?: PayPageReceipt;
}

export const payPageFacts = useCase({
  input: z.object({ payment_link_id: z.string() }),
  run: async (_p: Platform, ctx: RequestContext, input): Promise<PayPageFacts | undefined> => {
    const link = await ctx.store.repos.paymentLinks.find(ctx.store, input.payment_link_id);
    if (!link) return undefined;
    const group = await ctx.store.repos.groups.find(ctx.store, link.group_id);
    const facts: PayPageFacts = { merchant_name: group?.name ?? '' };
    if (link.status !== 'paid' || !link.paid_transaction_id) return facts;
    const row = await ctx.store.repos.transactions.find(ctx.store, link.group_id, link.paid_transaction_id);
    if (!row) return facts;
    const t = toApiTransaction(row, { name: '', type: '' });
    const card = t.payment_details.card;
    const bank = t.payment_details.bank_account;
    const paidWith = card ? `${card.brand} …${card.last_four}` : bank ? `Bank account …${bank.last_four}` : t.payment_method;
    facts.receipt = { amount: t.amounts.requested_amount, currency: t.currency, paid_with: paidWith, transaction_id: t.id, paid_at: t.created_at };
    return facts;
  },
});
