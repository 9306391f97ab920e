// A delivery's body, shared by the sender (a POST) and the inbox (a collected message): the same bytes.
import type { WebhookSend } from '../../store/interfaces/webhooks.js';

/**
 * The body of a delivery: the event as GET …/events/{id} answers it (the API's masked
 * objects), byte for byte the JSON text of `toEvent(row)`, assembled around the stored
 * data text instead of parsing and re-serializing it.
 */
export function eventBody(r: Pick<WebhookSend, 'event_id' | 'type' | 'created_at' | 'group_id' | 'request_id' | 'idempotency_key' | 'data'>): string {
  const request = r.request_id === null ? 'null' : JSON.stringify({ id: r.request_id, idempotency_key: r.idempotency_key });
  const head = JSON.stringify({ id: r.event_id, type: r.type, created_at: r.created_at, group_id: r.group_id }).slice(0, -1);
  return `${head},"data":${r.data},"request":${request}}`;
}
