// On PostgreSQL the reporting rollups and the change counters (config_version,
// vault_version) get a slot per server (below), so that servers counting sales
// of the same day, or changing configuration at once, do not all update one row. One
// process writes a SQLite file, so here there is nothing to spread and this version has
// nothing to do; it keeps the two stores' version numbers in step.
import type { Version } from './migration.js';
import { DIMENSIONS, rollupTransactionsFunction, SLOT } from './postgres-functions.js';

export default {
  version: 27,
  name: 'write-slots',
  sqlite: [],
  postgres: [
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
} satisfies Version;
