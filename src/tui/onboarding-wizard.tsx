/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
// `payctl onboard`: an Ink wizard that builds a signup entry (spec 15) question by
// question. It asks only what the conditional rules make relevant, and checks every
// answer with the one request schema (`signupEntrySchema`) over the whole draft, showing
// the problems whose path belongs to the question beside it.
//
// Keys: Enter answers, Esc goes back one question, ↑/↓ choose in a list (or type the
// value), Ctrl+S saves the draft (onSaveDraft), Ctrl+C leaves (the draft is returned).
//
// Ink and React are loaded lazily (`loadOnboardingWizard`, `renderOnboardingWizard`) so
// a command importing this module stays light: JSX here compiles to calls of the local
// `h`, and the `react` import below is used for types only (TypeScript drops it).
import * as ReactTypes from 'react';
import { Fragment, h, ink, loadRuntime, React } from './runtime.js';
import { useKeys, type KeyInfo } from './keys.js';
import {
  amountsRequired,
  BUSINESS_PRESENCE,
  BUSINESS_TYPES,
  FULFILLMENT_METHODS,
  FULFILLMENT_TIMEFRAMES,
  GEOGRAPHIC_REACH,
  isSoleProprietorship,
  LEGACY_FIELDS,
  maskSensitive,
  MAX_REPRESENTATIVES,
  MONTHLY_VOLUME_RANGES,
  needsAcceptanceMethods,
  needsCurrentlyAcceptsCard,
  needsFulfillment,
  needsRule1Fields,
  paymentMethodsOf,
  PENDING_LITIGATION,
  REFUND_POLICIES,
  signupEntrySchema,
  statementsRequired,
  TITLES,
  usesPaymentMethod,
  type SignupEntry,
} from '../domain/onboarding.js';
import { formatMoney, parseMoney } from '../domain/money.js';
import { fieldsFromZod, type FieldProblem } from '../errors.js';

// ---------------------------------------------------------------------------
// Lazy React/Ink


// ---------------------------------------------------------------------------
// Draft and questions (pure)

/** A partial, unvalidated signup entry (what a saved draft file holds). */
export type Draft = Record<string, unknown>;
type Path = (string | number)[];
export type StepId = 'business' | 'representatives' | 'underwriting' | 'statements';
export const STEPS: readonly { id: StepId | 'review'; title: string }[] = [
  { id: 'business', title: 'Business' },
  { id: 'representatives', title: 'Representatives' },
  { id: 'underwriting', title: 'Underwriting' },
  { id: 'statements', title: 'Statements' },
  { id: 'review', title: 'Review' },
];

type Kind = 'text' | 'int' | 'money' | 'select' | 'bool' | 'list' | 'more';
export interface Question {
  /** Dotted path of the answer (the same spelling as the API's error paths). */
  id: string;
  step: StepId;
  path: Path;
  label: string;
  kind: Kind;
  options?: readonly string[];
  /** Empty input removes the value and is not checked (the schema does not require it here). */
  optional?: boolean;
  /** Used when the input is left empty. */
  defaultValue?: string;
  /** A heading shown above the question (e.g. "Representative 2"). */
  context?: string;
}

const MORE_ID = 'business.representatives';
const MORE = { done: 'continue', add: 'add another representative', remove: 'remove the last representative' };
const BOOL_OPTIONS = ['yes', 'no'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function getPath(obj: unknown, path: Path): unknown {
  let cur = obj;
  for (const k of path) {
    if (Array.isArray(cur) && typeof k === 'number') cur = cur[k];
    else if (isRecord(cur)) cur = cur[String(k)];
    else return undefined;
  }
  return cur;
}

/** A copy of the draft with `value` at `path` (objects and arrays created on the way). */
export function setPath(draft: Draft, path: Path, value: unknown): Draft {
  const next = structuredClone(draft);
  let cur: Record<string | number, unknown> = next;
  path.forEach((k, i) => {
    if (i === path.length - 1) {
      cur[k] = value;
      return;
    }
    const wantArray = typeof path[i + 1] === 'number';
    const existing = cur[k];
    if (wantArray ? !Array.isArray(existing) : !isRecord(existing)) cur[k] = wantArray ? [] : {};
    cur = cur[k] as Record<string | number, unknown>;
  });
  return next;
}

/** A copy of the draft without the value at `path`. */
export function unsetPath(draft: Draft, path: Path): Draft {
  if (getPath(draft, path) === undefined) return draft;
  const next = structuredClone(draft);
  const parent = getPath(next, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isRecord(parent)) delete parent[String(last)];
  return next;
}

const representativeCount = (d: Draft) => {
  const reps = getPath(d, ['business', 'representatives']);
  return Array.isArray(reps) && reps.length > 0 ? reps.length : 1;
};

/** Every question that applies to the draft as it stands, in the order they are asked. */
export function questionsFor(d: Draft): Question[] {
  const qs: Question[] = [];
  let step: StepId = 'business';
  let context: string | undefined;
  const ask = (path: Path, label: string, kind: Kind = 'text', extra: Partial<Question> = {}) =>
    qs.push({ id: path.join('.'), step, path, label, kind, ...(context ? { context } : {}), ...extra });
  const select = (path: Path, label: string, options: readonly string[]) => ask(path, label, 'select', { options });
  const yesNo = (path: Path, label: string) => ask(path, label, 'bool', { options: BOOL_OPTIONS });

  const B = ['business'];
  ask(['signup_form_id'], 'Signup form id (from your administrator)');
  ask(['external_id'], 'External id (optional, at most 36 characters)', 'text', { optional: true });
  ask([...B, 'business_name'], 'Business name');
  ask([...B, 'doing_business_as'], 'Doing business as');
  select([...B, 'business_type'], 'Business type', BUSINESS_TYPES);
  ask([...B, 'website'], 'Website (optional when you give a description)', 'text', { optional: true });
  ask([...B, 'description'], 'Description (at most 100 characters; required without a website)');
  if (isSoleProprietorship(d)) {
    ask([...B, 'ssn'], 'SSN (a sole proprietor may give it instead of an EIN; empty to give an EIN)', 'text', { optional: true });
    if (getPath(d, [...B, 'ssn']) === undefined) ask([...B, 'ein'], 'EIN');
  } else {
    ask([...B, 'ein'], 'EIN');
  }
  ask([...B, 'industry_mcc'], 'Industry MCC');
  ask([...B, 'phone', 'number'], 'Phone number');
  ask([...B, 'phone', 'country_code'], 'Phone country code', 'text', { defaultValue: '1' });
  ask([...B, 'email'], 'E-mail');
  ask([...B, 'address_line_1'], 'Address line 1');
  ask([...B, 'address_line_2'], 'Address line 2 (optional)', 'text', { optional: true });
  ask([...B, 'city'], 'City');
  ask([...B, 'subdivision'], 'State / subdivision');
  ask([...B, 'postal_code'], 'Postal code');

  step = 'representatives';
  const count = representativeCount(d);
  for (let i = 0; i < count; i++) {
    context = `Representative ${i + 1} of ${count}`;
    const R: Path = [...B, 'representatives', i];
    ask([...R, 'first_name'], 'First name');
    ask([...R, 'middle_name'], 'Middle name (optional)', 'text', { optional: true });
    ask([...R, 'last_name'], 'Last name');
    select([...R, 'title'], 'Title', TITLES);
    ask([...R, 'job_title'], 'Job title');
    ask([...R, 'phone', 'number'], 'Phone number');
    ask([...R, 'phone', 'country_code'], 'Phone country code', 'text', { defaultValue: '1' });
    ask([...R, 'email'], 'E-mail');
    ask([...R, 'address_line_1'], 'Address line 1');
    ask([...R, 'address_line_2'], 'Address line 2 (optional)', 'text', { optional: true });
    ask([...R, 'city'], 'City');
    ask([...R, 'subdivision'], 'State / subdivision');
    ask([...R, 'postal_code'], 'Postal code');
    ask([...R, 'birth_date', 'year'], 'Birth date: year (e.g. 1984)', 'int');
    ask([...R, 'birth_date', 'month'], 'Birth date: month (1-12)', 'int');
    ask([...R, 'birth_date', 'day'], 'Birth date: day', 'int');
    ask([...R, 'ssn'], 'SSN (empty if you give an ITIN)', 'text', { optional: true });
    if (getPath(d, [...R, 'ssn']) === undefined) ask([...R, 'itin'], 'ITIN');
    yesNo([...R, 'is_controller'], 'Controls the business?');
    yesNo([...R, 'is_owner'], 'Owns part of the business?');
    ask([...R, 'ownership_percentage'], 'Ownership percentage (0-100)', 'int');
  }
  context = undefined;
  const moreOptions = [
    MORE.done,
    ...(count < MAX_REPRESENTATIVES ? [MORE.add] : []),
    ...(count > 1 ? [MORE.remove] : []),
  ];
  qs.push({ id: MORE_ID, step, path: [], label: `${count} representative${count > 1 ? 's' : ''}. Next?`, kind: 'more', options: moreOptions });

  step = 'underwriting';
  const U = [...B, 'underwriting'];
  ask([...U, 'payment_methods'], 'Payment methods to accept: card, ach, both (card,ach) or none', 'list');
  select([...U, 'geographich_reach'], 'Geographic reach', GEOGRAPHIC_REACH);
  if (needsCurrentlyAcceptsCard(d)) {
    yesNo([...U, 'currently_accepts_card'], 'Do you accept cards today?');
  }
  if (needsAcceptanceMethods(d)) {
    context = 'Card acceptance, in percent (the three sum to 100)';
    ask([...U, 'acceptance_methods', 'in_person'], 'In person %', 'int');
    ask([...U, 'acceptance_methods', 'online'], 'Online %', 'int');
    ask([...U, 'acceptance_methods', 'mail_or_phone'], 'Mail or phone %', 'int');
    context = undefined;
  }
  if (needsFulfillment(d)) {
    select([...U, 'fulfillment_method'], 'Fulfillment method', FULFILLMENT_METHODS);
    select([...U, 'fulfillment_timeframe'], 'Fulfillment timeframe', FULFILLMENT_TIMEFRAMES);
    select([...U, 'refund_policy'], 'Refund policy', REFUND_POLICIES);
  }
  const activity = (group: 'collect_funds' | 'send_funds', section: string, title: string) => {
    context = title;
    const A: Path = [...U, group, section, 'expected_transaction_activity'];
    select([...A, 'monthly_volume_range'], 'Expected monthly volume', MONTHLY_VOLUME_RANGES);
    if (amountsRequired(getPath(d, A))) {
      ask([...A, 'average_transaction_amount'], 'Average transaction amount (e.g. 18.50)', 'money');
      ask([...A, 'maximum_transaction_amount'], 'Maximum transaction amount (e.g. 600.00)', 'money');
    }
    context = undefined;
  };
  if (usesPaymentMethod(d, 'card')) activity('collect_funds', 'card', 'Collecting funds by card');
  if (usesPaymentMethod(d, 'ach')) activity('collect_funds', 'ach', 'Collecting funds by ACH');
  activity('send_funds', 'ach', 'Sending funds by ACH');
  activity('send_funds', 'instant_bank', 'Sending funds by instant bank transfer');
  if (needsRule1Fields(d)) {
    select([...U, 'business_presence'], 'Business presence', BUSINESS_PRESENCE);
    select([...U, 'pending_litigation'], 'Pending litigation', PENDING_LITIGATION);
    context = 'Volume by customer type, in percent (the three sum to 100)';
    ask([...U, 'volume_by_customer_type', 'b2b'], 'Business to business %', 'int');
    ask([...U, 'volume_by_customer_type', 'b2c'], 'Business to consumer %', 'int');
    ask([...U, 'volume_by_customer_type', 'p2p'], 'Person to person %', 'int');
    context = undefined;
  }

  step = 'statements';
  const kind = statementsRequired(d);
  context = kind === 'processing' ? 'Card processing statements, last 3 months (uploaded file ids)' : 'Bank statements, last 3 months (uploaded file ids)';
  const S: Path = [...B, kind === 'processing' ? 'processing_statements' : 'bank_statements'];
  ask([...S, 'first_month_file_id'], 'First month file id');
  ask([...S, 'second_month_file_id'], 'Second month file id');
  ask([...S, 'third_month_file_id'], 'Third month file id');
  return qs;
}

/**
 * Drop answers that the rules no longer ask for (the user went back and changed
 * something they depend on). Only when what they depend on is known, so a half-filled
 * draft keeps everything.
 */
export function pruneIrrelevant(d: Draft): Draft {
  let next = d;
  const drop = (path: Path) => (next = unsetPath(next, path));
  const B = ['business'];
  const U = [...B, 'underwriting'];
  const type = getPath(next, [...B, 'business_type']);
  if (typeof type === 'string' && type !== 'soleProprietorship') drop([...B, 'ssn']);
  const underwriting = getPath(next, U);
  if (isRecord(underwriting)) {
    for (const k of LEGACY_FIELDS) drop([...B, k]);
    const methods = getPath(next, [...U, 'payment_methods']);
    if (Array.isArray(methods)) {
      if (!needsCurrentlyAcceptsCard(next)) drop([...U, 'currently_accepts_card']);
      if (!needsAcceptanceMethods(next)) drop([...U, 'acceptance_methods']);
      const inPerson = getPath(next, [...U, 'acceptance_methods', 'in_person']);
      if (!methods.includes('card') || typeof inPerson === 'number') {
        if (!needsFulfillment(next)) for (const k of ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy']) drop([...U, k]);
      }
      for (const m of ['ach', 'card'] as const) if (!methods.includes(m)) drop([...U, 'collect_funds', m]);
      const cf = getPath(next, [...U, 'collect_funds']);
      if (isRecord(cf) && Object.keys(cf).length === 0) drop([...U, 'collect_funds']);
    }
    const sections = [['collect_funds', 'ach'], ['collect_funds', 'card'], ['send_funds', 'ach'], ['send_funds', 'instant_bank']];
    for (const [g, s] of sections) {
      const A = [...U, g!, s!, 'expected_transaction_activity'];
      if (getPath(next, [...A, 'monthly_volume_range']) === 'under-10k') {
        drop([...A, 'average_transaction_amount']);
        drop([...A, 'maximum_transaction_amount']);
      }
    }
    const rangesKnown = ['send_funds.ach', 'send_funds.instant_bank', ...paymentMethodsOf(next).map((m) => `collect_funds.${m}`)].every(
      (p) => getPath(next, [...U, ...p.split('.'), 'expected_transaction_activity', 'monthly_volume_range']) !== undefined,
    );
    if (getPath(next, [...U, 'geographich_reach']) !== undefined && rangesKnown && !needsRule1Fields(next)) {
      for (const k of ['business_presence', 'pending_litigation', 'volume_by_customer_type']) drop([...U, k]);
    }
    const accepts = getPath(next, [...U, 'currently_accepts_card']);
    if (typeof accepts === 'boolean' || (Array.isArray(methods) && methods.length === 0)) {
      drop([...B, statementsRequired(next) === 'processing' ? 'bank_statements' : 'processing_statements']);
    }
  }
  return next;
}

export function stepOfPath(path: string): StepId {
  if (path === 'business.representatives' || path.startsWith('business.representatives.')) return 'representatives';
  if (path.startsWith('business.underwriting') || LEGACY_FIELDS.some((f) => path === `business.${f}`)) return 'underwriting';
  if (path.startsWith('business.processing_statements') || path.startsWith('business.bank_statements')) return 'statements';
  return 'business';
}

/** Every problem of the whole draft, with dotted paths (the API's 400 `fields`). */
export function problemsOf(d: Draft): FieldProblem[] {
  const r = signupEntrySchema.safeParse(d);
  return r.success ? [] : fieldsFromZod(r.error);
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);

/** The question a problem belongs to: its own field, the first field inside it, or its nearest ancestor. */
function questionForProblem(problem: FieldProblem, qs: Question[]): Question | undefined {
  const exact = qs.find((q) => q.id === problem.path);
  if (exact) return exact;
  const inside = qs.find((q) => q.kind !== 'more' && under(q.id, problem.path));
  if (inside) return inside;
  return qs
    .filter((q) => under(problem.path, q.id))
    .sort((a, b) => b.id.length - a.id.length)[0];
}

/** The message as shown beside question `q`: prefixed by what it is about when that is not `q` itself. */
function messageFor(problem: FieldProblem, q: Question): string {
  if (problem.path === q.id) return problem.message;
  const about = under(problem.path, q.id) ? problem.path.slice(q.id.length + 1) : problem.path.split('.').pop();
  return `${about}: ${problem.message}`;
}

function formatValue(q: Question, v: unknown): string {
  if (v === undefined || v === null) return '';
  if (q.kind === 'money' && typeof v === 'number') return (v / 100).toFixed(2);
  if (q.kind === 'bool' && typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return q.kind === 'list' && v.length === 0 ? 'none' : v.join(',');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Match typed text against a list: exact, then a unique case-insensitive prefix. */
function matchOption(options: readonly string[], typed: string): string | undefined {
  if (options.includes(typed)) return typed;
  const t = typed.toLowerCase();
  const hits = options.filter((o) => o.toLowerCase().startsWith(t));
  return hits.length === 1 ? hits[0] : undefined;
}

type Parsed = { kind: 'value'; value: unknown } | { kind: 'unset' } | { kind: 'error'; message: string };

/** Turn what was typed into the JSON value the schema sees (the schema judges it). */
function parseAnswer(q: Question, raw: string, highlighted: string | undefined): Parsed {
  const text = raw.trim();
  if (q.kind === 'select' || q.kind === 'bool') {
    const choice = text === '' ? highlighted : (matchOption(q.options ?? [], text) ?? text);
    if (q.kind === 'bool') {
      const t = choice?.toLowerCase();
      if (t === 'yes' || t === 'true') return { kind: 'value', value: true };
      if (t === 'no' || t === 'false') return { kind: 'value', value: false };
    }
    return { kind: 'value', value: choice };
  }
  if (text === '') return q.defaultValue !== undefined ? { kind: 'value', value: q.defaultValue } : { kind: 'unset' };
  if (q.kind === 'int') return { kind: 'value', value: /^\d{1,15}$/.test(text) ? Number(text) : text };
  if (q.kind === 'money') {
    try {
      return { kind: 'value', value: parseMoney(text.replace(/^\$/, '').replace(/,/g, '')) };
    } catch {
      return { kind: 'error', message: 'write an amount of money, e.g. 18.50' };
    }
  }
  if (q.kind === 'list') {
    if (text.toLowerCase() === 'none') return { kind: 'value', value: [] };
    return { kind: 'value', value: text.split(/[\s,]+/).filter(Boolean) };
  }
  return { kind: 'value', value: text };
}

// ---------------------------------------------------------------------------
// Wizard state (a reducer; effects are requested in state and run by the hook)

export type SubmitResult = { ok: boolean; message: string };
export type WizardResult =
  | { status: 'submitted'; entry: SignupEntry; message: string }
  | { status: 'cancelled'; draft: Draft };

type EffectRequest =
  | { kind: 'save'; draft: Draft }
  | { kind: 'submit'; entry: SignupEntry }
  | { kind: 'exit'; result: WizardResult };
type Effect = EffectRequest & { id: number };

interface Status {
  tone: 'info' | 'error' | 'success';
  text: string;
}

interface WizardState {
  draft: Draft;
  phase: 'asking' | 'review' | 'submitting' | 'done';
  cursor: string;
  input: string;
  highlight: number;
  errors: Record<string, string[]>;
  notices: string[];
  status?: Status;
  effect?: Effect;
  effectSeq: number;
}

export type { KeyInfo };

type Action =
  | { type: 'key'; input: string; key: KeyInfo }
  | { type: 'saved'; text: string; ok: boolean }
  | { type: 'submitted'; result: SubmitResult };

function withEffect(s: WizardState, effect: EffectRequest): WizardState {
  const id = s.effectSeq + 1;
  return { ...s, effectSeq: id, effect: { ...effect, id } };
}

/** Put the cursor on a question, its current answer in the input. */
function focus(s: WizardState, id: string, draft = s.draft): WizardState {
  const q = questionsFor(draft).find((x) => x.id === id);
  if (!q) return { ...s, draft, phase: 'review', cursor: '', input: '', highlight: 0 };
  const value = getPath(draft, q.path);
  const shown = formatValue(q, value);
  const highlight = Math.max(0, (q.options ?? []).indexOf(shown));
  const typed = q.kind === 'select' || q.kind === 'bool' || q.kind === 'more' ? '' : shown;
  return { ...s, draft, phase: 'asking', cursor: id, input: typed, highlight };
}

function toReview(s: WizardState, draft: Draft): WizardState {
  return { ...s, draft: pruneIrrelevant(draft), phase: 'review', cursor: '', input: '', highlight: 0 };
}

/** Leaving `step`: check it as a whole, go back to its first problem, or on to `nextId`. */
function finishStep(s: WizardState, step: StepId, draft: Draft, nextId: string | undefined): WizardState {
  const pruned = pruneIrrelevant(draft);
  const qs = questionsFor(pruned);
  const errors: Record<string, string[]> = {};
  const notices: string[] = [];
  let first: Question | undefined;
  for (const p of problemsOf(pruned).filter((x) => stepOfPath(x.path) === step)) {
    const q = questionForProblem(p, qs);
    if (!q) {
      notices.push(`${p.path}: ${p.message}`);
      continue;
    }
    (errors[q.id] ??= []).push(messageFor(p, q));
    if (!first || qs.indexOf(q) < qs.indexOf(first)) first = q;
  }
  const base = { ...s, errors: { ...s.errors, ...errors }, notices };
  if (first) return focus(base, first.id, pruned);
  const target = nextId && qs.some((q) => q.id === nextId) ? nextId : qs.find((q) => STEP_ORDER[q.step] > STEP_ORDER[step])?.id;
  return target ? focus(base, target, pruned) : toReview(base, pruned);
}

const STEP_ORDER: Record<StepId, number> = { business: 0, representatives: 1, underwriting: 2, statements: 3 };

function advance(s: WizardState, q: Question, draft: Draft): WizardState {
  const qs = questionsFor(draft);
  const i = qs.findIndex((x) => x.id === q.id);
  const next = qs[i + 1];
  if (!next || next.step !== q.step) return finishStep(s, q.step, draft, next?.id);
  return focus({ ...s, notices: [] }, next.id, draft);
}

function answer(s: WizardState): WizardState {
  const qs = questionsFor(s.draft);
  const q = qs.find((x) => x.id === s.cursor);
  if (!q) return toReview(s, s.draft);
  const highlighted = q.options?.[s.highlight];

  if (q.kind === 'more') {
    const choice = s.input.trim() === '' ? highlighted : matchOption(q.options ?? [], s.input.trim());
    const count = representativeCount(s.draft);
    if (choice === MORE.add) {
      const draft = setPath(s.draft, ['business', 'representatives', count], {});
      return focus({ ...s, notices: [] }, `business.representatives.${count}.first_name`, draft);
    }
    if (choice === MORE.remove) {
      return focus({ ...s, input: '' }, MORE_ID, unsetPath(s.draft, ['business', 'representatives', count - 1]));
    }
    if (choice === MORE.done) return advance(s, q, s.draft);
    return { ...s, errors: { ...s.errors, [q.id]: [`choose one of: ${(q.options ?? []).join(', ')}`] } };
  }

  const parsed = parseAnswer(q, s.input, highlighted);
  if (parsed.kind === 'error') return { ...s, errors: { ...s.errors, [q.id]: [parsed.message] } };
  const draft = parsed.kind === 'unset' ? unsetPath(s.draft, q.path) : setPath(s.draft, q.path, parsed.value);
  const { [q.id]: _cleared, ...errors } = s.errors;
  if (parsed.kind === 'unset' && q.optional) return advance({ ...s, errors }, q, draft);

  // This field's problems, and those of a group (a sum, a calendar date) once its last field is answered.
  const after = questionsFor(draft);
  const problems = problemsOf(draft).filter((p) => {
    if (under(p.path, q.id)) return true;
    if (!under(q.id, p.path) || p.path.split('.').length < 3) return false;
    const inGroup = after.filter((x) => under(x.id, p.path));
    return inGroup[inGroup.length - 1]?.id === q.id;
  });
  if (problems.length > 0) return { ...s, draft, errors: { ...errors, [q.id]: problems.map((p) => messageFor(p, q)) } };
  return advance({ ...s, errors }, q, draft);
}

function back(s: WizardState): WizardState {
  const qs = questionsFor(s.draft);
  if (s.phase === 'review') return qs.length ? focus({ ...s, status: undefined }, qs[qs.length - 1]!.id) : s;
  const i = qs.findIndex((x) => x.id === s.cursor);
  return i > 0 ? focus({ ...s, notices: [] }, qs[i - 1]!.id) : s;
}

function submitOrJump(s: WizardState): WizardState {
  const draft = pruneIrrelevant(s.draft);
  const parsed = signupEntrySchema.safeParse(draft);
  if (parsed.success) {
    return withEffect({ ...s, draft, phase: 'submitting', status: { tone: 'info', text: 'Submitting…' } }, { kind: 'submit', entry: parsed.data });
  }
  const qs = questionsFor(draft);
  const errors: Record<string, string[]> = {};
  let first: Question | undefined;
  for (const p of fieldsFromZod(parsed.error)) {
    const q = questionForProblem(p, qs);
    if (!q) continue;
    (errors[q.id] ??= []).push(messageFor(p, q));
    first ??= q;
  }
  if (!first) return { ...s, draft, status: { tone: 'error', text: 'The draft has problems no question covers; fix the draft file.' } };
  return focus({ ...s, errors, status: undefined }, first.id, draft);
}

export function wizardReducer(s: WizardState, action: Action): WizardState {
  if (action.type === 'saved') return { ...s, status: { tone: action.ok ? 'success' : 'error', text: action.text } };
  if (action.type === 'submitted') {
    if (!action.result.ok) return { ...s, phase: 'review', status: { tone: 'error', text: action.result.message } };
    const entry = s.effect?.kind === 'submit' ? s.effect.entry : (signupEntrySchema.parse(s.draft) as SignupEntry);
    return withEffect(
      { ...s, phase: 'done', status: { tone: 'success', text: action.result.message } },
      { kind: 'exit', result: { status: 'submitted', entry, message: action.result.message } },
    );
  }
  const { input, key } = action;
  if (s.phase === 'done') return s;
  if (key.ctrl && input === 's') return withEffect({ ...s, status: { tone: 'info', text: 'Saving the draft…' } }, { kind: 'save', draft: s.draft });
  if (key.ctrl && input === 'c') return withEffect({ ...s, phase: 'done', status: { tone: 'info', text: 'Left the wizard.' } }, { kind: 'exit', result: { status: 'cancelled', draft: s.draft } });
  if (s.phase === 'submitting') return s;
  if (key.escape) return back(s);
  if (s.phase === 'review') return key.return ? submitOrJump(s) : s;

  const q = questionsFor(s.draft).find((x) => x.id === s.cursor);
  const options = q?.options ?? [];
  if (key.return) return answer(s);
  if (key.upArrow && options.length) return { ...s, input: '', highlight: (s.highlight - 1 + options.length) % options.length };
  if (key.downArrow && options.length) return { ...s, input: '', highlight: (s.highlight + 1) % options.length };
  if (key.backspace || key.delete) return { ...s, input: [...s.input].slice(0, -1).join('') };
  if (key.ctrl || key.meta || key.tab || input === '') return s;
  const typed = s.input + input.replace(/[\r\n\t]/g, '');
  if (options.length) {
    const hit = options.findIndex((o) => o.toLowerCase().startsWith(typed.toLowerCase()));
    return { ...s, input: typed, highlight: hit >= 0 ? hit : s.highlight };
  }
  return { ...s, input: typed };
}

/** Where a (resumed) draft starts: the first question still without an answer, else review. */
export function initialState(initialDraft: Draft = {}): WizardState {
  const draft = structuredClone(initialDraft);
  const s: WizardState = { draft, phase: 'asking', cursor: '', input: '', highlight: 0, errors: {}, notices: [], effectSeq: 0 };
  const open = questionsFor(draft).find((q) => q.kind !== 'more' && !q.optional && getPath(draft, q.path) === undefined);
  return open ? focus(s, open.id) : toReview(s, draft);
}

// ---------------------------------------------------------------------------
// Hook and view

export interface OnboardingWizardProps {
  /** A saved draft to resume. */
  initialDraft?: Draft;
  /** Send the entry (already valid against signupEntrySchema). */
  onSubmit: (entry: SignupEntry) => Promise<SubmitResult>;
  /** Store the draft; the returned text (e.g. the file path) is shown. */
  onSaveDraft: (draft: Draft) => Promise<string>;
  /** Called once when the wizard is finished: submitted, or left with Ctrl+C. */
  onExit?: (result: WizardResult) => void;
}

function useOnboardingWizard(props: OnboardingWizardProps) {
  const [state, dispatch] = React.useReducer(wizardReducer, props.initialDraft, initialState);
  const propsRef = React.useRef(props);
  propsRef.current = props;

  const onKey = React.useCallback((input: string, key: KeyInfo) => dispatch({ type: 'key', input, key }), []);
  useKeys(onKey);

  const effect = state.effect;
  React.useEffect(() => {
    if (!effect) return;
    const p = propsRef.current;
    if (effect.kind === 'save') {
      p.onSaveDraft(effect.draft).then(
        (where) => dispatch({ type: 'saved', ok: true, text: `Draft saved: ${where}` }),
        (err: unknown) => dispatch({ type: 'saved', ok: false, text: `Could not save the draft: ${errorText(err)}` }),
      );
    } else if (effect.kind === 'submit') {
      p.onSubmit(effect.entry).then(
        (result) => dispatch({ type: 'submitted', result }),
        (err: unknown) => dispatch({ type: 'submitted', result: { ok: false, message: `Could not submit: ${errorText(err)}` } }),
      );
    } else {
      p.onExit?.(effect.result);
    }
  }, [effect?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  const questions = questionsFor(state.draft);
  const question = questions.find((q) => q.id === state.cursor);
  return { state, questions, question };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function Header(props: { current: StepId | 'review' }) {
  const { Box, Text } = ink;
  return (
    <Box>
      <Text bold>payctl onboard  </Text>
      {STEPS.map((st, i) => (
        <Text key={st.id} bold={st.id === props.current} color={st.id === props.current ? 'cyan' : 'gray'}>
          {i > 0 ? ' › ' : ''}
          {st.id === props.current ? `[${st.title}]` : st.title}
        </Text>
      ))}
    </Box>
  );
}

function QuestionView(props: { q: Question; input: string; highlight: number; errors: string[] | undefined }) {
  const { Box, Text } = ink;
  const { q, input, highlight, errors } = props;
  const hasOptions = (q.options?.length ?? 0) > 0;
  const placeholder = q.defaultValue !== undefined && input === '' ? `(Enter for ${q.defaultValue})` : '';
  const first = errors?.[0];
  return (
    <Box flexDirection="column">
      {q.context ? <Text color="yellow">{q.context}</Text> : null}
      <Text>
        <Text bold>? {q.label}</Text>
        <Text color="gray"> [{q.id}]</Text>
      </Text>
      <Text>
        <Text color="cyan">{'> '}</Text>
        {input}
        <Text color="gray">{placeholder}▌</Text>
        {first ? <Text color="red">  ✖ {first}</Text> : null}
      </Text>
      {(errors ?? []).slice(1).map((e, i) => (
        <Text key={i} color="red">  ✖ {e}</Text>
      ))}
      {hasOptions
        ? q.options!.map((o, i) => (
            <Text key={o} color={i === highlight ? 'cyan' : undefined}>
              {i === highlight ? '  › ' : '    '}
              {o}
            </Text>
          ))
        : null}
    </Box>
  );
}

function ReviewView(props: { draft: Draft }) {
  const { Box, Text } = ink;
  const problems = problemsOf(props.draft);
  const lines = flatten(maskSensitive(props.draft));
  return (
    <Box flexDirection="column">
      <Text bold>Review the signup entry</Text>
      {lines.map(([path, value]) => (
        <Text key={path}>
          <Text color="gray">{path}: </Text>
          {value}
        </Text>
      ))}
      {problems.length === 0 ? (
        <Text color="green">All rules are met. Press Enter to submit.</Text>
      ) : (
        <Box flexDirection="column">
          <Text color="red">{problems.length} problem(s) left; Enter goes to the first one:</Text>
          {problems.map((p, i) => (
            <Text key={i} color="red">  ✖ {p.path}: {p.message}</Text>
          ))}
        </Box>
      )}
    </Box>
  );
}

function flatten(v: unknown, prefix = ''): [string, string][] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [[prefix, '(none)']];
    if (v.every((x) => typeof x !== 'object' || x === null)) return [[prefix, v.join(', ')]];
    return v.flatMap((x, i) => flatten(x, `${prefix}.${i}`));
  }
  if (isRecord(v)) return Object.entries(v).flatMap(([k, x]) => flatten(x, prefix ? `${prefix}.${k}` : k));
  if (typeof v === 'number' && /_amount$|_size$/.test(prefix)) return [[prefix, formatMoney(v)]];
  return [[prefix, String(v)]];
}

function OnboardingWizard(props: OnboardingWizardProps) {
  const { Box, Text } = ink;
  const { state, question } = useOnboardingWizard(props);
  const current: StepId | 'review' = state.phase === 'asking' && question ? question.step : 'review';
  const tone = { info: 'blue', error: 'red', success: 'green' } as const;
  return (
    <Box flexDirection="column">
      <Header current={current} />
      {state.notices.map((n, i) => (
        <Text key={i} color="yellow">! {n}</Text>
      ))}
      {state.phase === 'asking' && question ? (
        <QuestionView q={question} input={state.input} highlight={state.highlight} errors={state.errors[question.id]} />
      ) : state.phase !== 'done' ? (
        <ReviewView draft={state.draft} />
      ) : null}
      {state.status ? <Text color={tone[state.status.tone]}>{state.status.text}</Text> : null}
      {state.phase !== 'done' ? (
        <Text color="gray">Enter: answer · Esc: back · ↑/↓: choose · Ctrl+S: save draft · Ctrl+C: quit</Text>
      ) : null}
    </Box>
  );
}

// ---------------------------------------------------------------------------
// Entry points

/** Load Ink and React, then hand back the wizard component (for rendering or tests). */
export async function loadOnboardingWizard(): Promise<(props: OnboardingWizardProps) => ReactTypes.ReactElement> {
  await loadRuntime();
  return OnboardingWizard;
}

export interface RenderOnboardingWizardOptions extends Omit<OnboardingWizardProps, 'onExit'> {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

/** Run the wizard in the terminal until the entry is submitted or the user leaves. */
export async function renderOnboardingWizard(options: RenderOnboardingWizardOptions): Promise<WizardResult> {
  await loadRuntime();
  const { stdin, stdout, ...props } = options;
  let result: WizardResult | undefined;
  const instance = ink.render(
    <OnboardingWizard
      {...props}
      onExit={(r) => {
        result = r;
        // Let the last frame (the outcome) render before leaving.
        setImmediate(() => instance.unmount());
      }}
    />,
    { exitOnCtrlC: false, ...(stdin ? { stdin } : {}), ...(stdout ? { stdout } : {}) },
  );
  await instance.waitUntilExit();
  return result ?? { status: 'cancelled', draft: props.initialDraft ?? {} };
}
