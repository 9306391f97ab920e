// PostgreSQL's trigger functions and texts that several versions make (again): each
// version's file writes PostgreSQL's own statements with these beside SQLite's triggers.

export const bumpFunction = (name: string, table: string) => `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ${table} SET n = n + 1 WHERE id = 1;
  RETURN NULL;
END $$`;
export const bumpTrigger = (fn: string, table: string) =>
  `CREATE TRIGGER ${table}_${fn} AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;

/** 2^26: the split of a net amount into halves (021-exact-money-rollup.ts, src/domain/money.ts SPLIT). */
export const SPLIT = '67108864';
export const DIMENSIONS = 'group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id';
/** The rollup slot of the write that counts a row (the store sets payctl.rollup_slot in every write; 0 outside one). */
export const SLOT = "COALESCE(NULLIF(current_setting('payctl.rollup_slot', true), ''), '0')::bigint";

/**
 * A changed transaction's old count leaves and its new count arrives, both in this
 * server's slot (a negative count there: the sums stay exact, no other server's row is
 * touched). Deleted (a sandbox dropped, its rollup rows maybe gone already): its count
 * leaves one existing row, as before slots. `day` is the UTC day of a row's created_at.
 */
export const rollupTransactionsFunction = (day: (row: 'OLD' | 'NEW') => string) => `CREATE OR REPLACE FUNCTION payctl_rollup_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
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

/** An event makes one delivery per enabled endpoint of its group that subscribes to its type (migration 15's trigger). */
export const eventDeliveriesFunction = (elements: 'json_array_elements_text' | 'jsonb_array_elements_text') => `CREATE OR REPLACE FUNCTION payctl_event_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (group_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
  SELECT NEW.group_id, w.id, NEW.id, 'pending', 0, NEW.created_at, NEW.created_at
  FROM webhook_endpoints w
  WHERE w.group_id = NEW.group_id AND w.disabled = 0
    AND EXISTS (SELECT 1 FROM ${elements}(w.enabled_events) AS p(value)
                WHERE p.value IN ('*', NEW.type, split_part(NEW.type, '.', 1) || '.*'));
  RETURN NULL;
END $$`;
