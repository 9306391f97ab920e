// What the onboarding endpoint answers (the spec leaves the shape "not shown"), the
// signup form object, and the confirmation e-mail's text. Pure: no I/O, no clock.
// Nothing here carries ssn, itin or ein: the response and the e-mail never echo them.
import { z } from 'zod';
import { timestamp } from '../strings.js';
import type { SignupEntry } from './index.js';

/** An entry and its business account start in review; approval is not an API operation yet. */
export const SIGNUP_ENTRY_STATUSES = ['pending_review', 'approved', 'rejected'] as const;
export type SignupEntryStatus = (typeof SIGNUP_ENTRY_STATUSES)[number];

/**
 * What happened to the confirmation e-mail: `sent` (the SMTP server accepted it, 201),
 * `failed` (SMTP refused or unreachable, 202), `stored` (no SMTP configured: outbox only,
 * 201), `queued` (only in an Idempotency-Key replay of an SMTP-configured submission:
 * the replay repeats the body recorded when the entry was written, before delivery).
 */
export const EMAIL_DELIVERY = ['sent', 'failed', 'stored', 'queued'] as const;
export type EmailDelivery = (typeof EMAIL_DELIVERY)[number];

export const signupEntryResultSchema = z
  .object({
    id: z.string().describe('the signup entry'),
    status: z.enum(SIGNUP_ENTRY_STATUSES),
    external_id: z.string().nullable().describe('as sent, or null'),
    group_id: z.string().describe('the business account created for the entry (a group in pending_review)'),
    signup_form_id: z.string(),
    business_name: z.string(),
    created_at: timestamp,
    email_delivery: z.enum(EMAIL_DELIVERY),
    confirmation_email_id: z.string().describe('the outbox e-mail (payctl outbox show ID)'),
  })
  .meta({
    id: 'SignupEntryResult',
    description: '201 Created; 202 when the confirmation e-mail could not be sent (email_delivery "failed"): the entry exists, the caller should contact support',
  });
export type SignupEntryResult = z.output<typeof signupEntryResultSchema>;

export const signupFormSchema = z.object({ id: z.string(), name: z.string(), created_at: timestamp });
export type SignupForm = z.output<typeof signupFormSchema>;

/** Name given to `payctl signup-form create`. */
export const signupFormNameSchema = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' });

/** A group name is at most 100 characters (createGroup's bound); longer legal names are cut. */
export function accountName(business: Pick<SignupEntry['business'], 'business_name'>): string {
  return [...business.business_name].slice(0, 100).join('').trim();
}

/** The confirmation e-mail to business.email: what was received, never a tax or social security number. */
export function confirmationEmail(result: SignupEntryResult, entry: SignupEntry): { to: string; subject: string; body: string } {
  const b = entry.business;
  const people = b.representatives.map((r) => [r.first_name, r.middle_name, r.last_name].filter(Boolean).join(' ')).join(', ');
  const lines = [
    'Hello,',
    '',
    `we received the application of ${b.business_name} (doing business as ${b.doing_business_as}).`,
    '',
    `Entry:             ${result.id}`,
    ...(result.external_id ? [`External id:       ${result.external_id}`] : []),
    `Business account:  ${result.group_id}`,
    `Status:            pending review`,
    `Representatives:   ${people}`,
    `Submitted:         ${result.created_at}`,
    '',
    'We review every application before processing starts and will write to this address when the review is done.',
    'If you have questions, contact support and quote the entry id.',
    '',
    '-- payctl',
  ];
  return { to: b.email, subject: `We received the application of ${b.business_name}`, body: lines.join('\n') };
}
