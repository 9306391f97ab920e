// Human output of the e-mail outbox.
import type { OutboxEmail } from '../domain/email.js';
import { statusWord } from './colour.js';
import { keyValues, table } from './table.js';
import { dateTime } from './format.js';

export const outboxTable = (rows: OutboxEmail[]): string =>
  rows.length === 0
    ? 'No e-mails.'
    : table(['id', 'kind', { title: 'to', truncate: 12 }, { title: 'subject', truncate: 16 }, 'status', 'created'], rows.map((r) => [r.id, r.kind, r.to, r.subject, statusWord(r.status), dateTime(r.created_at)]));

/** One e-mail: its headers, a blank line, its body. */
export function outboxDetails(row: OutboxEmail): string {
  const head = keyValues([
    ['id', row.id], ['kind', row.kind], ['to', row.to], ['subject', row.subject], ['status', row.status + (row.error ? ` (${row.error})` : '')],
    ['related', row.related_id], ['created', dateTime(row.created_at)], ['sent', row.sent_at ? dateTime(row.sent_at) : ''],
  ]);
  return `${head}\n\n${row.body}`;
}
