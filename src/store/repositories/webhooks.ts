// Webhook endpoints, deliveries and attempts on SQLite: the webhook stores. Deliveries
// are created by a trigger on events (migration 015); senders read due ones, claim them
// with a lease (compare-and-set), and record each attempt with the delivery's next
// state. An endpoint's type patterns are a JSON array and `disabled` 0/1 in the row; a
// list and a boolean in the entity — converted here.
import type { Executor, Tx } from '../db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';
import { flagColumn, fromJsonColumn, jsonColumn } from '../columns.js';
import type {
  ClaimedDelivery, WebhookAttemptEntity, WebhookAttemptStore, WebhookDeliveryStore, WebhookEndpointEntity, WebhookEndpointStore,
} from '../interfaces/webhooks.js';

interface WebhookEndpointRow extends Omit<WebhookEndpointEntity, 'enabled_events' | 'disabled'> {
  /** JSON array of type patterns. */
  enabled_events: string;
  disabled: number;
}

const ENDPOINT = 'id, group_id, url, description, enabled_events, disabled, secret, created_at, updated_at';
const ATTEMPT_COLUMNS = [
  'id', 'group_id', 'endpoint_id', 'delivery_id', 'event_id', 'event_type', 'attempt', 'status', 'response_status',
  'response_body', 'error', 'latency_ms', 'scheduled_at', 'next_attempt_at', 'created_at',
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
    tx.run(`INSERT INTO webhook_endpoints (${ENDPOINT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      e.id, e.group_id, e.url, e.description, jsonColumn(e.enabled_events), flagColumn(e.disabled), e.secret, e.created_at, e.updated_at,
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
      await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
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

export const deliveryRepo: WebhookDeliveryStore = {
  /**
   * Pending deliveries of `scope` due by `until` (group time) whose lease is free at
   * `realNow`, to an enabled endpoint: oldest due first.
   */
  due(ex: Executor, scope: GroupScope, until: string, realNow: number, limit: number) {
    const s = scopeCondition(scope, 'd.group_id');
    return ex.all<{ id: number }>(
      `SELECT d.id FROM webhook_deliveries d
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?) AND ${s.sql}
         AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.disabled = 0)
       ORDER BY d.next_attempt_at LIMIT ?`,
      [until, realNow, ...s.params, limit],
    );
  },
  /**
   * Claim deliveries for `owner` until `leaseUntil` (real ms): compare-and-set on a free
   * lease, so of two senders only one gets each row. Returns the rows this one got.
   */
  claim: (tx: Tx, ids: readonly number[], owner: string, leaseUntil: number, realNow: number) =>
    tx.all<ClaimedDelivery>(
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE id IN (${ids.map(() => '?').join(', ')}) AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)
       RETURNING id, group_id, endpoint_id, event_id, attempts, next_attempt_at`,
      [owner, leaseUntil, ...ids, realNow],
    ),
  /** Deliveries that succeeded, still held by `owner`. */
  succeeded: (tx: Tx, ids: readonly number[], owner: string) =>
    tx.run(
      `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
       WHERE id IN (${ids.map(() => '?').join(', ')}) AND lease_owner = ?`,
      [...ids, owner],
    ),
  /** A failed attempt: the next one due at `next`, or the delivery failed (next null). */
  failed: (tx: Tx, id: number, owner: string, next: string | null) =>
    tx.run(
      `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id = ? AND lease_owner = ?`,
      [next === null ? 'failed' : 'pending', next, id, owner],
    ),
  /** A new delivery of an event to an endpoint (a resend), due at `at`. */
  insert: (tx: Tx, groupId: string, endpointId: string, eventId: string, at: string) =>
    tx.run(
      `INSERT INTO webhook_deliveries (group_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
      [groupId, endpointId, eventId, at, at],
    ),
};

export const attemptRepo: WebhookAttemptStore = {
  /** Deferred: sent with the write's other rows. */
  insert(tx, r) {
    tx.deferInsert('webhook_attempts', ATTEMPT_COLUMNS, ATTEMPT_COLUMNS.map((c) => r[c]));
  },
  /** An endpoint's attempts, newest first. */
  list: (ex, groupId, endpointId, { limit, before }) =>
    ex.all<WebhookAttemptEntity>(
      `SELECT ${ATTEMPT_COLUMNS.join(', ')} FROM webhook_attempts WHERE group_id = ? AND endpoint_id = ?${before ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      before ? [groupId, endpointId, before, limit] : [groupId, endpointId, limit],
    ),
};
