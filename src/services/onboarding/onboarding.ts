// Onboarding (spec 15): signup forms, and signup entries that create a business account
// (a group in pending_review) and queue a confirmation e-mail, all in one write. When an
// SMTP server is configured the e-mail is then delivered; a failed delivery keeps the
// entry and turns 201 into 202. ssn, itin and ein are stored masked (last four) and
// never returned, e-mailed or logged.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { event } from '../events/events.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { signupEntrySchema, maskSensitive, type SignupEntry, type SignupEntryEntity } from '../../domain/onboarding.js';
import {
  accountName,
  confirmationEmail,
  signupFormNameSchema,
  type EmailDelivery,
  type SignupEntryResult,
  type SignupForm,
} from '../../domain/onboarding/response.js';
import { fieldsFromZod, validationError, type FieldProblem } from '../../errors.js';
import type { Executor } from '../../store/interfaces/db.js';
import { deliverNow, queueEmail } from '../mail/outbox.js';
import { newId } from '../../lib/ids.js';

export const createSignupForm = useCase({
  input: z.object({ name: signupFormNameSchema }),
  async run(p: Platform, ctx: RequestContext, input): Promise<SignupForm> {
    const form: SignupForm = { id: newId(), name: input.name, created_at: ctx.clock.nowIso() };
    return unitOfWork(ctx, async ({ tx }) => {
      await tx.repos.signupForms.insert(tx, form);
      return form;
    });
  },
});

export const listSignupForms = useCase({
  input: z.object({}),
  run: (p: Platform, ctx: RequestContext): Promise<SignupForm[]> => ctx.store.repos.signupForms.list(ctx.store),
});

const UNKNOWN_FORM: FieldProblem = {
  path: 'signup_form_id',
  message: 'is not a signup form known to the platform (payctl signup-form list)',
};

async function formProblems(ex: Executor, body: unknown): Promise<FieldProblem[]> {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).signup_form_id : undefined;
  if (typeof id !== 'string' || id === '') return []; // the schema reports it
  return (await ex.repos.signupForms.find(ex, id)) ? [] : [UNKNOWN_FORM];
}

/** Every problem of a body (the schema's rules and an unknown signup_form_id), and the parsed entry when there are none. */
export async function validateSignupEntry(p: Platform, body: unknown): Promise<{ entry?: SignupEntry; problems: FieldProblem[] }> {
  const parsed = signupEntrySchema.safeParse(body);
  const problems = [...(parsed.success ? [] : fieldsFromZod(parsed.error)), ...(await formProblems(p.db, body))];
  return problems.length === 0 && parsed.success ? { entry: parsed.data, problems } : { problems };
}

function toApi(row: SignupEntryEntity, emailId: string, delivery: EmailDelivery): SignupEntryResult {
  return {
    id: row.id,
    status: row.status,
    external_id: row.external_id,
    group_id: row.group_id,
    signup_form_id: row.signup_form_id,
    business_name: row.business_name,
    created_at: row.created_at,
    email_delivery: delivery,
    confirmation_email_id: emailId,
  };
}

/** `payctl onboard --dry-run`: every problem of an entry (the schema's and an unknown form's), nothing written. */
export const checkSignupEntry = useCase({
  input: z.object({ entry: z.unknown() }),
  run: (p: Platform, ctx: RequestContext, input) => validateSignupEntry(p, input.entry),
});

export interface SubmitOutcome {
  /** 201, or 202 when the confirmation e-mail could not be delivered (the entry exists). */
  status: 201 | 202;
  body: SignupEntryResult;
}

/**
 * POST /api/v1/processing/signup_entry. 400 lists every problem (validateSignupEntry):
 * the schema's and an unknown signup form's together, so the entry comes as it was
 * sent and is checked here, not by the input schema alone.
 */
export const submitSignupEntry = useCase({
  input: z.object({ entry: z.unknown() }),
  run: (p: Platform, ctx: RequestContext, input) => submit(p, ctx, input.entry),
});

async function submit(p: Platform, ctx: RequestContext, body: unknown): Promise<SubmitOutcome> {
  const { entry, problems } = await validateSignupEntry(p, body);
  if (!entry) throw validationError(problems);

  const created = await unitOfWork(ctx, async ({ tx, emit, settleAfterCommit }) => {
    if (!(await tx.repos.signupForms.find(tx, entry.signup_form_id))) throw validationError([UNKNOWN_FORM]);
    const now = ctx.clock.nowIso();
    const groupId = newId();
    await tx.repos.groups.insert(tx, {
      id: groupId,
      name: accountName(entry.business),
      pricing: 'flat',
      status: 'pending_review',
      created_at: now,
      updated_at: now,
    });
    const row: SignupEntryEntity = {
      id: newId(),
      signup_form_id: entry.signup_form_id,
      external_id: entry.external_id ?? null,
      group_id: groupId,
      status: 'pending_review',
      business_name: entry.business.business_name,
      entry: maskSensitive(entry),
      created_at: now,
    };
    await tx.repos.signupEntries.insert(tx, row);
    // The e-mail's text needs the ids; they are known before its insert.
    const draft = toApi(row, '', 'stored');
    const mail = confirmationEmail(draft, entry);
    const email = await queueEmail(tx, p, { kind: 'onboarding', ...mail, relatedId: row.id, groupId: row.group_id }, { deliverAfterCommit: false });
    // This value is what an Idempotency-Key replay repeats (status 201)…
    const result = toApi(row, email.id, email.status === 'queued' ? 'queued' : 'stored');
    // …unless the e-mail goes now: the answer (201 sent, 202 failed) is known after it.
    if (email.status === 'queued') settleAfterCommit();
    // The entry belongs to the account it opened (a public request has no group of its own).
    emit({ ...event('signup_entry.created', result), group: groupId, at: now });
    return result;
  });

  if (created.email_delivery !== 'queued') return { status: 201, body: created };
  const delivered = await deliverNow(p, created.confirmation_email_id).then(
    (r) => r.delivered,
    () => false, // recording the outcome failed: the e-mail cannot be counted as sent
  );
  return delivered
    ? { status: 201, body: { ...created, email_delivery: 'sent' } }
    : { status: 202, body: { ...created, email_delivery: 'failed' } };
}

/** The stored entry (sensitive numbers masked), for operators and tests. */
export const getSignupEntry = (p: Platform, id: string): Promise<SignupEntryEntity | undefined> => p.db.repos.signupEntries.find(p.db, id);
