// What `payctl onboard` hands the wizard: submitting through the onboarding service,
// and drafts on disk (Ctrl+S, --resume). A draft holds what was typed so far except
// ssn, itin and ein: those are never written to a file (the wizard asks for them again
// after --resume). The draft file is created readable by its owner only.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Draft, SubmitResult } from '../tui/onboarding-wizard.js';
import type { SignupEntry } from '../domain/onboarding.js';
import type { EmailDelivery } from '../domain/onboarding/response.js';
import type { Platform } from '../services/platform.js';
import { submitSignupEntry, type SubmitOutcome } from '../services/onboarding/onboarding.js';
import { execute } from '../services/use-case.js';
import { AppError } from '../errors.js';
import { contextFor } from '../services/context.js';

const SENSITIVE = new Set(['ssn', 'itin', 'ein']);

/** A copy without any ssn, itin or ein, at any depth. */
export function withoutSensitive<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => !SENSITIVE.has(k)).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value) as T;
}

/** Write the draft; returns the text the wizard shows. */
export async function saveDraft(file: string, draft: Draft): Promise<string> {
  await writeFile(file, `${JSON.stringify(withoutSensitive(draft), null, 2)}\n`, { mode: 0o600 });
  return `${path.resolve(file)} (ssn, itin and ein are not saved; resume with --resume ${file})`;
}

export async function loadDraft(file: string): Promise<Draft> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new AppError(400, 'validation_error', `cannot read the draft ${file}`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, 'validation_error', `the draft ${file} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError(400, 'validation_error', `the draft ${file} must hold a JSON object (a partial signup entry)`);
  }
  return value as Draft;
}

export const DELIVERY_TEXT: Record<EmailDelivery, string> = {
  sent: 'sent',
  failed: 'NOT sent (the SMTP server refused it or could not be reached)',
  stored: 'in the outbox (no SMTP server configured)',
  queued: 'queued',
};

export interface WizardSession {
  onSubmit(entry: SignupEntry): Promise<SubmitResult>;
  onSaveDraft(draft: Draft): Promise<string>;
  /** The created entry once a submit succeeded. */
  created(): SubmitOutcome | undefined;
}

/** The wizard's callbacks: submit with the same service as the API, save drafts to `draftFile`. */
export function wizardSession(p: Platform, draftFile: string): WizardSession {
  let created: SubmitOutcome | undefined;
  return {
    created: () => created,
    onSaveDraft: (draft) => saveDraft(draftFile, draft),
    async onSubmit(entry) {
      try {
        created = await execute(submitSignupEntry, p, contextFor(p, undefined), { entry });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const fields = (err.fields ?? []).map((f) => `${f.path}: ${f.message}`);
        return { ok: false, message: `Not submitted: ${fields.length ? fields.join('; ') : err.message}` };
      }
      const e = created.body;
      const mail =
        created.status === 202 ? 'the confirmation e-mail could not be sent; contact support' : `confirmation e-mail ${DELIVERY_TEXT[e.email_delivery]}`;
      return { ok: true, message: `Created signup entry ${e.id}; business account ${e.group_id} is pending review (${mail}).` };
    },
  };
}
