// On PostgreSQL this version makes the per-dimension rollup follow transaction_daily with
// one upsert of the change instead of an UPDATE that first reads the rows (under
// SERIALIZABLE that read left a lock on the rollup's index page, and concurrent sales in
// other slots failed each other's commits). SQLite's trigger runs in its one writer, so
// this version has nothing to do here; it keeps the two stores' version numbers in step.
import type { Version } from './migration.js';

export default {
  version: 31,
  name: 'rollup-dims-upsert',
  sqlite: [],
  postgres: [
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
} satisfies Version;
