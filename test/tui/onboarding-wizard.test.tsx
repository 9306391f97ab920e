import '../helpers/env.js';
import { afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { signupEntrySchema, type SignupEntry } from '../../src/domain/onboarding.js';
import { PassThrough } from 'node:stream';
import {
  loadOnboardingWizard,
  renderOnboardingWizard,
  type Draft,
  type OnboardingWizardProps,
  type SubmitResult,
  type WizardResult,
} from '../../src/tui/onboarding-wizard.js';

import { tempPlatform } from '../helpers/platform.js';
import { wizardSession } from '../../src/cli/onboard-session.js';
import { createSignupForm, getSignupEntry, listSignupForms } from '../../src/services/onboarding/onboarding.js';
import { execute } from '../../src/services/use-case.js';
import { contextFor } from '../../src/services/context.js';
import type { Platform } from '../../src/services/platform.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
const load = (name: string): Json => JSON.parse(readFileSync(join(repoRoot(), 'data', 'examples', name), 'utf8'));

const KEY = { enter: '\r', esc: '\u001B', down: '\u001B[B', up: '\u001B[A', ctrlS: '\u0013', ctrlC: '\u0003', backspace: '\u007F', end: '\u001B[F' };

/** Let Ink read stdin, run the handlers and render (a lone Esc is flushed on setImmediate). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Tick until `check` holds (effects and promise callbacks run a few turns after a key). */
async function eventually(check: () => boolean, turns = 50): Promise<void> {
  for (let i = 0; i < turns && !check(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

type Wizard = Awaited<ReturnType<typeof loadOnboardingWizard>>;
let OnboardingWizard: Wizard;
before(async () => {
  OnboardingWizard = await loadOnboardingWizard();
});
afterEach(() => cleanup());

const stripAnsi = (s: string) => s.replace(/\u001B\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex

function start(props: Partial<OnboardingWizardProps> = {}) {
  const submitted: SignupEntry[] = [];
  const saved: Draft[] = [];
  const exits: WizardResult[] = [];
  const app = render(
    createElement(OnboardingWizard, {
      onSubmit: async (entry: SignupEntry): Promise<SubmitResult> => {
        submitted.push(entry);
        return { ok: true, message: 'Created: account acc_123' };
      },
      onSaveDraft: async (draft: Draft) => {
        saved.push(draft);
        return '/tmp/onboarding-draft.json';
      },
      onExit: (r: WizardResult) => exits.push(r),
      ...props,
    }),
  );
  const frame = () => stripAnsi(app.lastFrame() ?? '');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      app.stdin.write(k);
      await settle();
    }
  };
  /** The field the wizard is asking for, from its "? Label [path]" line (which may wrap at 100 columns). */
  const field = () => /^\? [^[]*\[([^\]]+)\]/m.exec(frame())?.[1]?.replace(/\s+/g, '');
  return { app, frame, press, field, submitted, saved, exits };
}

type Driver = ReturnType<typeof start>;

/** What a person would type to answer `path` with the target's value. */
function typed(path: string, value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none';
  if (typeof value === 'number' && path.endsWith('_amount')) return (value / 100).toFixed(2);
  return String(value);
}

const at = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Json)[k] : undefined), obj);

/** Answer every question from `target` until the review screen; returns the fields asked, in order. */
async function fillFrom(d: Driver, target: Json): Promise<string[]> {
  const asked: string[] = [];
  await settle();
  for (let guard = 0; guard < 300; guard++) {
    const id = d.field();
    if (!id) break;
    asked.push(id);
    if (id === 'business.representatives') {
      const reps = new Set(asked.map((a) => /^business\.representatives\.(\d+)\./.exec(a)?.[1]).filter(Boolean));
      await d.press(reps.size < target.business.representatives.length ? 'add' : 'continue', KEY.enter);
    } else {
      const text = typed(id, at(target, id));
      await d.press(...(text ? [text] : []), KEY.enter);
    }
    const again = d.field();
    if (again === id && id !== 'business.representatives') {
      assert.fail(`the wizard kept asking ${id}:\n${d.frame()}`);
    }
  }
  assert.match(d.frame(), /Review the signup entry/);
  return asked;
}

/** The card example as the wizard produces it: no empty optional fields, no amounts for under-10k. */
function cardTarget(): Json {
  const target = load('signup-entry.json');
  delete target.business.representatives[0].address_line_2;
  const instant = target.business.underwriting.send_funds.instant_bank.expected_transaction_activity;
  delete instant.average_transaction_amount;
  delete instant.maximum_transaction_amount;
  return target;
}

const FULFILLMENT = ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy'].map((k) => `business.underwriting.${k}`);

describe('onboarding wizard', () => {
  it('walks a card-accepting business with mostly in-person sales, skipping fulfillment', async () => {
    const target = cardTarget();
    const u = target.business.underwriting;
    u.acceptance_methods = { in_person: 85, online: 10, mail_or_phone: 5 };
    for (const k of ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy']) delete u[k];
    const d = start();
    const asked = await fillFrom(d, target);

    for (const f of FULFILLMENT) assert.equal(asked.includes(f), false, `${f} was asked`);
    assert.ok(asked.includes('business.underwriting.acceptance_methods.in_person'));
    assert.ok(asked.includes('business.representatives.1.first_name'), 'a second representative was added');
    assert.ok(asked.includes('business.representatives.1.itin'), 'ITIN asked when no SSN');
    assert.equal(asked.includes('business.representatives.0.itin'), false, 'ITIN not asked when an SSN is given');
    assert.ok(asked.includes('business.processing_statements.first_month_file_id'));
    assert.equal(asked.some((a) => a.startsWith('business.bank_statements')), false);
    assert.equal(asked.includes('business.ssn'), false, 'SSN is only for sole proprietors');
    // under-10k sections do not ask for amounts
    assert.equal(asked.includes('business.underwriting.send_funds.ach.expected_transaction_activity.average_transaction_amount'), false);

    assert.match(d.frame(), /EIN: •••••6789/, 'the review masks SSN and EIN, under the questions\' labels');
    assert.match(d.frame(), /lines 1–\d+ of \d+/, 'the review is longer than the terminal: it says where it is');
    await d.press(KEY.end);
    assert.match(d.frame(), /All rules are met/);
    assert.equal(d.frame().includes('123-45-6789'), false);
    await d.press(KEY.enter);
    await eventually(() => d.submitted.length > 0);
    assert.equal(d.submitted.length, 1);
    const entry = d.submitted[0]!;
    assert.equal(signupEntrySchema.safeParse(entry).success, true);
    assert.deepEqual(entry, signupEntrySchema.parse(target));
    await eventually(() => d.exits.length > 0);
    assert.equal(d.exits[0]?.status, 'submitted');
    assert.equal((d.exits[0] as Extract<WizardResult, { status: 'submitted' }>).message, 'Created: account acc_123');
    await settle();
    // The command prints the outcome under the screen: the last frame does not say it a second time.
    assert.doesNotMatch(d.frame(), /Created|Review the signup entry/);
    assert.deepEqual((d.exits[0] as Extract<WizardResult, { status: 'submitted' }>).entry, entry);
  });

  it('asks the fulfillment questions when in-person sales are below 80%', async () => {
    const target = cardTarget();
    const d = start();
    const asked = await fillFrom(d, target);
    for (const f of FULFILLMENT) assert.ok(asked.includes(f), `${f} was not asked`);
    assert.ok(asked.includes('business.underwriting.business_presence'), 'rule 1 applies (reach is not us-only)');
    await d.press(KEY.enter);
    await eventually(() => d.submitted.length > 0);
    assert.deepEqual(d.submitted[0], signupEntrySchema.parse(target));
  });

  it('walks a sole proprietorship with no payment methods', async () => {
    const target = load('signup-entry-sole-prop.json');
    const d = start();
    const asked = await fillFrom(d, target);

    assert.ok(asked.includes('business.ssn'));
    assert.equal(asked.includes('business.ein'), false, 'EIN not asked when the sole proprietor gives an SSN');
    for (const skipped of [
      'business.underwriting.currently_accepts_card',
      'business.underwriting.acceptance_methods.in_person',
      ...FULFILLMENT,
      'business.underwriting.collect_funds.card.expected_transaction_activity.monthly_volume_range',
      'business.underwriting.collect_funds.ach.expected_transaction_activity.monthly_volume_range',
      'business.underwriting.business_presence',
      'business.underwriting.volume_by_customer_type.b2b',
      'business.processing_statements.first_month_file_id',
    ]) {
      assert.equal(asked.includes(skipped), false, `${skipped} was asked`);
    }
    assert.ok(asked.includes('business.bank_statements.third_month_file_id'));

    await d.press(KEY.enter);
    await eventually(() => d.submitted.length > 0);
    assert.equal(d.submitted.length, 1);
    const entry = d.submitted[0]!;
    assert.equal(signupEntrySchema.safeParse(entry).success, true);
    assert.deepEqual(entry.business.underwriting?.payment_methods, []);
    assert.deepEqual(entry, signupEntrySchema.parse(target));
  });

  it('shows an invalid value’s error beside the field and stays on it', async () => {
    const d = start();
    await settle();
    await d.press('form_1', KEY.enter, KEY.enter); // signup form id, no external id
    assert.equal(d.field(), 'business.business_name');
    await d.press('Acme <Inc>', KEY.enter);
    assert.equal(d.field(), 'business.business_name');
    const line = d.frame().split('\n').find((l) => l.includes('Acme <Inc>'));
    assert.ok(line, d.frame());
    assert.match(line, /✖ may contain only letters \(accented Latin included\), digits, spaces and/);

    // correct it: the error goes and the next question comes
    await d.press(...Array.from({ length: 'Acme <Inc>'.length }, () => KEY.backspace), 'Acme Café Inc.', KEY.enter);
    assert.equal(d.field(), 'business.doing_business_as');
    assert.equal(d.frame().includes('✖'), false);
  });

  it('takes text pasted together with Enter in one chunk as typed text followed by Enter', async () => {
    const d = start();
    await settle();
    assert.equal(d.field(), 'signup_form_id');
    await d.press('form_1\r'); // one stdin write, as a paste or a terminal multiplexer sends it
    assert.notEqual(d.field(), 'signup_form_id', d.frame());
    await d.press('\r', 'Acme Paste Inc.\r');
    assert.equal(d.field(), 'business.doing_business_as', d.frame());
    await d.press('Acme DBA\r\r');
    assert.notEqual(d.field(), 'business.doing_business_as', d.frame());
  });

  it('checks a cross-field rule beside the field (percentages must sum to 100)', async () => {
    const target = load('signup-entry.json');
    const draft: Json = structuredClone(target);
    delete draft.business.underwriting.acceptance_methods;
    delete draft.business.underwriting.fulfillment_method;
    delete draft.business.underwriting.fulfillment_timeframe;
    delete draft.business.underwriting.refund_policy;
    const d = start({ initialDraft: draft });
    await settle();
    assert.equal(d.field(), 'business.underwriting.acceptance_methods.in_person', 'a resumed draft starts at its first open question');
    await d.press('50', KEY.enter, '20', KEY.enter, '20', KEY.enter);
    assert.equal(d.field(), 'business.underwriting.acceptance_methods.mail_or_phone');
    assert.match(d.frame(), /✖ acceptance_methods: in_person \+ online \+ mail_or_phone must sum to 100 \(got 90\)/);
    await d.press(KEY.backspace, KEY.backspace, '30', KEY.enter);
    assert.equal(d.field(), 'business.underwriting.fulfillment_method');
  });

  it('goes back with Esc, keeping the earlier answer', async () => {
    const d = start();
    await settle();
    await d.press('form_1', KEY.enter, KEY.enter, 'Acme', KEY.enter);
    assert.equal(d.field(), 'business.doing_business_as');
    await d.press(KEY.esc);
    assert.equal(d.field(), 'business.business_name');
    assert.match(d.frame(), /^> Acme▌/m);
  });

  it('resumes a draft with no payment methods and keeps that answer when going back', async () => {
    const draft: Json = load('signup-entry-sole-prop.json');
    delete draft.business.underwriting.geographich_reach;
    const d = start({ initialDraft: draft });
    await settle();
    assert.equal(d.field(), 'business.underwriting.geographich_reach');
    await d.press(KEY.esc);
    assert.equal(d.field(), 'business.underwriting.payment_methods');
    assert.match(d.frame(), /^> none▌/m);
    await d.press(KEY.enter);
    assert.equal(d.field(), 'business.underwriting.geographich_reach');
    assert.equal(d.frame().includes('✖'), false);
  });

  it('chooses from a list with the arrow keys', async () => {
    const d = start({ initialDraft: { signup_form_id: 'f', business: { business_name: 'Acme', doing_business_as: 'Acme' } } });
    await settle();
    assert.equal(d.field(), 'business.business_type');
    await d.press(KEY.down, KEY.down, KEY.enter); // soleProprietorship → unincorporatedAssociation → trust
    await d.press(KEY.ctrlS);
    assert.equal((d.saved[0] as Json).business.business_type, 'trust');
  });

  it('saves a draft with Ctrl+S and resumes it', async () => {
    const d = start();
    await settle();
    await d.press('form_9', KEY.enter, 'crm-1', KEY.enter, 'Acme', KEY.enter, KEY.ctrlS);
    await eventually(() => /Draft saved/.test(d.frame()));
    assert.equal(d.saved.length, 1);
    assert.deepEqual(d.saved[0], { signup_form_id: 'form_9', external_id: 'crm-1', business: { business_name: 'Acme' } });
    assert.match(d.frame(), /Draft saved: \/tmp\/onboarding-draft\.json/);
    cleanup();

    const resumed = start({ initialDraft: d.saved[0] });
    await settle();
    assert.equal(resumed.field(), 'business.doing_business_as');
    await resumed.press(KEY.esc);
    assert.match(resumed.frame(), /^> Acme▌/m);
  });

  it('leaves with Ctrl+C and hands back the draft', async () => {
    const d = start();
    await settle();
    await d.press('form_1', KEY.enter, KEY.ctrlC);
    await eventually(() => d.exits.length > 0);
    assert.deepEqual(d.exits, [{ status: 'cancelled', draft: { signup_form_id: 'form_1' } }]);
  });

  it('keeps the review open when the platform refuses the entry', async () => {
    const d = start({
      initialDraft: load('signup-entry-sole-prop.json'),
      onSubmit: async () => ({ ok: false, message: 'signup_form_id is unknown' }),
    });
    await settle();
    assert.match(d.frame(), /Review the signup entry/);
    await d.press(KEY.enter);
    await eventually(() => /signup_form_id is unknown/.test(d.frame()));
    assert.match(d.frame(), /signup_form_id is unknown/);
    assert.match(d.frame(), /Review the signup entry/);
  });

  it('renderOnboardingWizard runs in a terminal and resolves with the outcome', async () => {
    // A stand-in TTY: Ink needs raw mode on stdin and a width on stdout.
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100, rows: 40 });
    let output = '';
    stdout.on('data', (c: Buffer) => (output += c.toString()));
    const outcome = renderOnboardingWizard({
      initialDraft: load('signup-entry-sole-prop.json'),
      onSubmit: async () => ({ ok: true, message: 'Created: account acc_9' }),
      onSaveDraft: async () => 'unused',
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
    });
    await eventually(() => output.includes('Review the signup entry'), 500);
    stdin.write(KEY.end);
    await eventually(() => output.includes('All rules are met'), 500);
    stdin.write('\r');
    const result = await outcome;
    assert.equal(result.status, 'submitted');
    assert.equal(signupEntrySchema.safeParse((result as Extract<WizardResult, { status: 'submitted' }>).entry).success, true);
  });
});

describe('onboarding wizard: choosing the signup form from the database', () => {
  /** A platform over a fresh database with these signup forms (none when empty). */
  async function withForms(...names: string[]): Promise<Platform> {
    const p = await tempPlatform({});
    for (const name of names) await execute(createSignupForm, p, contextFor(p, undefined), { name });
    return p;
  }

  it('lists the forms by name and id; ↓ and Enter pick the second, and the entry is created with it', async () => {
    const p = await withForms('Website signups', 'Partner referrals');
    const forms = await execute(listSignupForms, p, contextFor(p, undefined), {});
    const session = wizardSession(p, join(repoRoot(), 'unused-draft.json'));
    let finished!: (r: WizardResult) => void;
    const outcome = new Promise<WizardResult>((resolve) => (finished = resolve));
    const d = start({ signupForms: forms, onSubmit: session.onSubmit, onExit: (r) => finished(r) });
    await settle();
    assert.equal(d.field(), 'signup_form_id');
    assert.match(d.frame(), new RegExp(`^  › Website signups \\(${forms[0]!.id}\\)$`, 'm'), 'the first form is highlighted');
    assert.match(d.frame(), new RegExp(`^    Partner referrals \\(${forms[1]!.id}\\)$`, 'm'));

    await d.press(KEY.down);
    assert.match(d.frame(), /^  › Partner referrals/m);
    await d.press(KEY.enter);
    assert.equal(d.field(), 'external_id');

    const target = load('signup-entry-sole-prop.json');
    target.signup_form_id = forms[1]!.id;
    await fillFrom(d, target);
    assert.match(d.frame(), new RegExp(`^Signup form: ${forms[1]!.id}$`, 'm'));
    await d.press(KEY.enter);
    assert.equal((await outcome).status, 'submitted', d.frame());
    const created = session.created();
    assert.ok(created, 'the session created the entry');
    const stored = await getSignupEntry(p, created.body.id);
    assert.equal(stored?.signup_form_id, forms[1]!.id);
    await p.close();
  });

  it('typing a form’s name picks it; a name that matches no form is refused beside the list', async () => {
    const p = await withForms('Website signups', 'Partner referrals');
    const forms = await execute(listSignupForms, p, contextFor(p, undefined), {});
    const d = start({ signupForms: forms });
    await settle();
    await d.press('nope', KEY.enter);
    assert.equal(d.field(), 'signup_form_id');
    assert.match(d.frame(), /✖ choose one of the listed options/);
    await d.press(...Array.from({ length: 4 }, () => KEY.backspace), 'part');
    assert.match(d.frame(), /^  › Partner referrals/m, 'the typed prefix moves the highlight');
    await d.press(KEY.enter, KEY.ctrlS);
    await eventually(() => d.saved.length > 0);
    assert.equal(d.saved[0]?.signup_form_id, forms[1]!.id);
    await p.close();
  });

  it('preselects the only form: Enter takes it', async () => {
    const p = await withForms('Demo signup form');
    const [only] = await execute(listSignupForms, p, contextFor(p, undefined), {});
    const d = start({ signupForms: [only!] });
    await settle();
    assert.match(d.frame(), /the only one in this database/);
    assert.match(d.frame(), new RegExp(`^  › Demo signup form \\(${only!.id}\\)$`, 'm'));
    await d.press(KEY.enter);
    assert.equal(d.field(), 'external_id');
    await d.press(KEY.ctrlS);
    await eventually(() => d.saved.length > 0);
    assert.deepEqual(d.saved[0], { signup_form_id: only!.id });
    await p.close();
  });

  it('without forms it says how to create one and does not move on', async () => {
    const p = await withForms();
    const d = start({ signupForms: await execute(listSignupForms, p, contextFor(p, undefined), {}) });
    await settle();
    assert.match(d.frame(), /no signup form yet\. Create one with `payctl signup-form create --name NAME`/);
    await d.press(KEY.enter);
    assert.equal(d.field(), 'signup_form_id');
    assert.match(d.frame(), /✖ This database has no signup form yet/);
    await p.close();
  });

  it('a resumed draft whose form is gone asks for the form again, with the rest kept', async () => {
    const p = await withForms('Website signups');
    const forms = await execute(listSignupForms, p, contextFor(p, undefined), {});
    const d = start({ signupForms: forms, initialDraft: { signup_form_id: 'deleted-form', business: { business_name: 'Acme' } } });
    await settle();
    assert.equal(d.field(), 'signup_form_id');
    await d.press(KEY.enter);
    assert.equal(d.field(), 'external_id');
    await d.press(KEY.ctrlS);
    await eventually(() => d.saved.length > 0);
    assert.deepEqual(d.saved[0], { signup_form_id: forms[0]!.id, business: { business_name: 'Acme' } });
    await p.close();
  });
});

describe('onboarding wizard: fields that need care', () => {
  const BUSINESS = { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A', business_type: 'trust', description: 'Cafe' } };

  it('an EIN shows only its last four while typed; the MCC question says what an MCC looks like and refuses letters', async () => {
    const d = start({ initialDraft: BUSINESS });
    await settle();
    assert.equal(d.field(), 'business.ein');
    await d.press('12-3456789');
    assert.match(d.frame(), /> ••••••6789▌/);
    assert.doesNotMatch(d.frame(), /12-345/);
    await d.press(KEY.enter);
    assert.equal(d.field(), 'business.industry_mcc');
    assert.match(d.frame(), /4-digit merchant category code, e\.g\. 5814/);
    await d.press('abcd', KEY.enter);
    assert.equal(d.field(), 'business.industry_mcc');
    assert.match(d.frame(), /✖ must be a 4-digit merchant category code/);
  });

  it('a representative’s SSN is masked too, and so is the review', async () => {
    const entry = load('signup-entry.json');
    const d = start({ initialDraft: entry });
    await settle();
    assert.match(d.frame(), /Review the signup entry/);
    const last = 0; // the first representative gives an SSN (the second an ITIN)
    const ssn: string = entry.business.representatives[last].ssn;
    assert.doesNotMatch(d.frame(), new RegExp(ssn.slice(0, 5)));
    // Back to the last representative's SSN question: the answer shown in the input is masked.
    const id = `business.representatives.${last}.ssn`;
    for (let i = 0; i < 100 && d.field() !== id; i++) await d.press(KEY.esc);
    assert.equal(d.field(), id);
    assert.match(d.frame(), new RegExp(`> •+${ssn.slice(-4)}▌`));
  });

  it('a statement file id question says what a file id is', async () => {
    const entry = load('signup-entry.json');
    const d = start({ initialDraft: entry });
    await settle();
    await d.press(KEY.esc);
    assert.match(d.field() ?? '', /statements\.third_month_file_id$/);
    assert.match(d.frame(), /the id your document upload gave for the statement/);
  });
});
