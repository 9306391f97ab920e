import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fieldsFromZod } from '../../src/errors.js';
import {
  maskSensitive,
  maskValue,
  needsFulfillment,
  needsRule1Fields,
  relevantSections,
  signupEntrySchema,
  statementsRequired,
} from '../../src/domain/onboarding.js';

// Runs from dist/test/domain (compiled) or test/domain: walk up to the repository root.
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const load = (name: string): Json => JSON.parse(readFileSync(join(repoRoot(), 'data', 'examples', name), 'utf8'));
const base = () => load('signup-entry.json');
const soleProp = () => load('signup-entry-sole-prop.json');

/** Every distinct dotted error path, sorted; [] when the body is valid. */
function errorPaths(body: unknown): string[] {
  const r = signupEntrySchema.safeParse(body);
  if (r.success) return [];
  return [...new Set(fieldsFromZod(r.error).map((f) => f.path))].sort();
}

const statementIds = {
  first_month_file_id: 'file_a',
  second_month_file_id: 'file_b',
  third_month_file_id: 'file_c',
};
const activity = (range: string, amounts = false) => ({
  expected_transaction_activity: {
    monthly_volume_range: range,
    ...(amounts ? { average_transaction_amount: 1000, maximum_transaction_amount: 5000 } : {}),
  },
});

interface Case {
  name: string;
  from?: () => Json;
  mutate: (e: Json) => void;
  paths: string[];
}

const cases: Case[] = [
  // --- character sets and bounds
  {
    name: 'accented Latin business names',
    mutate: (e) => {
      e.business.business_name = 'Ætna Øresund Łódź Ñandú Crème Brûlée Ğüzel';
      e.business.doing_business_as = 'Đặng Việt Phở (Saigon) & Co.';
    },
    paths: [],
  },
  { name: 'name typed with combining accents (NFD)', mutate: (e) => (e.business.business_name = 'Cafe\u0301 Noe\u0308l'), paths: [] },
  { name: 'every punctuation of the name set', mutate: (e) => (e.business.business_name = `"A'(b),c.~ &!+-9`), paths: [] },
  { name: 'business_name with <', mutate: (e) => (e.business.business_name = 'Acme <Inc>'), paths: ['business.business_name'] },
  { name: 'business_name with @ (description-only character)', mutate: (e) => (e.business.business_name = 'Acme @ Home'), paths: ['business.business_name'] },
  { name: 'doing_business_as with non-Latin letters', mutate: (e) => (e.business.doing_business_as = 'Кафе'), paths: ['business.doing_business_as'] },
  { name: 'business_name empty', mutate: (e) => (e.business.business_name = ''), paths: ['business.business_name'] },
  { name: 'every punctuation of the description set', mutate: (e) => (e.business.description = `a,b./?:'"|~!@#$%^&*()+_=-Z 9`), paths: [] },
  { name: 'description with <', mutate: (e) => (e.business.description = 'Best <b>coffee</b>'), paths: ['business.description'] },
  { name: 'description of 100 characters', mutate: (e) => (e.business.description = 'x'.repeat(100)), paths: [] },
  { name: 'description of 101 characters', mutate: (e) => (e.business.description = 'x'.repeat(101)), paths: ['business.description'] },
  { name: 'website only (no description)', mutate: (e) => delete e.business.description, paths: [] },
  { name: 'description only (no website)', mutate: (e) => delete e.business.website, paths: [] },
  {
    name: 'neither description nor website',
    mutate: (e) => {
      delete e.business.description;
      delete e.business.website;
    },
    paths: ['business.description'],
  },
  { name: 'address_line_1 with ;', mutate: (e) => (e.business.address_line_1 = '12 Main St; rear'), paths: ['business.address_line_1'] },
  { name: 'city with <', mutate: (e) => (e.business.city = 'Port<land'), paths: ['business.city'] },
  { name: 'address_line_2 empty', mutate: (e) => (e.business.address_line_2 = ''), paths: [] },
  { name: 'address_line_2 with {', mutate: (e) => (e.business.address_line_2 = 'Unit {4}'), paths: ['business.address_line_2'] },
  { name: 'external_id of 36 characters', mutate: (e) => (e.external_id = 'e'.repeat(36)), paths: [] },
  { name: 'external_id of 37 characters', mutate: (e) => (e.external_id = 'e'.repeat(37)), paths: ['external_id'] },
  { name: 'signup_form_id missing', mutate: (e) => delete e.signup_form_id, paths: ['signup_form_id'] },
  { name: 'business_type not in the enum', mutate: (e) => (e.business.business_type = 'corporation'), paths: ['business.business_type'] },
  { name: 'phone country code 44', mutate: (e) => (e.business.phone.country_code = '44'), paths: ['business.phone.country_code'] },
  { name: 'phone country code as number', mutate: (e) => (e.business.phone.country_code = 1), paths: ['business.phone.country_code'] },
  { name: 'e-mail malformed', mutate: (e) => (e.business.email = 'owner-at-example'), paths: ['business.email'] },
  { name: 'string over the default bound', mutate: (e) => (e.business.industry_mcc = '5'.repeat(5001)), paths: ['business.industry_mcc'] },
  // --- website and MCC: checked by the schema, so the wizard shows them at their question
  { name: 'website without a scheme', mutate: (e) => (e.business.website = 'cafe.example'), paths: [] },
  { name: 'website over http', mutate: (e) => (e.business.website = 'http://cafe.example/menu'), paths: [] },
  { name: 'website that is not an address', mutate: (e) => (e.business.website = 'not a url'), paths: ['business.website'] },
  { name: 'website without a dot in the host', mutate: (e) => (e.business.website = 'https://localhost'), paths: ['business.website'] },
  { name: 'website of another scheme', mutate: (e) => (e.business.website = 'ftp://cafe.example'), paths: ['business.website'] },
  { name: 'MCC of letters', mutate: (e) => (e.business.industry_mcc = 'abcd'), paths: ['business.industry_mcc'] },
  { name: 'MCC of three digits', mutate: (e) => (e.business.industry_mcc = '581'), paths: ['business.industry_mcc'] },
  { name: 'MCC as a number', mutate: (e) => (e.business.industry_mcc = 5814), paths: ['business.industry_mcc'] },
  // --- unknown fields
  { name: 'unknown top-level field', mutate: (e) => (e.status = 'approved'), paths: ['status'] },
  { name: 'unknown business field', mutate: (e) => (e.business.group_id = 'g1'), paths: ['business.group_id'] },
  { name: 'unknown representative field', mutate: (e) => (e.business.representatives[1].age = 40), paths: ['business.representatives.1.age'] },
  {
    name: 'geographic_reach spelled the usual way',
    mutate: (e) => {
      e.business.underwriting.geographic_reach = e.business.underwriting.geographich_reach;
      delete e.business.underwriting.geographich_reach;
    },
    paths: ['business.underwriting.geographic_reach', 'business.underwriting.geographich_reach'],
  },
  // --- ein / ssn
  { name: 'ein missing (llc)', mutate: (e) => delete e.business.ein, paths: ['business.ein'] },
  { name: 'ssn on an llc', mutate: (e) => (e.business.ssn = '123-45-6789'), paths: ['business.ssn'] },
  { name: 'sole proprietorship with ssn instead of ein', from: soleProp, mutate: () => {}, paths: [] },
  { name: 'sole proprietorship with ein', from: soleProp, mutate: (e) => { delete e.business.ssn; e.business.ein = '98-7654321'; }, paths: [] },
  { name: 'sole proprietorship with neither ein nor ssn', from: soleProp, mutate: (e) => delete e.business.ssn, paths: ['business.ein'] },
  // --- representatives
  { name: 'no representatives', mutate: (e) => (e.business.representatives = []), paths: ['business.representatives'] },
  {
    name: 'eleven representatives',
    mutate: (e) => (e.business.representatives = Array.from({ length: 11 }, () => e.business.representatives[0])),
    paths: ['business.representatives'],
  },
  {
    name: 'eleven representatives do not hide the other rules',
    mutate: (e) => {
      e.business.representatives = Array.from({ length: 11 }, () => e.business.representatives[0]);
      delete e.business.ein;
      delete e.business.underwriting.refund_policy;
    },
    paths: ['business.ein', 'business.representatives', 'business.underwriting.refund_policy'],
  },
  { name: 'title dr', mutate: (e) => (e.business.representatives[0].title = 'dr'), paths: ['business.representatives.0.title'] },
  { name: 'birth date 29 Feb of a leap year', mutate: (e) => (e.business.representatives[0].birth_date = { year: 2000, month: 2, day: 29 }), paths: [] },
  { name: 'birth date 29 Feb of a common year', mutate: (e) => (e.business.representatives[0].birth_date = { year: 1900, month: 2, day: 29 }), paths: ['business.representatives.0.birth_date'] },
  { name: 'birth date 31 April', mutate: (e) => (e.business.representatives[0].birth_date = { year: 1990, month: 4, day: 31 }), paths: ['business.representatives.0.birth_date'] },
  { name: 'birth month 13', mutate: (e) => (e.business.representatives[0].birth_date.month = 13), paths: ['business.representatives.0.birth_date.month'] },
  { name: 'birth day 0', mutate: (e) => (e.business.representatives[0].birth_date.day = 0), paths: ['business.representatives.0.birth_date.day'] },
  { name: 'birth year as string', mutate: (e) => (e.business.representatives[0].birth_date.year = '1984'), paths: ['business.representatives.0.birth_date.year'] },
  { name: 'representative with itin only', mutate: (e) => { delete e.business.representatives[0].ssn; e.business.representatives[0].itin = '912-70-0000'; }, paths: [] },
  { name: 'representative with ssn and itin', mutate: (e) => (e.business.representatives[0].itin = '912-70-0000'), paths: [] },
  { name: 'representative with neither ssn nor itin', mutate: (e) => delete e.business.representatives[0].ssn, paths: ['business.representatives.0.ssn'] },
  { name: 'ownership 101', mutate: (e) => (e.business.representatives[0].ownership_percentage = 101), paths: ['business.representatives.0.ownership_percentage'] },
  { name: 'ownership fractional', mutate: (e) => (e.business.representatives[0].ownership_percentage = 12.5), paths: ['business.representatives.0.ownership_percentage'] },
  { name: 'is_owner as a string', mutate: (e) => (e.business.representatives[1].is_owner = 'yes'), paths: ['business.representatives.1.is_owner'] },
  { name: 'is_controller missing', mutate: (e) => delete e.business.representatives[1].is_controller, paths: ['business.representatives.1.is_controller'] },
  { name: 'job_title missing', mutate: (e) => delete e.business.representatives[0].job_title, paths: ['business.representatives.0.job_title'] },
  { name: 'representative phone code 33', mutate: (e) => (e.business.representatives[0].phone.country_code = '33'), paths: ['business.representatives.0.phone.country_code'] },
  // --- underwriting enums and sums
  { name: 'payment method bitcoin', mutate: (e) => (e.business.underwriting.payment_methods = ['card', 'bitcoin']), paths: ['business.underwriting.payment_methods.1'] },
  { name: 'payment methods over the bound', mutate: (e) => (e.business.underwriting.payment_methods = ['card', 'ach', 'card']), paths: ['business.underwriting.payment_methods'] },
  { name: 'payment method twice', mutate: (e) => (e.business.underwriting.payment_methods = ['ach', 'ach']), paths: ['business.underwriting.payment_methods'] },
  { name: 'geographich_reach unknown', mutate: (e) => (e.business.underwriting.geographich_reach = 'mars'), paths: ['business.underwriting.geographich_reach'] },
  { name: 'pending_litigation unknown', mutate: (e) => (e.business.underwriting.pending_litigation = 'maybe'), paths: ['business.underwriting.pending_litigation'] },
  { name: 'volume share negative', mutate: (e) => (e.business.underwriting.volume_by_customer_type.p2p = -10), paths: ['business.underwriting.volume_by_customer_type.p2p'] },
  { name: 'volume by customer type sums to 110', mutate: (e) => (e.business.underwriting.volume_by_customer_type.p2p = 10), paths: ['business.underwriting.volume_by_customer_type'] },
  { name: 'acceptance methods sum to 95', mutate: (e) => (e.business.underwriting.acceptance_methods.mail_or_phone = 0), paths: ['business.underwriting.acceptance_methods'] },
  { name: 'acceptance methods missing a share', mutate: (e) => delete e.business.underwriting.acceptance_methods.online, paths: ['business.underwriting.acceptance_methods.online'] },
  { name: 'card without acceptance_methods', mutate: (e) => delete e.business.underwriting.acceptance_methods, paths: ['business.underwriting.acceptance_methods'] },
  { name: 'currently_accepts_card missing', mutate: (e) => delete e.business.underwriting.currently_accepts_card, paths: ['business.underwriting.currently_accepts_card'] },
  // --- fulfillment (card and in_person < 80)
  {
    name: 'in_person 79 without fulfillment answers',
    mutate: (e) => {
      Object.assign(e.business.underwriting.acceptance_methods, { in_person: 79, online: 21, mail_or_phone: 0 });
      delete e.business.underwriting.fulfillment_method;
      delete e.business.underwriting.fulfillment_timeframe;
      delete e.business.underwriting.refund_policy;
    },
    paths: ['business.underwriting.fulfillment_method', 'business.underwriting.fulfillment_timeframe', 'business.underwriting.refund_policy'],
  },
  {
    name: 'in_person 80 without fulfillment answers',
    mutate: (e) => {
      Object.assign(e.business.underwriting.acceptance_methods, { in_person: 80, online: 20, mail_or_phone: 0 });
      delete e.business.underwriting.fulfillment_method;
      delete e.business.underwriting.fulfillment_timeframe;
      delete e.business.underwriting.refund_policy;
    },
    paths: [],
  },
  {
    name: 'ach only: no acceptance, fulfillment or collect_funds.card needed',
    mutate: (e) => {
      const u = e.business.underwriting;
      u.payment_methods = ['ach'];
      for (const k of ['acceptance_methods', 'fulfillment_method', 'fulfillment_timeframe', 'refund_policy']) delete u[k];
      delete u.collect_funds.card;
    },
    paths: [],
  },
  { name: 'fulfillment_method unknown', mutate: (e) => (e.business.underwriting.fulfillment_method = 'teleport'), paths: ['business.underwriting.fulfillment_method'] },
  // --- collect_funds per payment method
  { name: 'card without collect_funds.card', mutate: (e) => delete e.business.underwriting.collect_funds.card, paths: ['business.underwriting.collect_funds.card'] },
  { name: 'ach without collect_funds.ach', mutate: (e) => delete e.business.underwriting.collect_funds.ach, paths: ['business.underwriting.collect_funds.ach'] },
  {
    name: 'llc without collect_funds',
    mutate: (e) => delete e.business.underwriting.collect_funds,
    paths: ['business.underwriting.collect_funds.ach', 'business.underwriting.collect_funds.card'],
  },
  { name: 'send_funds.instant_bank missing', mutate: (e) => delete e.business.underwriting.send_funds.instant_bank, paths: ['business.underwriting.send_funds.instant_bank'] },
  // --- expected_transaction_activity amounts
  {
    name: 'range above under-10k without amounts',
    mutate: (e) => (e.business.underwriting.collect_funds.ach = activity('100k-250k')),
    paths: [
      'business.underwriting.collect_funds.ach.expected_transaction_activity.average_transaction_amount',
      'business.underwriting.collect_funds.ach.expected_transaction_activity.maximum_transaction_amount',
    ],
  },
  { name: 'under-10k without amounts', mutate: (e) => (e.business.underwriting.collect_funds.ach = activity('under-10k')), paths: [] },
  {
    name: 'negative amount',
    mutate: (e) => (e.business.underwriting.collect_funds.card.expected_transaction_activity.average_transaction_amount = -1),
    paths: ['business.underwriting.collect_funds.card.expected_transaction_activity.average_transaction_amount'],
  },
  {
    name: 'range unknown',
    mutate: (e) => (e.business.underwriting.send_funds.ach.expected_transaction_activity.monthly_volume_range = '10k'),
    paths: ['business.underwriting.send_funds.ach.expected_transaction_activity.monthly_volume_range'],
  },
];

/** A valid llc that stays under every rule-1 threshold, to toggle rule 1 from. */
function quietCardBusiness(): Json {
  const e = base();
  const u = e.business.underwriting;
  u.geographich_reach = 'us-only';
  u.collect_funds = { ach: activity('under-10k'), card: activity('under-10k') };
  u.send_funds = { ach: activity('under-10k'), instant_bank: activity('under-10k') };
  delete u.business_presence;
  delete u.pending_litigation;
  delete u.volume_by_customer_type;
  return e;
}
const RULE1_PATHS = [
  'business.underwriting.business_presence',
  'business.underwriting.pending_litigation',
  'business.underwriting.volume_by_customer_type',
];

const conditionalRules: Case[] = [
  // Rule 1
  { name: 'rule 1 off: us-only and every range under-10k', from: quietCardBusiness, mutate: () => {}, paths: [] },
  { name: 'rule 1 on: reach us-and-international', from: quietCardBusiness, mutate: (e) => (e.business.underwriting.geographich_reach = 'us-and-international'), paths: RULE1_PATHS },
  { name: 'rule 1 on: reach international-only', from: quietCardBusiness, mutate: (e) => (e.business.underwriting.geographich_reach = 'international-only'), paths: RULE1_PATHS },
  { name: 'rule 1 on: a send_funds range above under-10k', from: quietCardBusiness, mutate: (e) => (e.business.underwriting.send_funds.instant_bank = activity('over-5m', true)), paths: RULE1_PATHS },
  { name: 'rule 1 on: a collect_funds range above under-10k', from: quietCardBusiness, mutate: (e) => (e.business.underwriting.collect_funds.card = activity('10k-50k', true)), paths: RULE1_PATHS },
  // Rule 2
  { name: 'rule 2: sole proprietorship with no payment methods', from: soleProp, mutate: () => {}, paths: [] },
  { name: 'rule 2: llc with no payment methods', from: soleProp, mutate: (e) => { e.business.business_type = 'llc'; e.business.ein = e.business.ssn; delete e.business.ssn; }, paths: ['business.underwriting.payment_methods'] },
  {
    name: 'rule 2: sole proprietorship taking cards may omit collect_funds',
    from: soleProp,
    mutate: (e) => Object.assign(e.business.underwriting, { payment_methods: ['card'], currently_accepts_card: false, acceptance_methods: { in_person: 100, online: 0, mail_or_phone: 0 } }),
    paths: [],
  },
  {
    name: 'rule 2: sole proprietorship giving collect_funds follows the per-method rule',
    from: soleProp,
    mutate: (e) => Object.assign(e.business.underwriting, { payment_methods: ['card', 'ach'], currently_accepts_card: false, acceptance_methods: { in_person: 100, online: 0, mail_or_phone: 0 }, collect_funds: { ach: activity('under-10k') } }),
    paths: ['business.underwriting.collect_funds.card'],
  },
  // Rules 3 and 4
  { name: 'rule 3: accepts cards, processing statements given', mutate: () => {}, paths: [] },
  { name: 'rule 3: accepts cards, processing statements missing', mutate: (e) => delete e.business.processing_statements, paths: ['business.processing_statements'] },
  {
    name: 'rule 3: accepts cards, bank statements instead',
    mutate: (e) => { e.business.bank_statements = e.business.processing_statements; delete e.business.processing_statements; },
    paths: ['business.processing_statements'],
  },
  { name: 'rule 3: statement with a missing month', mutate: (e) => delete e.business.processing_statements.third_month_file_id, paths: ['business.processing_statements.third_month_file_id'] },
  {
    name: 'rule 4: does not accept cards yet, bank statements given',
    mutate: (e) => { e.business.underwriting.currently_accepts_card = false; e.business.bank_statements = statementIds; delete e.business.processing_statements; },
    paths: [],
  },
  {
    name: 'rule 4: does not accept cards yet, only processing statements',
    mutate: (e) => (e.business.underwriting.currently_accepts_card = false),
    paths: ['business.bank_statements'],
  },
  { name: 'rule 4: sole proprietorship without bank statements', from: soleProp, mutate: (e) => delete e.business.bank_statements, paths: ['business.bank_statements'] },
];

const legacy = { average_monthly_transaction_volume: '25000', max_transaction_size: 90000, average_transaction_size: 2500 };
function legacyEntry(): Json {
  const e = base();
  delete e.business.underwriting;
  Object.assign(e.business, legacy);
  return e;
}
const legacyCases: Case[] = [
  { name: 'legacy: no underwriting, legacy fields and processing statements', from: legacyEntry, mutate: () => {}, paths: [] },
  {
    name: 'legacy: no underwriting and no legacy fields',
    mutate: (e) => delete e.business.underwriting,
    paths: ['business.underwriting'],
  },
  {
    name: 'legacy: one legacy field missing',
    from: legacyEntry,
    mutate: (e) => delete e.business.max_transaction_size,
    paths: ['business.max_transaction_size'],
  },
  {
    name: 'legacy: processing statements always required',
    from: legacyEntry,
    mutate: (e) => { e.business.bank_statements = statementIds; delete e.business.processing_statements; },
    paths: ['business.processing_statements'],
  },
  { name: 'legacy: max_transaction_size negative', from: legacyEntry, mutate: (e) => (e.business.max_transaction_size = -5), paths: ['business.max_transaction_size'] },
  { name: 'legacy: average_transaction_size as string', from: legacyEntry, mutate: (e) => (e.business.average_transaction_size = '2500'), paths: ['business.average_transaction_size'] },
  { name: 'legacy: volume as number', from: legacyEntry, mutate: (e) => (e.business.average_monthly_transaction_volume = 25000), paths: ['business.average_monthly_transaction_volume'] },
  { name: 'legacy fields beside underwriting are accepted', mutate: (e) => Object.assign(e.business, legacy), paths: [] },
];

describe('signupEntrySchema', () => {
  for (const table of [cases, conditionalRules, legacyCases]) {
    for (const c of table) {
      it(c.name, () => {
        const entry = (c.from ?? base)();
        c.mutate(entry);
        assert.deepEqual(errorPaths(entry), [...c.paths].sort());
      });
    }
  }

  it('reports every independent problem of one body, field-level and cross-field alike', () => {
    const e = base();
    e.extra = true;
    e.external_id = 'x'.repeat(40);
    e.business.business_name = 'Bad <name>';
    delete e.business.ein;
    delete e.business.description;
    delete e.business.website;
    e.business.phone.country_code = '44';
    e.business.representatives[0].birth_date = { year: 1990, month: 2, day: 30 };
    delete e.business.representatives[1].itin;
    e.business.representatives[1].title = 'sir';
    const u = e.business.underwriting;
    u.payment_methods = ['card', 'ach', 'ach'];
    u.acceptance_methods = { in_person: 50, online: 10, mail_or_phone: 10 };
    delete u.fulfillment_method;
    delete u.volume_by_customer_type;
    delete u.currently_accepts_card;
    delete u.collect_funds.ach;
    u.send_funds.ach = activity('1m-5m');
    delete e.business.processing_statements;
    assert.deepEqual(errorPaths(e), [
      'business.business_name',
      'business.description',
      'business.ein',
      'business.phone.country_code',
      'business.representatives.0.birth_date',
      'business.representatives.1.ssn',
      'business.representatives.1.title',
      'business.underwriting.acceptance_methods',
      'business.underwriting.collect_funds.ach',
      'business.underwriting.currently_accepts_card',
      'business.underwriting.fulfillment_method',
      'business.underwriting.payment_methods',
      'business.underwriting.send_funds.ach.expected_transaction_activity.average_transaction_amount',
      'business.underwriting.send_funds.ach.expected_transaction_activity.maximum_transaction_amount',
      'business.underwriting.volume_by_customer_type',
      'external_id',
      'extra',
    ]);
  });

  it('messages say the rule', () => {
    const e = base();
    e.business.underwriting.acceptance_methods.in_person = 10;
    delete e.business.underwriting.refund_policy;
    const r = signupEntrySchema.safeParse(e);
    assert.equal(r.success, false);
    const fields = fieldsFromZod(r.error!);
    assert.deepEqual(fields.find((f) => f.path === 'business.underwriting.acceptance_methods')?.message,
      'in_person + online + mail_or_phone must sum to 100 (got 50)');
    assert.match(fields.find((f) => f.path === 'business.underwriting.refund_policy')!.message, /card is in payment_methods and acceptance_methods.in_person is below 80/);
  });

  it('drops the legacy fields from the output when underwriting is present', () => {
    const e = base();
    Object.assign(e.business, legacy);
    const out = signupEntrySchema.parse(e);
    for (const k of Object.keys(legacy)) assert.equal(k in out.business, false, k);
    assert.equal(out.business.underwriting?.geographich_reach, 'us-and-international');
  });

  it('keeps the legacy fields when underwriting is absent', () => {
    const out = signupEntrySchema.parse(legacyEntry());
    assert.equal(out.business.average_monthly_transaction_volume, '25000');
    assert.equal(out.business.max_transaction_size, 90000);
    assert.equal(out.business.average_transaction_size, 2500);
  });

  it('normalizes names to NFC', () => {
    const e = base();
    e.business.business_name = 'Cafe\u0301';
    assert.equal(signupEntrySchema.parse(e).business.business_name, 'Caf\u00e9');
  });
});

describe('wizard helpers', () => {
  it('needsFulfillment: card and in_person below 80', () => {
    const e = base();
    assert.equal(needsFulfillment(e), true);
    e.business.underwriting.acceptance_methods.in_person = 80;
    assert.equal(needsFulfillment(e), false);
    e.business.underwriting.acceptance_methods.in_person = 10;
    e.business.underwriting.payment_methods = ['ach'];
    assert.equal(needsFulfillment(e), false);
    assert.equal(needsFulfillment({}), false);
  });

  it('needsRule1Fields follows reach and volume ranges', () => {
    assert.equal(needsRule1Fields(base()), true);
    const q = quietCardBusiness();
    assert.equal(needsRule1Fields(q), false);
    q.business.underwriting.collect_funds.ach = activity('500k-1m', true);
    assert.equal(needsRule1Fields(q), true);
  });

  it('statementsRequired: processing when cards are accepted or legacy fields are used, bank otherwise', () => {
    assert.equal(statementsRequired(base()), 'processing');
    assert.equal(statementsRequired(legacyEntry()), 'processing');
    assert.equal(statementsRequired(soleProp()), 'bank');
    const e = base();
    e.business.underwriting.currently_accepts_card = false;
    assert.equal(statementsRequired(e), 'bank');
  });

  it('relevantSections of the sole proprietorship', () => {
    assert.deepEqual(relevantSections(soleProp()), {
      legacy: false,
      currentlyAcceptsCard: false,
      acceptanceMethods: false,
      fulfillment: false,
      collectFunds: { ach: false, card: false },
      rule1: false,
      statements: 'bank',
    });
    assert.deepEqual(relevantSections(base()), {
      legacy: false,
      currentlyAcceptsCard: true,
      acceptanceMethods: true,
      fulfillment: true,
      collectFunds: { ach: true, card: true },
      rule1: true,
      statements: 'processing',
    });
  });

  it('maskSensitive keeps only the last four of ssn, itin and ein', () => {
    const e = base();
    const masked = maskSensitive(e);
    assert.equal(masked.business.ein, '•••••6789');
    assert.equal(masked.business.representatives[0].ssn, '•••••6789');
    assert.equal(masked.business.representatives[1].itin, '•••••1234');
    assert.equal(masked.business.business_name, e.business.business_name);
    assert.equal(e.business.ein, '12-3456789', 'the input is not changed');
    assert.equal(JSON.stringify(masked).includes('123-45'), false);
    assert.equal(maskValue('1234'), '•••••');
  });
});
