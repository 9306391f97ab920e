// One charge through the simulated processor, inside the caller's write transaction,
// so whatever the caller changes with it (a subscription's counters, an invoice's
// status, a payment link) commits or rolls back together with the transaction row.
import type { Platform } from '../platform.js';
import type { Clock } from '../context.js';
import type { Tx } from '../../store/interfaces/db.js';
import type { TokenMethod } from '../../domain/tokens.js';
import type { CustomerBankAccountEntity, CustomerCardEntity } from '../../domain/customers.js';
import type { ProcessorEntity } from '../../domain/groups.js';
import type { Address } from '../../domain/address.js';
import type { Commission, Transaction, TransactionEntity, TransactionSource } from '../../domain/transactions.js';
import { receiptEmail } from '../../mail/receipt.js';
import { decide } from '../../processor/simulator.js';
import type { Outcome } from '../../processor/test-cards.js';
import { newId } from '../../lib/ids.js';
import { validationError } from '../../errors.js';
import { toApiTransaction } from './mapper.js';
import { queueEmail } from '../mail/outbox.js';

/** What a charge reads of a token, a stored card or a stored bank account. */
export type ChargeableCard = Pick<CustomerCardEntity, 'id' | 'brand' | 'card_type' | 'first_six' | 'last_four' | 'exp_month' | 'exp_year' | 'holder_name' | 'test_outcome'>;
export type ChargeableBankAccount = Pick<CustomerBankAccountEntity, 'id' | 'routing_number' | 'last_four' | 'account_type' | 'holder_name' | 'test_outcome'>;

export type PaymentSource =
  | { kind: 'token'; token: TokenMethod }
  | { kind: 'card'; card: ChargeableCard }
  | { kind: 'bank'; account: ChargeableBankAccount };

export interface ChargeInput {
  groupId: string;
  processorId: string;
  /** The processor row when the caller has already read it (processors never change once
   *  created): saves a read on the writer connection inside the write. */
  processor?: ProcessorEntity;
  type: 'sale' | 'auth';
  /** A sandbox's injected fault: the processor's answer (a decline) instead of the method's scripted one. */
  forcedOutcome?: Outcome;
  source: TransactionSource;
  payment: PaymentSource;
  amounts: { requested: number; tax?: number; shipping?: number };
  billingAddress?: Address;
  shippingAddress?: Address;
  email?: string;
  emailReceipt?: boolean;
  description?: string;
  orderId?: string;
  poNumber?: string;
  ipAddress?: string;
  customerId?: string;
  customFields?: Record<string, unknown>;
  commissions?: Commission[];
  dynamicDescriptor?: string;
  links?: {
    planId?: string;
    subscriptionId?: string;
    invoiceId?: string;
    invoiceNumber?: string;
    invoiceExternalId?: string;
    paymentLinkId?: string;
    linkedAccountId?: string;
  };
}

const yymm = (month: number | null, year: number | null): string =>
  month && year ? `${String(year % 100).padStart(2, '0')}/${String(month).padStart(2, '0')}` : '';

/** What the transaction row keeps of the payment method (never a full number or CVV). */
function methodColumns(payment: PaymentSource) {
  switch (payment.kind) {
    case 'token': {
      const t = payment.token;
      return t.type === 'card'
        ? { payment_method: 'card', method_detail: 'card', brand: t.brand, card_type: t.card_type, first_six: t.first_six, last_four: t.last_four, expiration_date: yymm(t.exp_month, t.exp_year), holder: t.holder_name, outcome: t.test_outcome, card_id: null, bank_account_id: null }
        : { payment_method: 'ach', method_detail: 'ach', brand: null, card_type: t.account_type, first_six: t.routing_number, last_four: t.last_four, expiration_date: null, holder: t.holder_name, outcome: t.test_outcome, card_id: null, bank_account_id: null };
    }
    case 'card': {
      const c = payment.card;
      return { payment_method: 'card', method_detail: 'customer_card', brand: c.brand, card_type: c.card_type, first_six: c.first_six, last_four: c.last_four, expiration_date: yymm(c.exp_month, c.exp_year), holder: c.holder_name, outcome: c.test_outcome, card_id: c.id, bank_account_id: null };
    }
    case 'bank': {
      const b = payment.account;
      return { payment_method: 'ach', method_detail: 'customer_ach', brand: null, card_type: b.account_type, first_six: b.routing_number, last_four: b.last_four, expiration_date: null, holder: b.holder_name, outcome: b.test_outcome, card_id: null, bank_account_id: b.id };
    }
  }
}

// Processors never change once created, so a write reads each one once: billing charges
// hundreds of subscriptions in one write (one writer round trip fewer per charge).
const processorsByTx = new WeakMap<Tx, Map<string, ProcessorEntity>>();

async function processorFor(tx: Tx, input: ChargeInput): Promise<ProcessorEntity | undefined> {
  if (input.processor?.id === input.processorId && input.processor.group_id === input.groupId) return input.processor;
  let seen = processorsByTx.get(tx);
  const key = `${input.groupId}\u0000${input.processorId}`;
  const cached = seen?.get(key);
  if (cached) return cached;
  const row = await tx.repos.processors.find(tx, input.groupId, input.processorId);
  if (row) {
    if (!seen) processorsByTx.set(tx, (seen = new Map()));
    seen.set(key, row);
  }
  return row;
}

/** `clock`: the clock of the group charged. */
export async function chargeInTx(tx: Tx, p: Platform, clock: Clock, input: ChargeInput): Promise<Transaction> {
  const processor = await processorFor(tx, input);
  if (!processor) throw validationError([{ path: 'processor_id', message: 'is not a processor of this group' }]);
  const m = methodColumns(input.payment);
  const decision = decide(m.outcome, input.type, input.forcedOutcome);
  const approved = decision.status !== 'declined';
  const now = clock.nowIso();
  const billing = input.billingAddress ?? {};
  const name = [billing.first_name, billing.last_name].filter(Boolean).join(' ') || m.holder;
  const row: TransactionEntity = {
    id: newId(),
    group_id: input.groupId,
    linked_account_id: input.links?.linkedAccountId ?? null,
    processor_id: input.processorId,
    transaction_type: input.type,
    payment_method: m.payment_method,
    method_detail: m.method_detail,
    customer_id: input.customerId ?? null,
    card_id: m.card_id,
    bank_account_id: m.bank_account_id,
    brand: m.brand,
    card_type: m.card_type,
    first_six: m.first_six,
    last_four: m.last_four,
    customer_name: name,
    expiration_date: m.expiration_date,
    avs: m.payment_method === 'card' ? decision.avs : null,
    cvv: m.payment_method === 'card' ? decision.cvv : null,
    issued_country: m.payment_method === 'card' ? 'US' : null,
    dynamic_descriptor: input.dynamicDescriptor ?? null,
    requested_amount: input.amounts.requested,
    authorized_amount: approved ? input.amounts.requested : 0,
    captured_amount: approved && input.type === 'sale' ? input.amounts.requested : 0,
    refunded_amount: 0,
    included_tax_amount: input.amounts.tax ?? null,
    included_shipping_amount: input.amounts.shipping ?? null,
    currency: 'USD',
    description: input.description ?? '',
    source: input.source,
    order_id: input.orderId ?? '',
    po_number: input.poNumber ?? '',
    ip_address: input.ipAddress ?? '',
    email_receipt: input.emailReceipt ?? false,
    email_address: input.email ?? billing.email ?? '',
    user_id: '',
    username: '',
    billing_address: billing,
    shipping_address: input.shippingAddress ?? null,
    form_id: null,
    form_external_id: '',
    form_entry_id: '',
    subscription_id: input.links?.subscriptionId ?? null,
    plan_id: input.links?.planId ?? null,
    invoice_id: input.links?.invoiceId ?? null,
    invoice_number: input.links?.invoiceNumber ?? null,
    invoice_external_id: input.links?.invoiceExternalId ?? null,
    payment_link_id: input.links?.paymentLinkId ?? null,
    destination_group_id: input.commissions?.[0]?.group_id ?? null,
    custom_fields: input.customFields ?? null,
    commissions: input.commissions ?? null,
    response_code: decision.response_code,
    response_text: decision.response_text,
    status: decision.status,
    settlement_batch_id: null,
    created_at: now,
    updated_at: now,
  };
  await tx.repos.transactions.insert(tx, row);
  if (approved && input.emailReceipt && row.email_address) {
    // The receipt names the brand and last four only.
    const receipt = receiptEmail({ id: row.id, requested_amount: row.requested_amount, description: row.description, status: row.status, authorized: input.type === 'auth', method: m });
    await queueEmail(tx, p, {
      kind: 'receipt',
      to: row.email_address,
      ...receipt,
      relatedId: row.id,
      groupId: row.group_id,
    });
  }
  return toApiTransaction(row, processor);
}
