// A collector endpoint's attempt (kind `collect`, docs/testing.md "The webhook inbox"):
// the message is made exactly as a POST would carry it — the same body text, the same
// Standard Webhooks headers signed with the endpoint's secrets (or, under a bad_signature
// fault, with one nobody has) — and kept in the group's inbox instead of sent. Faults
// apply as to any endpoint: a drop keeps nothing, a hold keeps it later, a duplicate twice.
import type { InboxMessageEntity, WebhookSend } from '../../store/interfaces/webhooks.js';
import { newId } from '../../lib/ids.js';
import { signatureHeader } from './signing.js';

/** A message as a receiver would have got it: the body's text and its Standard Webhooks headers. */
export interface CollectedMessage {
  body: string;
  webhook_id: string;
  webhook_timestamp: string;
  webhook_signature: string;
}

/** The messages one attempt to a collector keeps (two when a fault duplicated it). */
export function collect(eventId: string, body: string, secrets: readonly string[], timestampS: number, duplicate: boolean): CollectedMessage[] {
  const m: CollectedMessage = {
    body,
    webhook_id: eventId,
    webhook_timestamp: String(timestampS),
    webhook_signature: signatureHeader(secrets, eventId, timestampS, body),
  };
  return duplicate ? [m, { ...m }] : [m];
}

/** A collected message as its inbox row, received at the attempt's group time. */
export function inboxRow(d: Pick<WebhookSend, 'group_id' | 'endpoint_id' | 'event_id' | 'type'>, m: CollectedMessage, receivedAt: string): InboxMessageEntity {
  return { id: newId(), group_id: d.group_id, endpoint_id: d.endpoint_id, event_id: d.event_id, event_type: d.type, ...m, received_at: receivedAt };
}
