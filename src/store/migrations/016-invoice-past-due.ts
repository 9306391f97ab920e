// When an invoice's due day passes, the clock records it once (invoice.past_due): the
// moment is kept per invoice, and moving the due date re-arms it (so the new due day
// passing is told again). Unnotified pending invoices are found by their due day.
import { POSTGRES_DDL, SQLITE_DDL, type Ddl } from '../sql/ddl.js';
import type { Version } from './migration.js';

/** The tables and indexes both stores make, in either store's column types (../sql/ddl.ts). */
export const ddl = (t: Ddl): string[] => [
  `ALTER TABLE invoices ADD COLUMN past_due_notified_at ${t.text}`,
  `CREATE INDEX invoices_past_due_unnotified ON invoices(due_date) WHERE status = 'pending' AND past_due_notified_at IS NULL`,
];

export default {
  version: 16,
  name: 'invoice-past-due',
  sqlite: [
    ...ddl(SQLITE_DDL),
    // SQLite's own (PostgreSQL's: below).
    `CREATE TRIGGER invoices_past_due_rearm AFTER UPDATE OF due_date ON invoices
     WHEN NEW.due_date <> OLD.due_date AND NEW.past_due_notified_at IS NOT NULL
     BEGIN
       UPDATE invoices SET past_due_notified_at = NULL WHERE id = NEW.id;
     END`,
  ],
  postgres: [
    ...ddl(POSTGRES_DDL),
    `CREATE OR REPLACE FUNCTION payctl_invoice_rearm() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.due_date <> OLD.due_date AND NEW.past_due_notified_at IS NOT NULL THEN
    NEW.past_due_notified_at := NULL;
  END IF;
  RETURN NEW;
END $$`,
    `CREATE TRIGGER invoices_past_due_rearm BEFORE UPDATE OF due_date ON invoices FOR EACH ROW EXECUTE FUNCTION payctl_invoice_rearm()`,
  ],
} satisfies Version;
