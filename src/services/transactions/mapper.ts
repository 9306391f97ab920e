// A transaction as the spec's Transaction object (every field present): what the API
// answers, events carry and `--json` prints.
import type { Transaction, TransactionEntity } from '../../domain/transactions.js';

export interface ProcessorInfo {
  name: string;
  type: string;
}

export function toApiTransaction(row: TransactionEntity, processor: ProcessorInfo): Transaction {
  const card =
    row.payment_method === 'card'
      ? {
          brand: row.brand ?? '',
          card_type: row.card_type ?? '',
          first_six: row.first_six ?? '',
          last_four: row.last_four ?? '',
          customer_name: row.customer_name,
          expiration_date: row.expiration_date ?? '',
          avs: row.avs ?? '',
          cvv: row.cvv ?? '',
          issued_country: row.issued_country ?? '',
          ...(row.dynamic_descriptor ? { dynamic_descriptor: row.dynamic_descriptor } : {}),
        }
      : undefined;
  const bank =
    row.payment_method === 'ach'
      ? { routing_number: row.first_six ?? '', last_four: row.last_four ?? '', account_type: row.card_type ?? '', holder_name: row.customer_name }
      : undefined;
  return {
    id: row.id,
    group_id: row.group_id,
    settlement_batch_ids: row.settlement_batch_id ? [row.settlement_batch_id] : [],
    gateway: 'payctl-simulator',
    processor_id: row.processor_id,
    processor_name: processor.name,
    processor_type: processor.type,
    transaction_type: row.transaction_type,
    payment_method: row.payment_method,
    ...(row.customer_id ? { customer_id: row.customer_id } : {}),
    payment_details: { ...(card ? { card } : {}), ...(bank ? { bank_account: bank } : {}) },
    amounts: {
      requested_amount: row.requested_amount,
      authorized_amount: row.authorized_amount,
      captured_amount: row.captured_amount,
      refunded_amount: row.refunded_amount,
      ...(row.included_tax_amount !== null ? { included_tax_amount: row.included_tax_amount } : {}),
      ...(row.included_shipping_amount !== null ? { included_shipping_amount: row.included_shipping_amount } : {}),
    },
    currency: row.currency,
    description: row.description,
    source: row.source,
    order_id: row.order_id,
    po_number: row.po_number,
    email_receipt: row.email_receipt,
    email_address: row.email_address,
    user_id: row.user_id,
    username: row.username,
    billing_address: row.billing_address,
    ...(row.shipping_address ? { shipping_address: row.shipping_address } : {}),
    form_external_id: row.form_external_id,
    form_entry_id: row.form_entry_id,
    subscription_id: row.subscription_id ?? '',
    plan_id: row.plan_id ?? '',
    invoice_id: row.invoice_id ?? '',
    invoice_number: row.invoice_number ?? '',
    payment_link_id: row.payment_link_id ?? '',
    custom_fields: row.custom_fields ?? {},
    commissions: row.commissions ?? [],
    response_code: row.response_code,
    response_text: row.response_text,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
