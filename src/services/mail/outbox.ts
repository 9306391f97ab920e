// The e-mail outbox: every e-mail the platform sends is a row here (readable with
// `payctl outbox`). When PAYCTL_SMTP_URL is set it is also delivered over SMTP
// (src/mail/smtp.ts) after the write commits; the outcome is recorded on the row.
// Callers that must know the outcome (onboarding: 201 vs 202) call `deliverNow` after
// their write.
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../domain/paging.js';
import type { Platform } from '../platform.js';
import type { Tx } from '../../store/interfaces/db.js';
import { outboxListInput, toOutboxEmail, type EmailKind, type OutboxEmail, type OutboxEntity } from '../../domain/email.js';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { ENV } from '../../config/env.js';
import { sendSmtp } from '../../mail/smtp.js';

export interface EmailInput {
  kind: EmailKind;
  to: string;
  subject: string;
  body: string;
  relatedId?: string;
  /** The group it is sent for: a dropped sandbox takes its e-mails with it. */
  groupId?: string;
}

/** Queue an e-mail inside the caller's write; delivery (if SMTP is configured) runs after the commit. */
export async function queueEmail(tx: Tx, p: Platform, input: EmailInput, opts: { deliverAfterCommit?: boolean } = {}): Promise<OutboxEntity> {
  const smtp = p.env[ENV.smtpUrl];
  const row: OutboxEntity = {
    id: newId(),
    kind: input.kind,
    to_address: input.to,
    subject: input.subject,
    body: input.body,
    related_id: input.relatedId ?? null,
    group_id: input.groupId ?? null,
    status: smtp ? 'queued' : 'stored',
    error: null,
    created_at: p.clock.nowIso(),
    sent_at: null,
  };
  await tx.repos.outbox.insert(tx, row);
  if (smtp && opts.deliverAfterCommit !== false) tx.afterCommit(() => deliverNow(p, row.id).then(() => undefined));
  return row;
}

/** Deliver one outbox e-mail over SMTP now; records and returns the outcome. */
export async function deliverNow(p: Platform, id: string): Promise<{ delivered: boolean; error?: string }> {
  const smtp = p.env[ENV.smtpUrl];
  const row = await p.db.repos.outbox.find(p.db, id);
  if (!row) return { delivered: false, error: 'no such e-mail' };
  if (!smtp) return { delivered: false, error: 'no SMTP server configured (PAYCTL_SMTP_URL)' };
  try {
    await sendSmtp(smtp, {
      from: p.env[ENV.mailFrom] ?? 'payctl <no-reply@payctl.local>',
      to: row.to_address,
      subject: row.subject,
      text: row.body,
    });
    await p.db.write((tx) => tx.repos.outbox.markDelivered(tx, id, 'sent', null, p.clock.nowIso()));
    return { delivered: true };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await p.db.write((tx) => tx.repos.outbox.markDelivered(tx, id, 'failed', error.slice(0, 500), p.clock.nowIso()));
    return { delivered: false, error };
  }
}

/** The outbox's e-mails, newest first. */
export const listOutbox = useCase({
  input: outboxListInput,
  run: async (p: Platform, ctx: RequestContext, input): Promise<OutboxEmail[]> =>
    (await ctx.store.repos.outbox.list(ctx.store, Math.min(input.limit ?? PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX), input.offset ?? 0, input.kind)).map(toOutboxEmail),
});

/** One e-mail of the outbox, or 404. */
export const getOutbox = useCase({
  input: z.object({ email_id: z.string() }),
  async run(p: Platform, ctx: RequestContext, input): Promise<OutboxEmail> {
    const row = await ctx.store.repos.outbox.find(ctx.store, input.email_id);
    if (!row) throw notFound('e-mail');
    return toOutboxEmail(row);
  },
});
