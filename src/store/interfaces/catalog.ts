// What the catalog services need from a store: products, partners, invoices and their
// lines, as domain entities. The SQLite repositories implement these; a second store
// (PostgreSQL) implements the same interfaces and nothing above src/store changes.
import type { Executor, RunResult, Tx } from '../interfaces/db.js';
import type { InvoiceEntity, InvoiceLineEntity, PartnerEntity, ProductEntity, StoredInvoiceStatus } from '../../domain/catalog-entities.js';

export interface Page<T> {
  items: T[];
  total_count: number;
}

export interface NameFilter {
  limit: number;
  offset: number;
  /** Case-insensitive substring. */
  name?: string | undefined;
}

export interface ProductStore {
  insert(tx: Tx, product: ProductEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<ProductEntity | undefined>;
  /** The products of the group among `ids` (unknown or foreign ids are simply absent). */
  findMany(ex: Executor, groupId: string, ids: readonly string[]): Promise<ProductEntity[]>;
  update(tx: Tx, product: ProductEntity): Promise<RunResult>;
  /** Oldest first. */
  list(ex: Executor, groupId: string, filter: NameFilter): Promise<Page<ProductEntity>>;
}

export interface PartnerStore {
  insert(tx: Tx, partner: PartnerEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<PartnerEntity | undefined>;
  findMany(ex: Executor, ids: readonly string[]): Promise<PartnerEntity[]>;
  /** Oldest first; the name matches the company, first or last name, or "first last". */
  list(ex: Executor, groupId: string, filter: NameFilter): Promise<Page<PartnerEntity>>;
}

export interface InvoiceListFilter {
  limit: number;
  offset: number;
  partnerId?: string | undefined;
  /** Stored status to match. */
  stored?: StoredInvoiceStatus | undefined;
  /** With stored pending: only due days before (past_due) or from (pending) this day. */
  dueBefore?: string | undefined;
  dueFrom?: string | undefined;
}

/** The fields an update of a pending invoice rewrites. */
export type InvoiceEdit = Pick<InvoiceEntity, 'id' | 'note' | 'external_id' | 'due_date' | 'processor_id' | 'card_enabled' | 'ach_enabled' | 'amount' | 'updated_at'>;

export interface InvoiceStore {
  /** Hand out the next number of the group's year (1, 2, …); call inside the creating write. */
  nextNumber(tx: Tx, groupId: string, year: number): Promise<number>;
  insert(tx: Tx, invoice: InvoiceEntity): Promise<void>;
  find(ex: Executor, groupId: string, id: string): Promise<InvoiceEntity | undefined>;
  findBySlug(ex: Executor, slug: string): Promise<InvoiceEntity | undefined>;
  /** Compare-and-set update of the editable fields: only while the invoice is pending. */
  updatePending(tx: Tx, edit: InvoiceEdit): Promise<RunResult>;
  /** Archive (from any other status); 0 changes when it already was archived. */
  archive(tx: Tx, id: string, at: string): Promise<RunResult>;
  /** pending → paid (compare-and-set). */
  markPaid(tx: Tx, id: string, transactionId: string, at: string): Promise<RunResult>;
  /** Newest first. */
  list(ex: Executor, groupId: string, filter: InvoiceListFilter): Promise<Page<InvoiceEntity>>;
}

export interface InvoiceLineStore {
  insert(tx: Tx, line: InvoiceLineEntity): Promise<void>;
  listByInvoice(ex: Executor, invoiceId: string): Promise<InvoiceLineEntity[]>;
  /** The lines of several invoices, by invoice then position. */
  listByInvoices(ex: Executor, invoiceIds: readonly string[]): Promise<InvoiceLineEntity[]>;
  /** A kept line: its position, and its quantity (updated_at moves only when the quantity does). */
  keep(tx: Tx, id: string, position: number, quantity: number, at: string): Promise<RunResult>;
  remove(tx: Tx, id: string): Promise<RunResult>;
}
