// The wizard's state machine without a screen: tables of keystrokes from a starting
// draft, and the state they lead to.
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { dataFile } from '../../src/lib/paths.js';
import assert from 'node:assert/strict';
import { initialState, wizardReducer, type WizardAction, type WizardState } from '../../src/tui/onboarding-wizard-reducer.js';
import type { KeyInfo } from '../../src/tui/keys.js';
import type { Draft } from '../../src/domain/onboarding/draft.js';
import type { AskContext } from '../../src/domain/onboarding/questions.js';

/** One keystroke as Ink reports it: text, or a named key. */
type Stroke = string | { key: keyof KeyInfo; input?: string };
const ENTER: Stroke = { key: 'return' };
const ESC: Stroke = { key: 'escape' };
const DOWN: Stroke = { key: 'downArrow' };
const UP: Stroke = { key: 'upArrow' };
const BACKSPACE: Stroke = { key: 'backspace' };
const CTRL_S: Stroke = { key: 'ctrl', input: 's' };
const CTRL_C: Stroke = { key: 'ctrl', input: 'c' };

const action = (k: Stroke): WizardAction =>
  typeof k === 'string' ? { type: 'key', input: k, key: {} } : { type: 'key', input: k.input ?? '', key: { [k.key]: true } };
const run = (s: WizardState, keys: Stroke[]) => keys.reduce((st, k) => wizardReducer(st, action(k)), s);

const FORMS: AskContext = { signupForms: [{ id: 'f1', name: 'Main' }, { id: 'f2', name: 'Partners' }] };

interface Case {
  name: string;
  draft?: Draft;
  ask?: AskContext;
  keys: Stroke[];
  want: Partial<Pick<WizardState, 'cursor' | 'input' | 'highlight' | 'phase'>> & { draft?: Draft; error?: RegExp; effect?: string };
}

/** A draft answered up to the underwriting step (the card example's business and representative). */
const UNDERWRITING: Draft = (() => {
  const entry = JSON.parse(readFileSync(dataFile('examples', 'signup-entry.json'), 'utf8')) as { business: Record<string, unknown> };
  const { underwriting: _u, processing_statements: _p, bank_statements: _b, ...business } = entry.business;
  return { ...entry, business } as Draft;
})();

const cases: Case[] = [
  { name: 'starts on the form id', keys: [], want: { cursor: 'signup_form_id', phase: 'asking', input: '' } },
  { name: 'typing fills the input', keys: ['fo', 'rm'], want: { cursor: 'signup_form_id', input: 'form' } },
  { name: 'backspace removes one character', keys: ['form', BACKSPACE], want: { input: 'for' } },
  { name: 'Enter answers and moves on', keys: ['form_1', ENTER], want: { cursor: 'external_id', draft: { signup_form_id: 'form_1' } } },
  { name: 'an empty optional answer moves on without a value', keys: ['f', ENTER, ENTER], want: { cursor: 'business.business_name', draft: { signup_form_id: 'f' } } },
  { name: 'a required field left empty stays, with an error', keys: [ENTER], want: { cursor: 'signup_form_id', error: /required/ } },
  { name: 'Esc goes back with the answer in the input', keys: ['f', ENTER, 'crm', ENTER, ESC], want: { cursor: 'external_id', input: 'crm' } },
  { name: 'Esc on the first question stays', keys: [ESC], want: { cursor: 'signup_form_id' } },
  {
    name: '↓ moves the highlight in a list, Enter takes it',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A' } },
    keys: [DOWN, DOWN, ENTER],
    want: { cursor: 'business.website', draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A', business_type: 'trust' } } },
  },
  {
    name: '↑ from the first option wraps to the last',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A' } },
    keys: [UP],
    want: { cursor: 'business.business_type', highlight: 9 },
  },
  {
    name: 'typing in a list moves the highlight to the first match',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A' } },
    keys: ['pu'],
    want: { highlight: 3, input: 'pu' },
  },
  { name: 'forms: ↓ and Enter pick the second', ask: FORMS, keys: [DOWN, ENTER], want: { cursor: 'external_id', draft: { signup_form_id: 'f2' } } },
  { name: 'forms: a typed name moves the highlight', ask: FORMS, keys: ['Part'], want: { highlight: 1 } },
  { name: 'forms: an unknown form is refused', ask: FORMS, keys: ['zz', ENTER], want: { cursor: 'signup_form_id', error: /choose one of the listed options/, draft: {} } },
  { name: 'forms: none to choose from', ask: { signupForms: [] }, keys: [ENTER], want: { cursor: 'signup_form_id', error: /payctl signup-form create/ } },
  { name: 'forms: a resumed draft’s form highlighted', ask: FORMS, draft: { signup_form_id: 'f2', external_id: 'x', business: {} }, keys: [ESC, ESC], want: { cursor: 'signup_form_id', highlight: 1 } },
  // Website and MCC are judged at their question by the request schema, not only at the end.
  {
    name: 'a website that is not an address stays at the question',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A', business_type: 'trust' } },
    keys: [ESC, 'not a url', ENTER], // it opens on the first required question (description); back to website
    want: { cursor: 'business.website', error: /must be a web address/ },
  },
  {
    name: 'a website without a scheme is taken',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A', business_type: 'trust' } },
    keys: [ESC, 'cafe.example', ENTER],
    want: { cursor: 'business.description' },
  },
  {
    name: 'an MCC of letters stays at the question',
    draft: { signup_form_id: 'f', business: { business_name: 'A', doing_business_as: 'A', business_type: 'trust', description: 'Cafe', ein: '12-3456789' } },
    keys: ['abcd', ENTER],
    want: { cursor: 'business.industry_mcc', error: /4-digit merchant category code/ },
  },
  {
    name: 'a payment method typo names the field and the item, not an index',
    draft: UNDERWRITING,
    keys: ['card,cash', ENTER],
    want: { cursor: 'business.underwriting.payment_methods', error: /^payment_methods "cash": must be one of: card, ach$/ },
  },
  {
    name: 'pending litigation opens on none',
    draft: { ...UNDERWRITING, business: { ...(UNDERWRITING.business as object), underwriting: { payment_methods: ['card'], geographich_reach: 'us-and-international', currently_accepts_card: false, acceptance_methods: { in_person: 100, online: 0, mail_or_phone: 0 }, collect_funds: { card: { expected_transaction_activity: { monthly_volume_range: 'under-10k' } } }, send_funds: { ach: { expected_transaction_activity: { monthly_volume_range: 'under-10k' } }, instant_bank: { expected_transaction_activity: { monthly_volume_range: 'under-10k' } } }, business_presence: 'online-only' } } },
    keys: [],
    want: { cursor: 'business.underwriting.pending_litigation', highlight: 7 },
  },
  {
    // us-only (index 2), not the first option: international-only would pull in extra questions.
    name: 'geographic reach opens on us-only, and Enter takes it',
    draft: { ...UNDERWRITING, business: { ...(UNDERWRITING.business as object), underwriting: { payment_methods: ['card'] } } },
    keys: [],
    want: { cursor: 'business.underwriting.geographich_reach', highlight: 2 },
  },
  {
    name: 'geographic reach: Enter answers us-only',
    draft: { ...UNDERWRITING, business: { ...(UNDERWRITING.business as object), underwriting: { payment_methods: ['card'] } } },
    keys: [ENTER],
    want: { cursor: 'business.underwriting.currently_accepts_card', draft: { ...UNDERWRITING, business: { ...(UNDERWRITING.business as object), underwriting: { payment_methods: ['card'], geographich_reach: 'us-only' } } } },
  },
  { name: 'Ctrl+S asks to save the draft', keys: ['f', ENTER, CTRL_S], want: { effect: 'save', cursor: 'external_id' } },
  { name: 'Ctrl+C leaves', keys: [CTRL_C], want: { effect: 'exit', phase: 'done' } },
  { name: 'keys after leaving do nothing', keys: [CTRL_C, 'x', ENTER], want: { phase: 'done', input: '' } },
];

describe('wizardReducer', () => {
  for (const c of cases) {
    it(c.name, () => {
      const s = run(initialState(c.draft, c.ask), c.keys);
      const { draft, error, effect, ...fields } = c.want;
      for (const [k, v] of Object.entries(fields)) assert.deepEqual(s[k as keyof WizardState], v, k);
      if (draft) assert.deepEqual(s.draft, draft);
      if (error) assert.match((s.errors[s.cursor] ?? []).join('\n'), error);
      if (effect) assert.equal(s.effect?.kind, effect);
    });
  }

  it('each requested effect has a new id (so the hook runs it once)', () => {
    const s1 = run(initialState(), [CTRL_S]);
    const s2 = run(s1, [CTRL_S]);
    assert.ok(s1.effect && s2.effect);
    assert.notEqual(s1.effect.id, s2.effect.id);
  });

  it('a refused submit returns to the review with the message', () => {
    const review: WizardState = { ...initialState(), phase: 'submitting' };
    const refused = wizardReducer(review, { type: 'submitted', result: { ok: false, message: 'no' } });
    assert.equal(refused.phase, 'review');
    assert.deepEqual(refused.status, { tone: 'error', text: 'no' });
  });

  it('the outcome of a save is shown', () => {
    const s = wizardReducer(initialState(), { type: 'saved', ok: false, text: 'Could not save' });
    assert.deepEqual(s.status, { tone: 'error', text: 'Could not save' });
  });
});
