// The questions of the onboarding wizard: which fields of a signup entry (spec 15) are
// asked, in which order and step, and which of them apply to a draft as it stands. The
// conditions are the rules of `onboarding.ts` (the same helpers the request schema
// uses), so the wizard asks exactly what the schema will require. Pure: no I/O; the
// signup forms to choose from come in as data (`AskContext`).
import {
  amountsRequired,
  BUSINESS_PRESENCE,
  BUSINESS_TYPES,
  FULFILLMENT_METHODS,
  FULFILLMENT_TIMEFRAMES,
  GEOGRAPHIC_REACH,
  isSoleProprietorship,
  LEGACY_FIELDS,
  MAX_REPRESENTATIVES,
  MONTHLY_VOLUME_RANGES,
  needsAcceptanceMethods,
  needsCurrentlyAcceptsCard,
  needsFulfillment,
  needsRule1Fields,
  PENDING_LITIGATION,
  REFUND_POLICIES,
  statementsRequired,
  TITLES,
  usesPaymentMethod,
} from './index.js';
import { getPath, type Draft, type Path } from './draft.js';

export type StepId = 'business' | 'representatives' | 'underwriting' | 'statements';
export const STEPS: readonly { id: StepId | 'review'; title: string }[] = [
  { id: 'business', title: 'Business' },
  { id: 'representatives', title: 'Representatives' },
  { id: 'underwriting', title: 'Underwriting' },
  { id: 'statements', title: 'Statements' },
  { id: 'review', title: 'Review' },
];
export const STEP_ORDER: Record<StepId, number> = { business: 0, representatives: 1, underwriting: 2, statements: 3 };

/**
 * How an answer is typed: free text, a whole number, an amount of money, one of
 * `options` (select; bool is yes/no), a comma list, or the representatives' "next?".
 */
export type Kind = 'text' | 'int' | 'money' | 'select' | 'bool' | 'list' | 'more';
export interface Question {
  /** Dotted path of the answer (the same spelling as the API's error paths). */
  id: string;
  step: StepId;
  path: Path;
  label: string;
  kind: Kind;
  /** The values to choose from (select, bool, more). */
  options?: readonly string[];
  /** What is shown for each option when it is not the value itself (a form's name and id). */
  optionLabels?: readonly string[];
  /** The answer must be one of `options` (the schema cannot tell: e.g. the database's signup forms). */
  closed?: boolean;
  /** Shown instead of the list when a closed list is empty: what to do about it. */
  emptyHint?: string;
  /** Empty input removes the value and is not checked (the schema does not require it here). */
  optional?: boolean;
  /** Used when the input is left empty. */
  defaultValue?: string;
  /** A heading shown above the question (e.g. "Representative 2"). */
  context?: string;
  /** A line under the question: what the answer looks like or where to find it. */
  hint?: string;
  /** Shown masked while typed, all but the last four characters (ssn, itin, ein). */
  secret?: boolean;
}

/** A signup form as the wizard offers it. */
export interface FormChoice {
  id: string;
  name: string;
}

/** What the questions depend on besides the draft. */
export interface AskContext {
  /** The database's signup forms, offered as a list; without it the form id is typed. */
  signupForms?: readonly FormChoice[];
}

export const MORE_ID = 'business.representatives';
export const MORE = { done: 'continue', add: 'add another representative', remove: 'remove the last representative' } as const;
const BOOL_OPTIONS = ['yes', 'no'] as const;
export const NO_FORMS_HINT =
  'This database has no signup form yet. Create one with `payctl signup-form create --name NAME` ' +
  '(Ctrl+S keeps this draft; payctl onboard --resume FILE continues it).';

export const representativeCount = (d: Draft) => {
  const reps = getPath(d, ['business', 'representatives']);
  return Array.isArray(reps) && reps.length > 0 ? reps.length : 1;
};

/** The signup form question: a choice among the database's forms, or a typed id when they are not known. */
function signupFormQuestion(forms: readonly FormChoice[] | undefined): Question {
  const base = { id: 'signup_form_id', step: 'business' as const, path: ['signup_form_id'] };
  if (!forms) return { ...base, label: 'Signup form id (from your administrator)', kind: 'text' };
  return {
    ...base,
    label: forms.length === 1 ? 'Signup form (the only one in this database: Enter takes it)' : 'Signup form',
    kind: 'select',
    closed: true,
    options: forms.map((f) => f.id),
    optionLabels: forms.map((f) => `${f.name} (${f.id})`),
    emptyHint: NO_FORMS_HINT,
  };
}

/** Every question that applies to the draft as it stands, in the order they are asked. */
export function questionsFor(d: Draft, ask: AskContext = {}): Question[] {
  const qs: Question[] = [signupFormQuestion(ask.signupForms)];
  let step: StepId = 'business';
  let context: string | undefined;
  const add = (path: Path, label: string, kind: Kind = 'text', extra: Partial<Question> = {}) =>
    qs.push({ id: path.join('.'), step, path, label, kind, ...(context ? { context } : {}), ...extra });
  const select = (path: Path, label: string, options: readonly string[], extra: Partial<Question> = {}) => add(path, label, 'select', { options, ...extra });
  const yesNo = (path: Path, label: string) => add(path, label, 'bool', { options: BOOL_OPTIONS });

  const B = ['business'];
  add(['external_id'], 'External id (optional, at most 36 characters)', 'text', { optional: true });
  add([...B, 'business_name'], 'Business name');
  add([...B, 'doing_business_as'], 'Doing business as');
  select([...B, 'business_type'], 'Business type', BUSINESS_TYPES);
  add([...B, 'website'], 'Website (optional when you give a description)', 'text', { optional: true, hint: 'e.g. https://example.com' });
  add([...B, 'description'], 'Description (at most 100 characters; required without a website)');
  if (isSoleProprietorship(d)) {
    add([...B, 'ssn'], 'SSN (a sole proprietor may give it instead of an EIN; empty to give an EIN)', 'text', { optional: true, secret: true });
    if (getPath(d, [...B, 'ssn']) === undefined) add([...B, 'ein'], 'EIN', 'text', { secret: true });
  } else {
    add([...B, 'ein'], 'EIN', 'text', { secret: true });
  }
  add([...B, 'industry_mcc'], 'Industry MCC', 'text', { hint: 'the 4-digit merchant category code, e.g. 5814 (restaurants), 5999 (retail)' });
  add([...B, 'phone', 'number'], 'Phone number');
  add([...B, 'phone', 'country_code'], 'Phone country code', 'text', { defaultValue: '1' });
  add([...B, 'email'], 'E-mail');
  add([...B, 'address_line_1'], 'Address line 1');
  add([...B, 'address_line_2'], 'Address line 2 (optional)', 'text', { optional: true });
  add([...B, 'city'], 'City');
  add([...B, 'subdivision'], 'State / subdivision');
  add([...B, 'postal_code'], 'Postal code');

  step = 'representatives';
  const count = representativeCount(d);
  for (let i = 0; i < count; i++) {
    context = `Representative ${i + 1} of ${count}`;
    const R: Path = [...B, 'representatives', i];
    add([...R, 'first_name'], 'First name');
    add([...R, 'middle_name'], 'Middle name (optional)', 'text', { optional: true });
    add([...R, 'last_name'], 'Last name');
    select([...R, 'title'], 'Title', TITLES);
    add([...R, 'job_title'], 'Job title');
    add([...R, 'phone', 'number'], 'Phone number');
    add([...R, 'phone', 'country_code'], 'Phone country code', 'text', { defaultValue: '1' });
    add([...R, 'email'], 'E-mail');
    add([...R, 'address_line_1'], 'Address line 1');
    add([...R, 'address_line_2'], 'Address line 2 (optional)', 'text', { optional: true });
    add([...R, 'city'], 'City');
    add([...R, 'subdivision'], 'State / subdivision');
    add([...R, 'postal_code'], 'Postal code');
    add([...R, 'birth_date', 'year'], 'Birth date: year (e.g. 1984)', 'int');
    add([...R, 'birth_date', 'month'], 'Birth date: month (1-12)', 'int');
    add([...R, 'birth_date', 'day'], 'Birth date: day', 'int');
    add([...R, 'ssn'], 'SSN (empty if you give an ITIN)', 'text', { optional: true, secret: true });
    if (getPath(d, [...R, 'ssn']) === undefined) add([...R, 'itin'], 'ITIN', 'text', { secret: true });
    yesNo([...R, 'is_controller'], 'Controls the business?');
    yesNo([...R, 'is_owner'], 'Owns part of the business?');
    add([...R, 'ownership_percentage'], 'Ownership percentage (0-100)', 'int');
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
  add([...U, 'payment_methods'], 'Payment methods to accept: card, ach, both (card,ach) or none', 'list');
  // The list opens on us-only, what most merchants here answer: the first option
  // (international-only) would pull in the questions of international acceptance.
  select([...U, 'geographich_reach'], 'Geographic reach', GEOGRAPHIC_REACH, { defaultValue: 'us-only' });
  if (needsCurrentlyAcceptsCard(d)) {
    yesNo([...U, 'currently_accepts_card'], 'Do you accept cards today?');
  }
  if (needsAcceptanceMethods(d)) {
    context = 'Card acceptance, in percent (the three sum to 100)';
    add([...U, 'acceptance_methods', 'in_person'], 'In person %', 'int');
    add([...U, 'acceptance_methods', 'online'], 'Online %', 'int');
    add([...U, 'acceptance_methods', 'mail_or_phone'], 'Mail or phone %', 'int');
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
      add([...A, 'average_transaction_amount'], 'Average transaction amount (e.g. 18.50)', 'money');
      add([...A, 'maximum_transaction_amount'], 'Maximum transaction amount (e.g. 600.00)', 'money');
    }
    context = undefined;
  };
  if (usesPaymentMethod(d, 'card')) activity('collect_funds', 'card', 'Collecting funds by card');
  if (usesPaymentMethod(d, 'ach')) activity('collect_funds', 'ach', 'Collecting funds by ACH');
  activity('send_funds', 'ach', 'Sending funds by ACH');
  activity('send_funds', 'instant_bank', 'Sending funds by instant bank transfer');
  if (needsRule1Fields(d)) {
    select([...U, 'business_presence'], 'Business presence', BUSINESS_PRESENCE);
    add([...U, 'pending_litigation'], 'Pending litigation', 'select', { options: PENDING_LITIGATION, defaultValue: 'none' });
    context = 'Volume by customer type, in percent (the three sum to 100)';
    add([...U, 'volume_by_customer_type', 'b2b'], 'Business to business %', 'int');
    add([...U, 'volume_by_customer_type', 'b2c'], 'Business to consumer %', 'int');
    add([...U, 'volume_by_customer_type', 'p2p'], 'Person to person %', 'int');
    context = undefined;
  }

  step = 'statements';
  const kind = statementsRequired(d);
  context = kind === 'processing' ? 'Card processing statements, last 3 months (uploaded file ids)' : 'Bank statements, last 3 months (uploaded file ids)';
  const S: Path = [...B, kind === 'processing' ? 'processing_statements' : 'bank_statements'];
  const hint = 'the id your document upload gave for the statement (any text up to 255 characters, e.g. file_2026_01); payctl keeps it as given';
  add([...S, 'first_month_file_id'], 'First month file id', 'text', { hint });
  add([...S, 'second_month_file_id'], 'Second month file id', 'text', { hint });
  add([...S, 'third_month_file_id'], 'Third month file id', 'text', { hint });
  return qs;
}

/** The step an (error) path belongs to. */
export function stepOfPath(path: string): StepId {
  if (path === 'business.representatives' || path.startsWith('business.representatives.')) return 'representatives';
  if (path.startsWith('business.underwriting') || LEGACY_FIELDS.some((f) => path === `business.${f}`)) return 'underwriting';
  if (path.startsWith('business.processing_statements') || path.startsWith('business.bank_statements')) return 'statements';
  return 'business';
}
