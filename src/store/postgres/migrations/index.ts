// PostgreSQL's migrations, under the same version numbers as SQLite's. A migration both
// stores share states its tables and indexes once as a function of the column types
// (`ddl(t)` in ../../sqlite/migrations/NNN-*.ts, ../../sql/ddl.ts), called here with
// PostgreSQL's (POSTGRES_DDL); triggers, table rebuilds and anything else of one store's
// own are that store's statements, PostgreSQL's written out here. No SQL text is
// rewritten (docs/store.md "DDL").
//
// Types: integers are BIGINT (money in cents, counters, clock offsets in ms); text is
// COLLATE "C" (byte order, as SQLite compares, so keyset pages and ids sort alike).
// Migrations 1–29 make instants text and JSON documents `json` as SQLite's DDL says;
// migration 30 turns every instant into `timestamptz` (INSTANT_COLUMNS) and the JSON
// documents whose key order no client sees into `jsonb` (JSONB_COLUMNS). The store reads
// both back as the text SQLite holds (../types.ts: ISO-8601 UTC with ms, compact JSON),
// so the API's answers, events and idempotent replays are the same bytes on both stores.
// Documents answered in the key order they were written in (addresses, custom fields,
// commissions, signup entries) stay `json`, which keeps them byte for byte. Dates
// without a time (due_date, the rollups' day) stay text (see docs/postgresql.md).
// test/store/schema.test.ts holds the schema a fresh migrate makes to its golden.
import type { Migration } from '../../sqlite/migrations/index.js';
import { POSTGRES_DDL, type Ddl } from '../../sql/ddl.js';
import requestJournal from './035-request-journal.js';
import * as m001 from '../../sqlite/migrations/001-foundation.js';
import * as m002 from '../../sqlite/migrations/002-transactions.js';
import * as m003 from '../../sqlite/migrations/003-recurring.js';
import * as m004 from '../../sqlite/migrations/004-catalog.js';
import * as m005 from '../../sqlite/migrations/005-payment-links.js';
import * as m006 from '../../sqlite/migrations/006-reporting-indexes.js';
import * as m007 from '../../sqlite/migrations/007-onboarding.js';
import * as m008 from '../../sqlite/migrations/008-group-clocks.js';
import * as m010 from '../../sqlite/migrations/010-config-version.js';
import * as m012 from '../../sqlite/migrations/012-events.js';
import * as m013 from '../../sqlite/migrations/013-vault-version.js';
import * as m014 from '../../sqlite/migrations/014-reporting-rollup-by-dimension.js';
import * as m015 from '../../sqlite/migrations/015-webhooks.js';
import * as m016 from '../../sqlite/migrations/016-invoice-past-due.js';
import * as m017 from '../../sqlite/migrations/017-webhook-secret-grace.js';
import * as m020 from '../../sqlite/migrations/020-fault-rules.js';
import * as m022 from '../../sqlite/migrations/022-webhook-faults.js';
import * as m023 from '../../sqlite/migrations/023-fork-jobs.js';
import * as m025 from '../../sqlite/migrations/025-plan-update-jobs.js';
import * as m026 from '../../sqlite/migrations/026-webhook-held-once.js';
import * as m028 from '../../sqlite/migrations/028-idempotency-settling.js';
import * as m034 from '../../sqlite/migrations/034-clock-modes.js';
import * as m036 from '../../sqlite/migrations/036-webhook-inbox.js';
import * as m037 from '../../sqlite/migrations/037-sandbox-leases.js';
import * as m038 from '../../sqlite/migrations/038-dropped-sandbox-keys.js';
import { utcDay } from '../types.js';
import { EVENTS_WRITER_LOCK } from '../events.js';

const bumpFunction = (name: string, table: string) => `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ${table} SET n = n + 1 WHERE id = 1;
  RETURN NULL;
END $$`;
const bumpTrigger = (fn: string, table: string) =>
  `CREATE TRIGGER ${table}_${fn} AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;

/** 2^26: the split of a net amount into halves (SQLite migration 21, src/domain/money.ts SPLIT). */
const SPLIT = '67108864';
const DIMENSIONS = 'group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id';
/** The rollup slot of the write that counts a row (the store sets payctl.rollup_slot in every write; 0 outside one). */
export const SLOT = "COALESCE(NULLIF(current_setting('payctl.rollup_slot', true), ''), '0')::bigint";

/**
 * A migration both stores share: its tables and indexes in PostgreSQL's column types,
 * then PostgreSQL's own statements (in place of SQLite's triggers: trigger functions).
 */
function shared(m: { default: { version: number; name: string }; ddl: (t: Ddl) => string[] }, own: string[] = []): Migration {
  return { version: m.default.version, name: m.default.name, statements: [...m.ddl(POSTGRES_DDL), ...own] };
}

/**
 * A changed transaction's old count leaves and its new count arrives, both in this
 * server's slot (a negative count there: the sums stay exact, no other server's row is
 * touched). Deleted (a sandbox dropped, its rollup rows maybe gone already): its count
 * leaves one existing row, as before slots. `day` is the UTC day of a row's created_at.
 */
const rollupTransactionsFunction = (day: (row: 'OLD' | 'NEW') => string) => `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE transaction_daily SET tx_count = tx_count - 1,
      net_high = net_high - (OLD.captured_amount - OLD.refunded_amount) / ${SPLIT}, net_low = net_low - (OLD.captured_amount - OLD.refunded_amount) % ${SPLIT}
    WHERE ctid = (SELECT ctid FROM transaction_daily
      WHERE group_id = OLD.group_id AND day = ${day('OLD')} AND status = OLD.status
        AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
        AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id
      ORDER BY slot LIMIT 1);
    RETURN NULL;
  END IF;
  INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_high, net_low)
  VALUES (OLD.group_id, ${day('OLD')}, OLD.status, OLD.transaction_type, OLD.method_detail, COALESCE(OLD.brand, ''),
          OLD.source, OLD.currency, OLD.processor_id, -1,
          -((OLD.captured_amount - OLD.refunded_amount) / ${SPLIT}), -((OLD.captured_amount - OLD.refunded_amount) % ${SPLIT}))
  ON CONFLICT (${DIMENSIONS}, slot) DO UPDATE SET tx_count = d.tx_count + excluded.tx_count, net_high = d.net_high + excluded.net_high, net_low = d.net_low + excluded.net_low;
  INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_high, net_low)
  VALUES (NEW.group_id, ${day('NEW')}, NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''),
          NEW.source, NEW.currency, NEW.processor_id, 1,
          (NEW.captured_amount - NEW.refunded_amount) / ${SPLIT}, (NEW.captured_amount - NEW.refunded_amount) % ${SPLIT})
  ON CONFLICT (${DIMENSIONS}, slot) DO UPDATE SET tx_count = d.tx_count + 1, net_high = d.net_high + excluded.net_high, net_low = d.net_low + excluded.net_low;
  RETURN NULL;
END $$`;

/**
 * Every column holding an instant (the platform's fixed-width ISO-8601 UTC text with ms;
 * END_OF_TIME, 9999-12-31T24:00:00.000Z, is 10000-01-01 00:00 here). Dates without a
 * time stay text: invoices.due_date, the rollups' day (`YYYY-MM-DD`, compared and
 * answered as such), transactions.expiration_date (a card's MM/YY).
 */
export const INSTANT_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['created_at', 'revoked_at'],
  customer_bank_accounts: ['created_at'],
  customer_cards: ['created_at', 'updated_at'],
  customers: ['created_at', 'updated_at'],
  events: ['created_at'],
  fault_rules: ['created_at'],
  fork_jobs: ['created_at'],
  groups: ['created_at', 'updated_at'],
  idempotency_keys: ['created_at'],
  invoice_lines: ['created_at', 'updated_at'],
  invoices: ['created_at', 'updated_at', 'paid_at', 'archived_at', 'past_due_notified_at'],
  linked_accounts: ['created_at'],
  outbox: ['created_at', 'sent_at'],
  partners: ['created_at', 'updated_at'],
  payment_link_sessions: ['created_at', 'expires_at'],
  payment_links: ['created_at', 'updated_at', 'expires_at'],
  plan_update_jobs: ['updated_at'],
  plans: ['created_at', 'updated_at'],
  processors: ['created_at'],
  products: ['created_at', 'updated_at'],
  schema_migrations: ['applied_at'],
  settlement_batches: ['created_at', 'cutoff_at'],
  signup_entries: ['created_at'],
  signup_forms: ['created_at'],
  subscription_charges: ['created_at', 'due_at'],
  subscriptions: ['created_at', 'updated_at', 'start_at', 'anchor_at', 'billing_period_start', 'billing_period_end', 'next_bill_date', 'canceled_at'],
  tokens: ['created_at', 'expires_at', 'used_at'],
  transactions: ['created_at', 'updated_at'],
  webhook_attempts: ['created_at', 'scheduled_at', 'next_attempt_at'],
  webhook_deliveries: ['created_at', 'next_attempt_at'],
  webhook_endpoints: ['created_at', 'updated_at', 'previous_secret_expires_at'],
  webhook_fault_rules: ['created_at'],
};

/**
 * JSON documents made `jsonb` (migration 30), where jsonb's own key order changes nothing
 * a client sees (the store reads them back compact): arrays of strings (a key's
 * permissions, an endpoint's enabled events), retry policies (`{"steps":[{"delay_days":n}]}`,
 * one key per object) and a subscription's token snapshot (read field by field; its
 * answer is built in the service's order). The rest stay `json` (kept byte for byte):
 * addresses, custom fields, commissions and signup entries are answered in the key order
 * they were written in, which jsonb would not keep.
 */
export const JSONB_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['permissions'],
  webhook_endpoints: ['enabled_events'],
  plans: ['retry_policy'],
  subscriptions: ['retry_policy', 'token_snapshot'],
};

/** An event makes one delivery per enabled endpoint of its group that subscribes to its type (migration 15's trigger). */
const eventDeliveriesFunction = (elements: 'json_array_elements_text' | 'jsonb_array_elements_text') => `CREATE OR REPLACE FUNCTION payctl_event_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (group_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
  SELECT NEW.group_id, w.id, NEW.id, 'pending', 0, NEW.created_at, NEW.created_at
  FROM webhook_endpoints w
  WHERE w.group_id = NEW.group_id AND w.disabled = 0
    AND EXISTS (SELECT 1 FROM ${elements}(w.enabled_events) AS p(value)
                WHERE p.value IN ('*', NEW.type, split_part(NEW.type, '.', 1) || '.*'));
  RETURN NULL;
END $$`;

/** The trigger moving a changed transaction's count between rollup rows (its column list names created_at). */
const TRANSACTIONS_DAILY_UPDATE = `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`;

export const migrations: Migration[] = [
  shared(m001),
  shared(m002),
  shared(m003),
  shared(m004),
  shared(m005),
  shared(m006),
  shared(m007),
  shared(m008),
  { version: 9, name: 'rollup-per-batch', statements: [] },
  shared(m010, [
    bumpFunction('payctl_config_bump', 'config_version'),
    ...['groups', 'processors', 'api_keys'].map((t) => bumpTrigger('payctl_config_bump', t)),
  ]),
  {
    version: 11,
    name: 'reporting-rollup-triggers',
    statements: [
      // Emptied as on SQLite, but not recounted by a trigger on inserts: inserts count per
      // write (rollup.ts addJsonRows); updates and deletes of transactions move their
      // counts between rollup rows.
      'DELETE FROM transaction_daily',
      `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily SET tx_count = tx_count - 1, net_amount = net_amount - (OLD.captured_amount - OLD.refunded_amount)
    WHERE group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
      AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
      AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_amount)
    VALUES (NEW.group_id, substr(NEW.created_at, 1, 10), NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''),
            NEW.source, NEW.currency, NEW.processor_id, 1, NEW.captured_amount - NEW.refunded_amount)
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = d.tx_count + 1, net_amount = d.net_amount + excluded.net_amount;
  END IF;
  RETURN NULL;
END $$`,
      `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
      `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
    ],
  },
  shared(m012),
  shared(m013, [
    bumpFunction('payctl_vault_bump', 'vault_version'),
    `CREATE TRIGGER customers_payctl_vault_bump AFTER UPDATE OR DELETE ON customers FOR EACH STATEMENT EXECUTE FUNCTION payctl_vault_bump()`,
    `CREATE TRIGGER customer_cards_payctl_vault_bump AFTER UPDATE OR DELETE ON customer_cards FOR EACH STATEMENT EXECUTE FUNCTION payctl_vault_bump()`,
  ]),
  shared(m014, [
    // The per-dimension rollup follows transaction_daily: (status + one dimension) rows.
    `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_amount = net_amount - OLD.net_amount
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, tx_count, net_amount)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.tx_count, NEW.net_amount
    FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
    ON CONFLICT (group_id, dimension, day, status, value) DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_amount = m.net_amount + excluded.net_amount;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER transaction_daily_dims AFTER INSERT OR UPDATE OF tx_count, net_amount OR DELETE ON transaction_daily
  FOR EACH ROW EXECUTE FUNCTION payctl_rollup_dims()`,
  ]),
  shared(m015, [
    eventDeliveriesFunction('json_array_elements_text'),
    `CREATE TRIGGER events_webhook_deliveries AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION payctl_event_deliveries()`,
    bumpTrigger('payctl_config_bump', 'webhook_endpoints'),
  ]),
  shared(m016, [
    `CREATE OR REPLACE FUNCTION payctl_invoice_rearm() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.due_date <> OLD.due_date AND NEW.past_due_notified_at IS NOT NULL THEN
    NEW.past_due_notified_at := NULL;
  END IF;
  RETURN NEW;
END $$`,
    `CREATE TRIGGER invoices_past_due_rearm BEFORE UPDATE OF due_date ON invoices FOR EACH ROW EXECUTE FUNCTION payctl_invoice_rearm()`,
  ]),
  shared(m017),
  {
    version: 18,
    name: 'events-one-index',
    statements: [
      'ALTER TABLE events DROP CONSTRAINT events_id_key',
      'DROP INDEX events_group_id',
      'DROP INDEX events_group_created',
      'CREATE UNIQUE INDEX events_group_id ON events(group_id, id)',
    ],
  },
  {
    version: 19,
    name: 'webhook-rows',
    statements: ['ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_pkey', 'ALTER TABLE webhook_attempts ADD PRIMARY KEY (endpoint_id, id)'],
  },
  // Counting a call (an UPDATE) does not bump the configuration counter.
  shared(m020, ['CREATE TRIGGER fault_rules_payctl_config_bump AFTER INSERT OR DELETE ON fault_rules FOR EACH STATEMENT EXECUTE FUNCTION payctl_config_bump()']),
  {
    version: 21,
    name: 'exact-money-rollup',
    statements: [
      'DROP TRIGGER transactions_daily_update ON transactions',
      'DROP TRIGGER transactions_daily_delete ON transactions',
      'DROP TRIGGER transaction_daily_dims ON transaction_daily',
      'DROP INDEX transaction_daily_status',
      'DELETE FROM transaction_daily_dims',
      'DELETE FROM transaction_daily',
      ...['transaction_daily', 'transaction_daily_dims'].map(
        (t) => `ALTER TABLE ${t} DROP COLUMN net_amount, ADD COLUMN net_high BIGINT NOT NULL DEFAULT 0, ADD COLUMN net_low BIGINT NOT NULL DEFAULT 0`,
      ),
      'CREATE INDEX transaction_daily_status ON transaction_daily(group_id, status, day, tx_count, net_high, net_low)',
      // Net amounts in two halves (x / 2^26 and x % 2^26, truncated as on SQLite): see the SQLite migration 21.
      `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily SET tx_count = tx_count - 1,
      net_high = net_high - (OLD.captured_amount - OLD.refunded_amount) / ${SPLIT}, net_low = net_low - (OLD.captured_amount - OLD.refunded_amount) % ${SPLIT}
    WHERE group_id = OLD.group_id AND day = substr(OLD.created_at, 1, 10) AND status = OLD.status
      AND transaction_type = OLD.transaction_type AND method_detail = OLD.method_detail AND brand = COALESCE(OLD.brand, '')
      AND source = OLD.source AND currency = OLD.currency AND processor_id = OLD.processor_id;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO transaction_daily AS d (${DIMENSIONS}, tx_count, net_high, net_low)
    VALUES (NEW.group_id, substr(NEW.created_at, 1, 10), NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''),
            NEW.source, NEW.currency, NEW.processor_id, 1,
            (NEW.captured_amount - NEW.refunded_amount) / ${SPLIT}, (NEW.captured_amount - NEW.refunded_amount) % ${SPLIT})
    ON CONFLICT (${DIMENSIONS}) DO UPDATE SET tx_count = d.tx_count + 1, net_high = d.net_high + excluded.net_high, net_low = d.net_low + excluded.net_low;
  END IF;
  RETURN NULL;
END $$`,
      `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_high = net_high - OLD.net_high, net_low = net_low - OLD.net_low
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, tx_count, net_high, net_low)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.tx_count, NEW.net_high, NEW.net_low
    FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
    ON CONFLICT (group_id, dimension, day, status, value)
    DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_high = m.net_high + excluded.net_high, net_low = m.net_low + excluded.net_low;
  END IF;
  RETURN NULL;
END $$`,
      `CREATE TRIGGER transaction_daily_dims AFTER INSERT OR UPDATE OF tx_count, net_high, net_low OR DELETE ON transaction_daily
  FOR EACH ROW EXECUTE FUNCTION payctl_rollup_dims()`,
      `CREATE TRIGGER transactions_daily_update
  AFTER UPDATE OF group_id, created_at, status, transaction_type, method_detail, brand, source, currency, processor_id, captured_amount, refunded_amount
  ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
      `CREATE TRIGGER transactions_daily_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION payctl_rollup_transactions()`,
    ],
  },
  shared(m022, [
    'CREATE TRIGGER webhook_fault_rules_payctl_config_bump AFTER INSERT OR DELETE ON webhook_fault_rules FOR EACH STATEMENT EXECUTE FUNCTION payctl_config_bump()',
  ]),
  shared(m023),
  {
    version: 24,
    name: 'shared-server-state',
    statements: [
      // The pay rate limit's counted hits (real-time ms). Unlogged: a crash forgets the windows, as a restart does on SQLite.
      `CREATE UNLOGGED TABLE rate_limit_hits (bucket TEXT COLLATE "C" NOT NULL, address TEXT COLLATE "C" NOT NULL, at_ms BIGINT NOT NULL)`,
      'CREATE INDEX rate_limit_hits_key ON rate_limit_hits (bucket, address, at_ms)',
      // One count: the pair is locked (to the end of the call's transaction), so counts of several servers are exact.
      `CREATE FUNCTION payctl_rate_hit(p_bucket TEXT, p_address TEXT, p_now BIGINT, p_window BIGINT, p_points BIGINT)
  RETURNS TABLE (allowed BOOLEAN, used BIGINT, oldest BIGINT) LANGUAGE plpgsql AS $$
DECLARE
  n BIGINT;
  earliest BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(p_bucket), hashtext(p_address));
  DELETE FROM rate_limit_hits h WHERE h.bucket = p_bucket AND h.address = p_address AND h.at_ms <= p_now - p_window;
  SELECT count(*), min(h.at_ms) INTO n, earliest FROM rate_limit_hits h WHERE h.bucket = p_bucket AND h.address = p_address;
  allowed := n < p_points;
  IF allowed THEN
    INSERT INTO rate_limit_hits (bucket, address, at_ms) VALUES (p_bucket, p_address, p_now);
    n := n + 1;
    earliest := COALESCE(earliest, p_now);
  END IF;
  used := n;
  oldest := earliest;
  RETURN NEXT;
END $$`,
      // The running servers' admin tokens (SHA-256 only), each valid while its server renews its lease.
      `CREATE TABLE admin_tokens (server_id TEXT COLLATE "C" PRIMARY KEY, token_hash TEXT COLLATE "C" NOT NULL, expires_at TIMESTAMPTZ NOT NULL)`,
      'CREATE INDEX admin_tokens_hash ON admin_tokens (token_hash, expires_at)',
    ],
  },
  shared(m025),
  shared(m026),
  {
    version: 27,
    name: 'write-slots',
    statements: [
      // The change counters likewise: one row per slot, read as their sum through a view of
      // the old name (readers unchanged). Under SERIALIZABLE one counter row bumped by every
      // configuration change made concurrent changes on different servers (a sandbox
      // created on each) fail and run again.
      ...['config_version', 'vault_version'].flatMap((t) => [
        `CREATE TABLE ${t}_slots (slot BIGINT PRIMARY KEY, n BIGINT NOT NULL)`,
        `INSERT INTO ${t}_slots (slot, n) SELECT 0, n FROM ${t}`,
        `DROP TABLE ${t}`,
        `CREATE VIEW ${t} AS SELECT 1::bigint AS id, SUM(n)::bigint AS n FROM ${t}_slots`,
      ]),
      ...[['payctl_config_bump', 'config_version'], ['payctl_vault_bump', 'vault_version']].map(
        ([fn, t]) => `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ${t}_slots AS v (slot, n) VALUES (${SLOT}, 1) ON CONFLICT (slot) DO UPDATE SET n = v.n + 1;
  RETURN NULL;
END $$`,
      ),
      // Each server counts into a slot of its own (payctl.rollup_slot, set by the store in
      // every write): a sale's rollup upsert meets only its own server's rows, not the
      // others' (under SERIALIZABLE, one shared row per day and dimensions made every
      // concurrent server's sale fail and run again). Reads SUM over rows, slots included.
      'CREATE SEQUENCE payctl_rollup_slot',
      `ALTER TABLE transaction_daily ADD COLUMN slot BIGINT NOT NULL DEFAULT ${SLOT}`,
      'ALTER TABLE transaction_daily DROP CONSTRAINT transaction_daily_pkey',
      `ALTER TABLE transaction_daily ADD PRIMARY KEY (${DIMENSIONS}, slot)`,
      'ALTER TABLE transaction_daily_dims ADD COLUMN slot BIGINT NOT NULL DEFAULT 0',
      'ALTER TABLE transaction_daily_dims DROP CONSTRAINT transaction_daily_dims_pkey',
      'ALTER TABLE transaction_daily_dims ADD PRIMARY KEY (group_id, dimension, day, status, value, slot)',
      rollupTransactionsFunction((r) => `substr(${r}.created_at, 1, 10)`),
      // The per-dimension rollup follows each transaction_daily row in the same slot.
      `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_high = net_high - OLD.net_high, net_low = net_low - OLD.net_low
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status AND slot = OLD.slot
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, slot, tx_count, net_high, net_low)
    SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.slot, NEW.tx_count, NEW.net_high, NEW.net_low
    FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
    ON CONFLICT (group_id, dimension, day, status, value, slot)
    DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_high = m.net_high + excluded.net_high, net_low = m.net_low + excluded.net_low;
  END IF;
  RETURN NULL;
END $$`,
    ],
  },
  shared(m028),
  {
    version: 29,
    name: 'settlement-claim-index',
    statements: [
      // Settlement claims the oldest unsettled sales of three statuses in (created_at, id)
      // order; the (status, created_at) index cannot give that order, so each chunk sorted
      // every candidate (218 ms a chunk at 80,000).
      `CREATE INDEX transactions_settle_due ON transactions (created_at, id) WHERE status IN ('pending', 'captured', 'partially_captured')`,
      // The claims' clock-offset scope reads `groups`; a database built through the API
      // changes too few of its rows for autovacuum's default threshold (50), and with no
      // statistics the planner took a sequential scan and sort of every subscription for
      // each billing chunk. Analyzed after a few changes instead.
      'ALTER TABLE groups SET (autovacuum_analyze_threshold = 1, autovacuum_analyze_scale_factor = 0.1)',
      'ANALYZE groups',
    ],
  },
  {
    version: 30,
    name: 'typed-columns',
    statements: [
      // The one trigger naming created_at in its column list (a column a trigger's
      // definition uses cannot change type): dropped for the change, made again below.
      'DROP TRIGGER transactions_daily_update ON transactions',
      // One rewrite per table: its instants parsed from the ISO text (the Z makes the
      // session's time zone irrelevant), its jsonb documents from their JSON text.
      ...Object.keys({ ...INSTANT_COLUMNS, ...JSONB_COLUMNS }).map((table) => {
        const changes = [
          ...(INSTANT_COLUMNS[table] ?? []).map((c) => `ALTER COLUMN ${c} TYPE timestamptz USING ${c}::timestamptz`),
          ...(JSONB_COLUMNS[table] ?? []).map((c) => `ALTER COLUMN ${c} TYPE jsonb USING ${c}::jsonb`),
        ];
        return `ALTER TABLE ${table} ${changes.join(', ')}`;
      }),
      // The rollup's day of a transaction is the UTC day of its instant, not its text's first 10 characters.
      rollupTransactionsFunction((r) => utcDay(`${r}.created_at`)),
      TRANSACTIONS_DAILY_UPDATE,
      eventDeliveriesFunction('jsonb_array_elements_text'),
      // A column whose type changed loses its statistics, and a rewritten table its size
      // estimate: the planner would guess (an unanalyzed `groups` turns the claims'
      // group-scope join into a sort of every candidate; see migration 29).
      ...Object.keys({ ...INSTANT_COLUMNS, ...JSONB_COLUMNS }).map((table) => `ANALYZE ${table}`),
    ],
  },
  {
    version: 31,
    name: 'rollup-dims-upsert',
    statements: [
      // The per-dimension rollup follows a transaction_daily row's change with one upsert
      // of the difference (an inserted row: all of it). The UPDATE it replaces read the
      // rows first: under SERIALIZABLE that read held a predicate lock on the rollup
      // index's page, and concurrent sales counting into other slots on that page failed
      // each other's commits (40001), ever more as the page filled. An upsert's conflict
      // check reads no snapshot and takes no such lock. A deleted row (a sandbox dropped,
      // its rows maybe gone already), or one whose key changed, still takes its old count
      // from the existing rows as before.
      `CREATE OR REPLACE FUNCTION payctl_rollup_dims() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved boolean := TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.group_id, OLD.day, OLD.status, OLD.brand, OLD.method_detail, OLD.source, OLD.slot)
    IS DISTINCT FROM (NEW.group_id, NEW.day, NEW.status, NEW.brand, NEW.method_detail, NEW.source, NEW.slot));
  kept boolean := TG_OP = 'UPDATE' AND NOT moved;
BEGIN
  IF moved THEN
    UPDATE transaction_daily_dims SET tx_count = tx_count - OLD.tx_count, net_high = net_high - OLD.net_high, net_low = net_low - OLD.net_low
    WHERE group_id = OLD.group_id AND day = OLD.day AND status = OLD.status AND slot = OLD.slot
      AND (dimension, value) IN (('', ''), ('brand', OLD.brand), ('method_detail', OLD.method_detail), ('source', OLD.source));
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN NULL;
  END IF;
  INSERT INTO transaction_daily_dims AS m (group_id, dimension, day, status, value, slot, tx_count, net_high, net_low)
  SELECT NEW.group_id, d.dimension, NEW.day, NEW.status, d.value, NEW.slot,
         NEW.tx_count - CASE WHEN kept THEN OLD.tx_count ELSE 0 END,
         NEW.net_high - CASE WHEN kept THEN OLD.net_high ELSE 0 END,
         NEW.net_low - CASE WHEN kept THEN OLD.net_low ELSE 0 END
  FROM (VALUES ('', ''), ('brand', NEW.brand), ('method_detail', NEW.method_detail), ('source', NEW.source)) AS d(dimension, value)
  ON CONFLICT (group_id, dimension, day, status, value, slot)
  DO UPDATE SET tx_count = m.tx_count + excluded.tx_count, net_high = m.net_high + excluded.net_high, net_low = m.net_low + excluded.net_low;
  RETURN NULL;
END $$`,
    ],
  },
  {
    version: 32,
    name: 'events-watermark',
    statements: [
      // How far the event log may be final: the sequence's last value, read first, and the
      // writes holding a writer lock (EVENTS_WRITER_LOCK, their backend's pid) at that
      // moment. A write takes that lock before its first position and holds it to its
      // end, so every position up to the value is final (committed and visible, or rolled
      // back) once those writes have ended: the reader checks that (../events.ts) on a
      // connection of its own choosing, without waiting inside the database — a wait here
      // would hold a pool connection that a write it waits for may need.
      `CREATE OR REPLACE FUNCTION payctl_events_watermark(OUT high bigint, OUT writers text[]) LANGUAGE plpgsql AS $$
BEGIN
  high := COALESCE(pg_sequence_last_value(pg_get_serial_sequence('events', 'seq')::regclass), 0);
  SELECT COALESCE(array_agg(l.virtualtransaction), '{}') INTO writers FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.classid = ${EVENTS_WRITER_LOCK} AND l.objsubid = 2 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> pg_backend_pid();
END $$`,
    ],
  },
  // Recorded calls are answered in the key order they were written in: json, not jsonb.
  {
    version: 33,
    name: 'sandbox-recordings',
    statements: [
      `CREATE TABLE sandbox_recordings (
      group_id TEXT COLLATE "C" PRIMARY KEY REFERENCES groups(id),
      started_at timestamptz NOT NULL,
      stopped_at timestamptz
    )`,
      `CREATE TABLE sandbox_recording_calls (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      group_id TEXT COLLATE "C" NOT NULL REFERENCES groups(id),
      method TEXT COLLATE "C" NOT NULL,
      path TEXT COLLATE "C" NOT NULL,
      route TEXT COLLATE "C" NOT NULL,
      headers json,
      body json,
      status BIGINT NOT NULL,
      answer json,
      recorded_at timestamptz NOT NULL
    )`,
      'CREATE INDEX sandbox_recording_calls_group ON sandbox_recording_calls (group_id, id)',
      'CREATE TABLE sandbox_demos (group_id TEXT COLLATE "C" PRIMARY KEY REFERENCES groups(id), ids json NOT NULL)',
      'CREATE TRIGGER sandbox_recordings_payctl_config_bump AFTER INSERT OR UPDATE OR DELETE ON sandbox_recordings FOR EACH STATEMENT EXECUTE FUNCTION payctl_config_bump()',
    ],
  },
  shared(m034),
  requestJournal,
  {
    version: 36,
    name: 'webhook-inbox',
    statements: [
      `ALTER TABLE webhook_endpoints ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'url'`,
      ...m036.ddl(POSTGRES_DDL),
      // Instants are timestamptz on PostgreSQL (migration 30); read back as SQLite's text.
      'ALTER TABLE webhook_inbox ALTER COLUMN received_at TYPE timestamptz USING received_at::timestamptz',
    ],
  },
  shared(m037),
  shared(m038),
];
