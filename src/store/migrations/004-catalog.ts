// Products, partners, invoices and their lines, and the per-group, per-year invoice
// counter that numbering draws from inside the creating transaction. Invoice status is
// stored as pending, paid or archived; past_due is derived from due_date and the
// platform clock when read. due_date is the due day `YYYY-MM-DD` (compares as text).
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The statements in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `CREATE TABLE products (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      name ${t.text} NOT NULL,
      description ${t.text} NOT NULL,
      unit_of_measure ${t.text} NOT NULL,
      amount ${t.int} NOT NULL,
      included_tax_amount ${t.int} NOT NULL DEFAULT 0,
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX products_group ON products(group_id, created_at, id)`,
  `CREATE TABLE partners (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      company ${t.text} NOT NULL,
      first_name ${t.text} NOT NULL DEFAULT '',
      last_name ${t.text} NOT NULL DEFAULT '',
      email ${t.text} NOT NULL,
      line_1 ${t.text} NOT NULL,
      line_2 ${t.text} NOT NULL DEFAULT '',
      city ${t.text} NOT NULL,
      country ${t.text} NOT NULL,
      subdivision ${t.text} NOT NULL,
      postal_code ${t.text} NOT NULL,
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX partners_group ON partners(group_id, created_at, id)`,
  `CREATE TABLE invoice_counters (
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      year ${t.int} NOT NULL,
      last_number ${t.int} NOT NULL,
      PRIMARY KEY (group_id, year)
    )`,
  `CREATE TABLE invoices (
      id ${t.text} PRIMARY KEY,
      group_id ${t.text} NOT NULL REFERENCES groups(id),
      partner_id ${t.text} NOT NULL REFERENCES partners(id),
      invoice_number ${t.text} NOT NULL,
      invoice_number_numeric ${t.int} NOT NULL,
      year ${t.int} NOT NULL,
      slug ${t.text} NOT NULL UNIQUE,
      note ${t.text} NOT NULL DEFAULT '',
      external_id ${t.text} NOT NULL DEFAULT '',
      due_date ${t.text} NOT NULL,
      send_email ${t.int} NOT NULL DEFAULT 0,
      processor_id ${t.text} NOT NULL REFERENCES processors(id),
      card_enabled ${t.int} NOT NULL,
      ach_enabled ${t.int} NOT NULL,
      amount ${t.int} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('pending', 'paid', 'archived')),
      paid_transaction_id ${t.text},
      paid_at ${t.text},
      archived_at ${t.text},
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL,
      UNIQUE (group_id, year, invoice_number_numeric)
    )`,
  `CREATE INDEX invoices_group_created ON invoices(group_id, created_at DESC, id DESC)`,
  `CREATE INDEX invoices_partner ON invoices(partner_id)`,
  `CREATE TABLE invoice_lines (
      id ${t.text} PRIMARY KEY,
      invoice_id ${t.text} NOT NULL REFERENCES invoices(id),
      product_id ${t.text} NOT NULL REFERENCES products(id),
      position ${t.int} NOT NULL,
      name ${t.text} NOT NULL,
      description ${t.text} NOT NULL,
      amount ${t.int} NOT NULL,
      included_tax_amount ${t.int} NOT NULL,
      unit_of_measure ${t.text} NOT NULL,
      quantity ${t.int} NOT NULL,
      created_at ${t.text} NOT NULL,
      updated_at ${t.text} NOT NULL
    )`,
  `CREATE INDEX invoice_lines_invoice ON invoice_lines(invoice_id, position)`,
];

export default { version: 4, name: 'catalog', sqlite: ddl(SQLITE_DDL), postgres: ddl(POSTGRES_DDL) } satisfies Version;
