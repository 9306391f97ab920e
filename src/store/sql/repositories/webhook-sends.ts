// The WebhookSendStore: a pass's due deliveries with everything to send them, in
// one read (which attempt each is, its event with the data as stored JSON text, its
// endpoint's URL and signing secrets), and a rotated-out secret's grace period.
import type { Executor, Tx } from '../../interfaces/db.js';
import type { WebhookSend, WebhookSendStore } from '../../interfaces/webhooks.js';
import { scopeCondition, type GroupScope } from './group-clocks.js';

/**
 * A delivery due by the time parameter; `firstNow`: or a first attempt not held back by a
 * fault (a frozen or accelerated group's events carry its clock's time, its deliveries
 * keep real time: docs/clock.md "What runs on which clock").
 */
export const dueCondition = (prefix: string, firstNow: boolean): string =>
  firstNow ? `(${prefix}next_attempt_at <= ? OR (${prefix}attempts = 0 AND ${prefix}held_once = 0))` : `${prefix}next_attempt_at <= ?`;

export const webhookSendRepo: WebhookSendStore = {
  /**
   * Pending deliveries of `scope` due by `until` (group time) whose lease is free at
   * `realNow`, to an enabled endpoint not in `skip` (endpoints whose queue is full),
   * oldest due first (the partial due index), each with its event and endpoint.
   */
  due(ex: Executor, scope: GroupScope, until: string, realNow: number, limit: number, skip: readonly string[] = [], firstNow = false) {
    const s = scopeCondition(scope, 'd.group_id');
    const skipping = skip.length > 0;
    return ex.all<WebhookSend>(
      `SELECT d.id AS delivery_id, d.endpoint_id, d.attempts, d.next_attempt_at, d.held_once,
              e.id AS event_id, e.type, e.created_at, e.group_id, e.request_id, e.idempotency_key, e.data,
              w.kind, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
       FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN events e ON e.group_id = d.group_id AND e.id = d.event_id
       WHERE d.status = 'pending' AND ${dueCondition('d.', firstNow)} AND (d.lease_until IS NULL OR d.lease_until < ?) AND ${s.sql} AND w.disabled = 0${
         skipping ? ` AND d.endpoint_id NOT IN ${ex.dialect.jsonValues()}` : ''
       }
       ORDER BY d.next_attempt_at LIMIT ?`,
      skipping ? [until, realNow, ...s.params, JSON.stringify(skip), limit] : [until, realNow, ...s.params, limit],
    );
  },
  /** Keep `secret` (just replaced) signing until `until` (group time). */
  retireSecret: (tx: Tx, groupId: string, endpointId: string, secret: string, until: string) =>
    tx.run('UPDATE webhook_endpoints SET previous_secret = ?, previous_secret_expires_at = ? WHERE group_id = ? AND id = ?', [secret, until, groupId, endpointId]),
};
