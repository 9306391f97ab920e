// Products, partners, invoices and their lines, and the per-group, per-year invoice
// counter that numbering draws from inside the creating transaction. Invoice status is
// stored as pending, paid or archived; past_due is derived from due_date and the
// platform clock when read. due_date is the due day `YYYY-MM-DD` (compares as text).
export default {
  version: 4,
  name: 'catalog',
  statements: [
    `CREATE TABLE products (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      unit_of_measure TEXT NOT NULL,
      amount INTEGER NOT NULL,
      included_tax_amount INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX products_group ON products(group_id, created_at, id)`,
    `CREATE TABLE partners (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      company TEXT NOT NULL,
      first_name TEXT NOT NULL DEFAULT '',
      last_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL,
      line_1 TEXT NOT NULL,
      line_2 TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL,
      country TEXT NOT NULL,
      subdivision TEXT NOT NULL,
      postal_code TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX partners_group ON partners(group_id, created_at, id)`,
    `CREATE TABLE invoice_counters (
      group_id TEXT NOT NULL REFERENCES groups(id),
      year INTEGER NOT NULL,
      last_number INTEGER NOT NULL,
      PRIMARY KEY (group_id, year)
    )`,
    `CREATE TABLE invoices (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL REFERENCES groups(id),
      partner_id TEXT NOT NULL REFERENCES partners(id),
      invoice_number TEXT NOT NULL,
      invoice_number_numeric INTEGER NOT NULL,
      year INTEGER NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      note TEXT NOT NULL DEFAULT '',
      external_id TEXT NOT NULL DEFAULT '',
      due_date TEXT NOT NULL,
      send_email INTEGER NOT NULL DEFAULT 0,
      processor_id TEXT NOT NULL REFERENCES processors(id),
      card_enabled INTEGER NOT NULL,
      ach_enabled INTEGER NOT NULL,
      amount INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'archived')),
      paid_transaction_id TEXT,
      paid_at TEXT,
      archived_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (group_id, year, invoice_number_numeric)
    )`,
    `CREATE INDEX invoices_group_created ON invoices(group_id, created_at DESC, id DESC)`,
    `CREATE INDEX invoices_partner ON invoices(partner_id)`,
    `CREATE TABLE invoice_lines (
      id TEXT PRIMARY KEY,
      invoice_id TEXT NOT NULL REFERENCES invoices(id),
      product_id TEXT NOT NULL REFERENCES products(id),
      position INTEGER NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      amount INTEGER NOT NULL,
      included_tax_amount INTEGER NOT NULL,
      unit_of_measure TEXT NOT NULL,
      quantity INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX invoice_lines_invoice ON invoice_lines(invoice_id, position)`,
  ],
};
