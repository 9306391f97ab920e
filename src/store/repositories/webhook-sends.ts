// What a webhook sender reads and writes beyond the delivery rows: everything to send a
// pass's claimed deliveries in one read (each event's columns with its data as stored
// JSON text, so the body is assembled without parsing and re-serializing it; each
// endpoint's URL and signing secrets), and a rotated-out secret's grace period.
import type { Executor, Tx } from '../db.js';

export interface SendRow {
  delivery_id: number;
  event_id: string;
  type: string;
  created_at: string;
  group_id: string;
  request_id: string | null;
  idempotency_key: string | null;
  /** JSON text: `{ object, previous_attributes? }`. */
  data: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  /** Group time until which the previous secret also signs. */
  previous_secret_expires_at: string | null;
}

export const webhookSendRepo = {
  /** The claimed deliveries whose event and endpoint still exist (one row each). */
  plan: (ex: Executor, deliveryIds: readonly number[]) =>
    ex.all<SendRow>(
      `SELECT d.id AS delivery_id, e.id AS event_id, e.type, e.created_at, e.group_id, e.request_id, e.idempotency_key, e.data,
              w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
       FROM webhook_deliveries d JOIN events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.id IN (${deliveryIds.map(() => '?').join(', ')})`,
      [...deliveryIds],
    ),
  /** Keep `secret` (just replaced) signing until `until` (group time). */
  retireSecret: (tx: Tx, groupId: string, endpointId: string, secret: string, until: string) =>
    tx.run('UPDATE webhook_endpoints SET previous_secret = ?, previous_secret_expires_at = ? WHERE group_id = ? AND id = ?', [secret, until, groupId, endpointId]),
};
