// An e-mail of the outbox: the entity the store keeps, and the object `payctl outbox
// … --json` prints (one mapper, toOutboxEmail).
import { z } from 'zod';
import { timestamp } from './strings.js';

/** The kinds of e-mail the platform sends (`outbox list --kind` takes one). */
export const EMAIL_KINDS = ['receipt', 'invoice', 'onboarding'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** `payctl outbox list`: a page of the outbox, newest first, of one kind or all. */
export const outboxListInput = z.object({
  kind: z.enum(EMAIL_KINDS).optional(),
  limit: z.number().int().min(1).optional(),
  offset: z.number().int().min(0).optional(),
});

export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'stored'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export interface OutboxEntity {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  body: string;
  related_id: string | null;
  /** The group the e-mail was sent for (dropped with it); null for platform mail. */
  group_id: string | null;
  status: EmailStatus;
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

export const outboxEmailSchema = z.object({
  id: z.string(),
  kind: z.string().describe('receipt, invoice, onboarding …'),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  related_id: z.string().nullable().describe('The transaction, invoice or signup entry it is about'),
  group_id: z.string().nullable(),
  status: z.enum(EMAIL_STATUSES).describe('stored: no SMTP server configured; queued: waiting for delivery; sent; failed (see error)'),
  error: z.string().nullable(),
  created_at: timestamp,
  sent_at: timestamp.nullable(),
});
export type OutboxEmail = z.output<typeof outboxEmailSchema>;

export const toOutboxEmail = (r: OutboxEntity): OutboxEmail => ({
  id: r.id,
  kind: r.kind,
  to: r.to_address,
  subject: r.subject,
  body: r.body,
  related_id: r.related_id,
  group_id: r.group_id,
  status: r.status,
  error: r.error,
  created_at: r.created_at,
  sent_at: r.sent_at,
});
