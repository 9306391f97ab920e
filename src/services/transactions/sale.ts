// Sale (and auth, an extension) from a token or a stored customer card/bank account.
import { platformClock, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import { chargeEvent } from '../events/events.js';
import type { GroupContext } from '../context.js';
import { saleRequestSchema, type SaleRequest, type Transaction } from '../../domain/transactions.js';
import { invalidRequest, validationError } from '../../errors.js';
import { requireGroup, requireProcessor } from '../groups/groups.js';
import { consumeToken } from '../tokens/tokens.js';
import { storeBankAccount, storeCard } from '../customers/customers.js';
import { chargeInTx, type PaymentSource } from './charge.js';
import type { Address } from '../../domain/address.js';
import { newId } from '../../lib/ids.js';

/** Sale (and auth): the request of the API, from a body or from the CLI's flags. */
export const createSale = useCase({
  input: saleRequestSchema,
  run: sale,
});

async function sale(p: Platform, ctx: GroupContext, req: SaleRequest): Promise<Transaction> {
  const groupId = ctx.group;
  const group = await requireGroup(ctx.store, groupId);
  if (req.type === 'auth' && group.pricing !== 'flat') {
    throw invalidRequest('auth transactions are available only to merchants on Flat pricing, not Interchange+', [
      { path: 'type', message: 'auth is not available under Interchange+ pricing' },
    ]);
  }
  const processor = await requireProcessor(ctx.store, groupId, req.processor_id);
  if (req.commissions?.length && processor.type !== 'transaction_level') {
    throw invalidRequest('commissions are allowed only when the merchant has a transaction-level processor', [
      { path: 'commissions', message: 'requires a transaction-level processor' },
    ]);
  }
  const pd = req.payment_details;
  // A stored card is read with its customer before the write, on the reader (side by side
  // with other requests, not in the writer's queue); the write checks, with its batch,
  // that both are still there.
  const stored = pd.customer?.card_id ? await ctx.store.repos.customerCards.findWithCustomer(ctx.store, groupId, pd.customer.customer_id, pd.customer.card_id) : undefined;
  if (stored && !stored.customer) throw validationError([{ path: 'payment_details.customer.customer_id', message: 'is not a customer of this group' }]);
  if (stored && !stored.card) throw validationError([{ path: 'payment_details.customer.card_id', message: 'is not a card of this customer' }]);
  return unitOfWork(ctx, async ({ tx, emit }) => {
    const now = ctx.clock.now();
    let payment: PaymentSource;
    let billing: Address | undefined = req.billing_address;
    let customerId: string | undefined;
    if (pd.customer) {
      const ref = pd.customer;
      const customer = stored?.customer ?? (await tx.repos.customers.find(tx, groupId, ref.customer_id));
      if (!customer) throw validationError([{ path: 'payment_details.customer.customer_id', message: 'is not a customer of this group' }]);
      customerId = customer.id;
      if (ref.card_id) {
        const card = stored!.card!;
        tx.repos.customerCards.deferStillThere(tx, groupId, customer.id, card.id, () =>
          validationError([{ path: 'payment_details.customer.card_id', message: 'is not a card of this customer' }]),
        );
        payment = { kind: 'card', card };
        billing ??= {
          first_name: customer.first_name,
          last_name: customer.last_name,
          email: customer.email,
          ...card.billing_address,
        };
      } else {
        const account = await tx.repos.customerBankAccounts.find(tx, groupId, customer.id, ref.bank_account_id!);
        if (!account) throw validationError([{ path: 'payment_details.customer.bank_account_id', message: 'is not a bank account of this customer' }]);
        payment = { kind: 'bank', account };
        billing ??= {
          first_name: customer.first_name,
          last_name: customer.last_name,
          email: customer.email,
          ...customer.billing_address,
        };
      }
    } else {
      payment = { kind: 'token', token: await consumeToken(tx, pd.token!, platformClock(p).now()) };
    }
    const txn = await chargeInTx(tx, p, ctx.clock, {
      groupId,
      processorId: processor.id,
      processor,
      type: req.type,
      ...(ctx.forcedOutcome ? { forcedOutcome: ctx.forcedOutcome } : {}),
      source: req.source,
      payment,
      amounts: { requested: req.amounts.requested_amount, tax: req.amounts.included_tax_amount, shipping: req.amounts.included_shipping_amount },
      billingAddress: billing,
      shippingAddress: req.shipping_address,
      email: req.email_address,
      emailReceipt: req.email_receipt,
      description: req.description,
      orderId: req.order_id,
      poNumber: req.po_number,
      ipAddress: req.ip_address,
      customerId,
      customFields: req.custom_fields,
      commissions: req.commissions,
      dynamicDescriptor: pd.card_details?.dynamic_descriptor,
    });
    // save_customer: after a successful charge, the card (or bank account) and billing
    // address go to the customer vault; a new customer is created for a token payment.
    if (req.save_customer && txn.status !== 'declined' && payment.kind === 'token' && billing) {
      const nowIso = now.toISOString();
      const id = newId();
      await tx.repos.customers.insert(tx, {
        id,
        group_id: groupId,
        first_name: billing.first_name ?? '',
        last_name: billing.last_name ?? '',
        email: billing.email ?? req.email_address,
        phone: '',
        billing_address: billing as Record<string, string>,
        created_at: nowIso,
        updated_at: nowIso,
      });
      if (payment.token.type === 'card') {
        const { first_name: _f, last_name: _l, email: _e, ...cardAddress } = billing;
        await storeCard(tx, { groupId, customerId: id, linkedAccountId: null, token: payment.token, billing: cardAddress, now: nowIso });
      } else {
        await storeBankAccount(tx, { groupId, customerId: id, token: payment.token, now: nowIso });
      }
      await tx.repos.transactions.setCustomer(tx, txn.id, id);
      const saved = { ...txn, customer_id: id };
      emit(chargeEvent(saved));
      return saved;
    }
    emit(chargeEvent(txn));
    return txn;
  });
}
