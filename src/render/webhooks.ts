// Human output of webhook endpoints and their delivery attempts.
import type { WebhookAttempt, WebhookEndpoint } from '../domain/webhooks.js';
import { keyValues, table } from './table.js';
import { dateTime as when } from './format.js';

export function endpointBlock(e: WebhookEndpoint): string {
  return keyValues([
    ['id', e.id],
    ['url', e.url],
    ['events', e.enabled_events.join(', ')],
    ['description', e.description ?? ''],
    ['disabled', e.disabled ? 'yes' : 'no'],
    ['created', when(e.created_at)],
  ]);
}

export function endpointTable(items: WebhookEndpoint[]): string {
  return table(['id', { title: 'url', truncate: 20 }, { title: 'events', truncate: 12 }, 'disabled', { title: 'description', truncate: 12 }], items.map((e) => [e.id, e.url, e.enabled_events.join(','), e.disabled ? 'yes' : 'no', e.description ?? '']));
}

export function attemptTable(items: WebhookAttempt[]): string {
  return table(
    ['sent (group clock)', 'event', 'event id', 'try', 'status', 'code', 'ms', 'next attempt / error'],
    items.map((a) => [
      when(a.created_at),
      a.event_type,
      a.event_id,
      a.attempt,
      a.status,
      a.response_status ?? '-',
      a.latency_ms,
      [
        a.fault ? `fault: ${a.fault.split('; rule=')[0]}` : '',
        a.status === 'succeeded' ? '' : a.next_attempt_at ? `next ${when(a.next_attempt_at)}` : 'gave up',
        a.status === 'succeeded' ? '' : (a.error ?? ''),
      ].filter(Boolean).join('; '),
    ]),
  );
}
