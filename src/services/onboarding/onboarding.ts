// Onboarding (spec 15): signup forms, and signup entries that create a business account
// (a group in pending_review) and queue a confirmation e-mail, all in one write. When an
// SMTP server is configured the e-mail is then delivered; a failed delivery keeps the
// entry and turns 201 into 202. ssn, itin and ein are stored masked (last four) and
// never returned, e-mailed or logged.
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { RequestContext } from '../context.js';
import type { DemoStep } from '../../dev/demo.js';
import { signupEntrySchema, maskSensitive, type SignupEntry } from '../../domain/onboarding.js';
import {
  accountName,
  confirmationEmail,
  signupFormNameSchema,
  type EmailDelivery,
  type SignupEntryResult,
  type SignupForm,
} from '../../domain/onboarding-response.js';
import { fieldsFromZod, parseOrThrow, validationError, type FieldProblem } from '../../errors.js';
import { signupEntryRepo, signupFormRepo, type SignupEntryRow } from '../../store/repositories/onboarding.js';
import { groupRepo } from '../../store/repositories/groups.js';
import type { Executor } from '../../store/db.js';
import { deliverNow, queueEmail } from '../../mail/outbox.js';
import { newId } from '../../lib/ids.js';

export async function createSignupForm(p: Platform, name: unknown): Promise<SignupForm> {
  const row: SignupForm = { id: newId(), name: parseOrThrow(signupFormNameSchema, name, ['name']), created_at: p.clock.nowIso() };
  return p.db.write(async (tx) => {
    await signupFormRepo.insert(tx, row);
    return row;
  });
}

export const listSignupForms = (p: Platform): Promise<SignupForm[]> => signupFormRepo.list(p.db);

const UNKNOWN_FORM: FieldProblem = {
  path: 'signup_form_id',
  message: 'is not a signup form known to the platform (payctl signup-form list)',
};

async function formProblems(ex: Executor, body: unknown): Promise<FieldProblem[]> {
  const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).signup_form_id : undefined;
  if (typeof id !== 'string' || id === '') return []; // the schema reports it
  return (await signupFormRepo.find(ex, id)) ? [] : [UNKNOWN_FORM];
}

/** Every problem of a body (the schema's rules and an unknown signup_form_id), and the parsed entry when there are none. */
export async function validateSignupEntry(p: Platform, body: unknown): Promise<{ entry?: SignupEntry; problems: FieldProblem[] }> {
  const parsed = signupEntrySchema.safeParse(body);
  const problems = [...(parsed.success ? [] : fieldsFromZod(parsed.error)), ...(await formProblems(p.db, body))];
  return problems.length === 0 && parsed.success ? { entry: parsed.data, problems } : { problems };
}

function toApi(row: SignupEntryRow, emailId: string, delivery: EmailDelivery): SignupEntryResult {
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

export interface SubmitOutcome {
  /** 201, or 202 when the confirmation e-mail could not be delivered (the entry exists). */
  status: 201 | 202;
  body: SignupEntryResult;
}

/** POST /api/v1/processing/signup_entry. 400 lists every problem (validateSignupEntry). */
export async function submitSignupEntry(p: Platform, ctx: RequestContext, body: unknown): Promise<SubmitOutcome> {
  const { entry, problems } = await validateSignupEntry(p, body);
  if (!entry) throw validationError(problems);

  const created = await unitOfWork(ctx, async ({ tx }) => {
    if (!(await signupFormRepo.find(tx, entry.signup_form_id))) throw validationError([UNKNOWN_FORM]);
    const now = ctx.clock.nowIso();
    const groupId = newId();
    await groupRepo.insert(tx, {
      id: groupId,
      name: accountName(entry.business),
      pricing: 'flat',
      status: 'pending_review',
      created_at: now,
      updated_at: now,
    });
    const row: SignupEntryRow = {
      id: newId(),
      signup_form_id: entry.signup_form_id,
      external_id: entry.external_id ?? null,
      group_id: groupId,
      status: 'pending_review',
      business_name: entry.business.business_name,
      entry_json: JSON.stringify(maskSensitive(entry)),
      created_at: now,
    };
    await signupEntryRepo.insert(tx, row);
    // The e-mail's text needs the ids; they are known before its insert.
    const draft = toApi(row, '', 'stored');
    const mail = confirmationEmail(draft, entry);
    const email = await queueEmail(tx, p, { kind: 'onboarding', ...mail, relatedId: row.id, groupId: row.group_id }, { deliverAfterCommit: false });
    // This value is what an Idempotency-Key replay repeats (status 201).
    return toApi(row, email.id, email.status === 'queued' ? 'queued' : 'stored');
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
export async function getSignupEntry(p: Platform, id: string): Promise<(SignupEntryRow & { entry: SignupEntry }) | undefined> {
  const row = await signupEntryRepo.find(p.db, id);
  return row ? { ...row, entry: JSON.parse(row.entry_json) as SignupEntry } : undefined;
}

/** `payctl init --demo`: one signup form, printed as signup_form_id. */
export const onboardingDemoStep: DemoStep = {
  name: 'signup-form',
  async run(p) {
    const form = await createSignupForm(p, 'Demo signup form');
    return { signup_form_id: form.id };
  },
};
