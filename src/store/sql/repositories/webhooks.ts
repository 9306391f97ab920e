// Webhook endpoints, deliveries and attempts: the webhook stores. Deliveries
// are created by a trigger on events (migration 015); senders read due ones
// (webhook-sends.ts), claim them with a lease (compare-and-set), and record each attempt
// with the delivery's next state. An endpoint's type patterns are a JSON array and `disabled` 0/1 in the row; a
// list and a boolean in the entity — converted here.
import type { Executor, Tx, Update } from '../../interfaces/db.js';
import { updateSql } from '../update.js';
import type { Dialect } from '../dialect.js';
import { flagColumn, fromJsonColumn, jsonColumn } from '../columns.js';
import { dueCondition } from './webhook-sends.js';
import type {
  DeliveryVersion, WebhookAttemptEntity, WebhookAttemptStore, WebhookDeliveryStore, WebhookEndpointEntity, WebhookEndpointStore,
} from '../../interfaces/webhooks.js';

interface WebhookEndpointRow extends Omit<WebhookEndpointEntity, 'enabled_events' | 'disabled'> {
  /** JSON array of type patterns. */
  enabled_events: string;
  disabled: number;
}

const ENDPOINT = 'id, group_id, kind, url, description, enabled_events, disabled, secret, created_at, updated_at';
const ATTEMPT_COLUMNS = [
  'id', 'group_id', 'endpoint_id', 'delivery_id', 'event_id', 'event_type', 'attempt', 'status', 'response_status',
  'response_body', 'error', 'latency_ms', 'scheduled_at', 'next_attempt_at', 'created_at', 'fault',
] as const;

/** The entity of a row read back (in place: the row is fresh from the driver). */
function toEntity<R extends Partial<WebhookEndpointRow>>(row: R): Omit<R, 'enabled_events' | 'disabled'> & Partial<WebhookEndpointEntity> {
  const e = row as unknown as Partial<WebhookEndpointEntity>;
  if (row.enabled_events !== undefined) e.enabled_events = fromJsonColumn<string[]>(row.enabled_events) ?? [];
  if (row.disabled !== undefined) e.disabled = row.disabled === 1;
  return e as Omit<R, 'enabled_events' | 'disabled'> & Partial<WebhookEndpointEntity>;
}
const endpoint = (row: WebhookEndpointRow | undefined) => row && (toEntity(row) as WebhookEndpointEntity);

export const webhookEndpointRepo: WebhookEndpointStore = {
  insert: (tx, e) =>
    tx.run(`INSERT INTO webhook_endpoints (${ENDPOINT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      e.id, e.group_id, e.kind, e.url, e.description, jsonColumn(e.enabled_events), flagColumn(e.disabled), e.secret, e.created_at, e.updated_at,
    ]),
  find: async (ex, groupId, id) =>
    endpoint(await ex.get<WebhookEndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE group_id = ? AND id = ?`, [groupId, id])),
  list: async (ex, groupId, { limit, before }) =>
    (
      await ex.all<WebhookEndpointRow>(
        `SELECT ${ENDPOINT} FROM webhook_endpoints WHERE group_id = ?${before ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
        before ? [groupId, before, limit] : [groupId, limit],
      )
    ).map((r) => toEntity(r) as WebhookEndpointEntity),
  count: async (ex, groupId) =>
    (await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE group_id = ?', [groupId]))?.n ?? 0,
  update: (tx, e) =>
    tx.run('UPDATE webhook_endpoints SET url = ?, description = ?, enabled_events = ?, disabled = ?, secret = ?, updated_at = ? WHERE group_id = ? AND id = ?', [
      e.url, e.description, jsonColumn(e.enabled_events), flagColumn(e.disabled), e.secret, e.updated_at, e.group_id, e.id,
    ]),
  async delete(tx, groupId, id) {
    const { changes } = await tx.run('DELETE FROM webhook_endpoints WHERE group_id = ? AND id = ?', [groupId, id]);
    if (changes > 0) {
      await tx.run('DELETE FROM webhook_attempts WHERE endpoint_id = ?', [id]);
      await tx.run('DELETE FROM webhook_fault_rules WHERE endpoint_id = ?', [id]);
      await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
      await tx.run('DELETE FROM webhook_inbox WHERE group_id = ? AND endpoint_id = ?', [groupId, id]);
    }
    return changes;
  },
  activeGroups: async (ex) =>
    (await ex.all<{ group_id: string }>('SELECT DISTINCT group_id FROM webhook_endpoints WHERE disabled = 0')).map((r) => r.group_id),
  enabled: async (ex, groupId) =>
    (
      await ex.all<Pick<WebhookEndpointRow, 'id' | 'enabled_events'>>('SELECT id, enabled_events FROM webhook_endpoints WHERE group_id = ? AND disabled = 0', [groupId])
    ).map((r) => toEntity(r) as Pick<WebhookEndpointEntity, 'id' | 'enabled_events'>),
};

/**
 * The claim's compare-and-set: the delivery is still pending, due, its lease free, and at
 * the attempt the sender read (so an attempt another sender made meanwhile is not made
 * again). The picked (id, attempts) pairs travel as one JSON parameter. A delivery
 * another server is claiming at this moment is passed over (Dialect.skipLocked), not waited for.
 */
const claimSql = (d: Dialect, firstNow = false) => `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE status = 'pending' AND ${dueCondition('', firstNow)} AND (lease_until IS NULL OR lease_until < ?)
       AND id IN (SELECT id FROM webhook_deliveries WHERE (id, attempts) IN ${d.jsonIntegerPairs()}${d.skipLocked})`;
const claimUpdate = (d: Dialect, firstNow = false): Update => ({ table: 'webhook_deliveries', sql: claimSql(d, firstNow), reads: ['webhook_deliveries'] });
const versions = (picked: readonly DeliveryVersion[]) => JSON.stringify(picked.map((d) => [d.id, d.attempts]));
/** Deliveries that succeeded (ids as one JSON array), among those `owner` still holds. */
const settleOkSql = (d: Dialect) => `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
       WHERE id IN ${d.jsonValues('integer')} AND lease_owner = ?`;
/** A failed attempt, if `owner` still holds the delivery: due again at `next`, or failed for good. */
const SETTLE_FAILED: Update = {
  table: 'webhook_deliveries',
  set: 'status = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL',
  where: 'id = ? AND lease_owner = ?',
};
const failedParams = (id: number, owner: string, next: string | null) => [next === null ? 'failed' : 'pending', next, id, owner];

export const deliveryRepo: WebhookDeliveryStore = {
  // Deferred compare-and-sets name what they change by a key of their own ('claim:…',
  // 'settle:…'): no row a write inserts has it, so the batch's inserts may still travel
  // together after them (they change only webhook_deliveries, which no write inserts into
  // directly).
  claim(tx, picked, owner, leaseUntil, realNow, until, lost, firstNow) {
    tx.deferChange(
      claimUpdate(tx.dialect, firstNow),
      `claim:${owner}`,
      [owner, leaseUntil, until, realNow, versions(picked)],
      { changes: picked.length, error: lost },
    );
  },
  claimSome: async (tx, picked, owner, leaseUntil, realNow, until, firstNow) =>
    (
      await tx.all<{ id: number }>(`${claimSql(tx.dialect, firstNow)} RETURNING id`, [
        owner, leaseUntil, until, realNow, versions(picked),
      ])
    ).map((r) => r.id),
  settle(tx, owner, ok, failed, lost) {
    if (ok.length > 0) {
      tx.deferChange({ table: 'webhook_deliveries', sql: settleOkSql(tx.dialect), reads: [] }, `settle:${owner}`, [JSON.stringify(ok), owner], { changes: ok.length, error: lost });
    }
    // One SQL text for every failure: the batch sends them as one statement.
    for (const f of failed) {
      tx.deferChange(SETTLE_FAILED, `settle:${owner}:${f.id}`, failedParams(f.id, owner, f.next), {
        changes: 1,
        error: lost,
      });
    }
  },
  /** Deliveries that succeeded, still held by `owner`. */
  succeeded: (tx: Tx, ids: readonly number[], owner: string) => tx.run(settleOkSql(tx.dialect), [JSON.stringify(ids), owner]),
  /** An attempt a fault held back (delay, reorder): nothing was sent, no attempt counted; due again at `next`. */
  hold: (tx: Tx, id: number, owner: string, next: string) =>
    tx.run('UPDATE webhook_deliveries SET next_attempt_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [next, id, owner]),
  /** A fault held the delivery back: no attempt of it is held again. */
  markHeld: (tx: Tx, id: number) => tx.run('UPDATE webhook_deliveries SET held_once = 1 WHERE id = ?', [id]),
  /** A failed attempt: the next one due at `next`, or the delivery failed (next null). */
  failed: (tx: Tx, id: number, owner: string, next: string | null) => tx.run(updateSql(SETTLE_FAILED), failedParams(id, owner, next)),
  rescheduleGroup: (tx: Tx, groupId: string, at: string) =>
    tx.run("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE group_id = ? AND status = 'pending'", [at, groupId]),
  /** A new delivery of an event to an endpoint (a resend), due at `at`. */
  insert: (tx: Tx, groupId: string, endpointId: string, eventId: string, at: string) =>
    tx.run(
      `INSERT INTO webhook_deliveries (group_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
      [groupId, endpointId, eventId, at, at],
    ),
  countPending: async (ex: Executor) =>
    Number((await ex.get<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`))?.n ?? 0),
};

export const attemptRepo: WebhookAttemptStore = {
  /** Deferred: sent with the write's other rows. */
  insert(tx, r) {
    tx.deferInsert('webhook_attempts', ATTEMPT_COLUMNS, ATTEMPT_COLUMNS.map((c) => r[c]));
  },
  recorded: async (ex, endpointId, ids) =>
    ids.length === 0
      ? []
      : (await ex.all<{ id: string }>(`SELECT id FROM webhook_attempts WHERE endpoint_id = ? AND id IN ${ex.dialect.jsonValues()}`, [endpointId, JSON.stringify(ids)])).map((r) => r.id),
  /** An endpoint's attempts, newest first. */
  list: (ex, groupId, endpointId, { limit, before }) =>
    ex.all<WebhookAttemptEntity>(
      `SELECT ${ATTEMPT_COLUMNS.join(', ')} FROM webhook_attempts WHERE group_id = ? AND endpoint_id = ?${before ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      before ? [groupId, endpointId, before, limit] : [groupId, endpointId, limit],
    ),
};
