// The SQLite WebhookSendStore: everything to send a pass's claimed deliveries in one read
// (each event with its data as stored JSON text, each endpoint's URL and signing secrets),
// and a rotated-out secret's grace period.
import type { Executor, Tx } from '../db.js';
import type { WebhookSend, WebhookSendStore } from '../interfaces/webhooks.js';

export const webhookSendRepo: WebhookSendStore = {
  /** The claimed deliveries whose event and endpoint still exist (one row each). */
  plan: (ex: Executor, deliveryIds: readonly number[]) =>
    ex.all<WebhookSend>(
      `SELECT d.id AS delivery_id, e.id AS event_id, e.type, e.created_at, e.group_id, e.request_id, e.idempotency_key, e.data,
              w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
       FROM webhook_deliveries d JOIN events e ON e.group_id = d.group_id AND e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.id IN (${deliveryIds.map(() => '?').join(', ')})`,
      [...deliveryIds],
    ),
  /** Keep `secret` (just replaced) signing until `until` (group time). */
  retireSecret: (tx: Tx, groupId: string, endpointId: string, secret: string, until: string) =>
    tx.run('UPDATE webhook_endpoints SET previous_secret = ?, previous_secret_expires_at = ? WHERE group_id = ? AND id = ?', [secret, until, groupId, endpointId]),
};
