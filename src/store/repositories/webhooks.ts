// Webhook endpoints, deliveries and attempts. Deliveries are created by a trigger on
// events (migration 015); senders read due ones, claim them with a lease
// (compare-and-set), and record each attempt with the delivery's next state.
import type { Executor, Tx } from '../db.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';

export interface WebhookEndpointRow {
  id: string;
  group_id: string;
  url: string;
  description: string | null;
  /** JSON array of type patterns. */
  enabled_events: string;
  disabled: number;
  secret: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  id: number;
  group_id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  next_attempt_at: string;
}

export interface AttemptRow {
  id: string;
  group_id: string;
  endpoint_id: string;
  delivery_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  latency_ms: number;
  scheduled_at: string;
  next_attempt_at: string | null;
  created_at: string;
}

const ENDPOINT = 'id, group_id, url, description, enabled_events, disabled, secret, created_at, updated_at';
const ATTEMPT_COLUMNS = [
  'id', 'group_id', 'endpoint_id', 'delivery_id', 'event_id', 'event_type', 'attempt', 'status', 'response_status',
  'response_body', 'error', 'latency_ms', 'scheduled_at', 'next_attempt_at', 'created_at',
] as const;

export const webhookEndpointRepo = {
  insert: (tx: Tx, r: WebhookEndpointRow) =>
    tx.run(`INSERT INTO webhook_endpoints (${ENDPOINT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      r.id, r.group_id, r.url, r.description, r.enabled_events, r.disabled, r.secret, r.created_at, r.updated_at,
    ]),
  find: (ex: Executor, groupId: string, id: string) =>
    ex.get<WebhookEndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE group_id = ? AND id = ?`, [groupId, id]),
  /** Newest first. */
  list: (ex: Executor, groupId: string, limit: number, before?: string) =>
    ex.all<WebhookEndpointRow>(
      `SELECT ${ENDPOINT} FROM webhook_endpoints WHERE group_id = ?${before ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      before ? [groupId, before, limit] : [groupId, limit],
    ),
  count: async (ex: Executor, groupId: string) =>
    (await ex.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE group_id = ?', [groupId]))!.n,
  update: (tx: Tx, r: WebhookEndpointRow) =>
    tx.run('UPDATE webhook_endpoints SET url = ?, description = ?, enabled_events = ?, disabled = ?, secret = ?, updated_at = ? WHERE group_id = ? AND id = ?', [
      r.url, r.description, r.enabled_events, r.disabled, r.secret, r.updated_at, r.group_id, r.id,
    ]),
  /** The endpoint, its deliveries and its attempts. */
  async delete(tx: Tx, groupId: string, id: string): Promise<number> {
    const { changes } = await tx.run('DELETE FROM webhook_endpoints WHERE group_id = ? AND id = ?', [groupId, id]);
    if (changes > 0) {
      await tx.run('DELETE FROM webhook_attempts WHERE endpoint_id = ?', [id]);
      await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
    }
    return changes;
  },
  /** The groups that have an enabled endpoint. */
  activeGroups: async (ex: Executor) =>
    (await ex.all<{ group_id: string }>('SELECT DISTINCT group_id FROM webhook_endpoints WHERE disabled = 0')).map((r) => r.group_id),
  byIds: (ex: Executor, ids: readonly string[]) =>
    ex.all<Pick<WebhookEndpointRow, 'id' | 'url' | 'secret'>>(`SELECT id, url, secret FROM webhook_endpoints WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]),
  /** The enabled endpoints of a group. */
  enabled: (ex: Executor, groupId: string) =>
    ex.all<Pick<WebhookEndpointRow, 'id' | 'enabled_events'>>('SELECT id, enabled_events FROM webhook_endpoints WHERE group_id = ? AND disabled = 0', [groupId]),
};

export const deliveryRepo = {
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
    tx.all<DeliveryRow>(
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
  /** Pending deliveries of a group (tests and status lines). */
  pendingCount: async (ex: Executor, groupId: string) =>
    (await ex.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE group_id = ? AND status = 'pending'", [groupId]))!.n,
};

export const attemptRepo = {
  /** Deferred: sent with the write's other rows. */
  insert(tx: Tx, r: AttemptRow) {
    tx.deferInsert('webhook_attempts', ATTEMPT_COLUMNS, ATTEMPT_COLUMNS.map((c) => r[c]));
  },
  /** An endpoint's attempts, newest first. */
  list: (ex: Executor, groupId: string, endpointId: string, limit: number, before?: string) =>
    ex.all<AttemptRow>(
      `SELECT ${ATTEMPT_COLUMNS.join(', ')} FROM webhook_attempts WHERE group_id = ? AND endpoint_id = ?${before ? ' AND id < ?' : ''} ORDER BY id DESC LIMIT ?`,
      before ? [groupId, endpointId, before, limit] : [groupId, endpointId, limit],
    ),
};
