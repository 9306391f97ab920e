// Products, partners and invoices as the store keeps them and the services work on
// them: typed values (booleans, numbers, the due day), never database encodings. A
// product and a partner are their API objects; an invoice is its API object's stored
// part (the partner and lines are their own entities, the status is the stored one).
import type { InvoiceStatus, NewInvoiceLine, Partner, Product } from './catalog.js';

export type ProductEntity = Product;
export type PartnerEntity = Partner;

/** What an invoice stores as its status; past_due is derived when it is read. */
export type StoredInvoiceStatus = Exclude<InvoiceStatus, 'past_due'>;

export interface InvoiceEntity {
  id: string;
  group_id: string;
  partner_id: string;
  invoice_number: string;
  invoice_number_numeric: number;
  year: number;
  slug: string;
  note: string;
  external_id: string;
  /** The due day, YYYY-MM-DD. */
  due_date: string;
  send_email: boolean;
  processor_id: string;
  card_enabled: boolean;
  ach_enabled: boolean;
  amount: number;
  status: StoredInvoiceStatus;
  paid_transaction_id: string | null;
  paid_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An attached line: the product values it copied, its quantity, and its place on the invoice. */
export interface InvoiceLineEntity extends NewInvoiceLine {
  id: string;
  invoice_id: string;
  position: number;
  created_at: string;
  updated_at: string;
}
