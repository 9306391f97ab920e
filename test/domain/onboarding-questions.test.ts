// The wizard's question model, by tables: paths, which questions a draft gets, which
// answers a changed draft drops, how typed text becomes a value, where problems go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getPath, isUnder, setPath, unsetPath, type Draft } from '../../src/domain/onboarding/draft.js';
import { NO_FORMS_HINT, questionsFor, stepOfPath, type Question } from '../../src/domain/onboarding/questions.js';
import { pruneIrrelevant } from '../../src/domain/onboarding/relevance.js';
import { formatValue, matchOption, parseAnswer } from '../../src/domain/onboarding/answers.js';
import { messageFor, problemsAfterAnswer, questionForProblem } from '../../src/domain/onboarding/problems.js';

const ids = (d: Draft, ask = {}) => questionsFor(d, ask).map((q) => q.id);
const q = (over: Partial<Question>): Question => ({ id: 'x', step: 'business', path: ['x'], label: 'X', kind: 'text', ...over });

describe('draft paths', () => {
  const cases: { name: string; draft: Draft; run: (d: Draft) => unknown; want: unknown }[] = [
    { name: 'get a nested field', draft: { a: { b: [{ c: 1 }] } }, run: (d) => getPath(d, ['a', 'b', 0, 'c']), want: 1 },
    { name: 'get through a missing parent', draft: {}, run: (d) => getPath(d, ['a', 'b', 0]), want: undefined },
    { name: 'set creates objects and arrays on the way', draft: {}, run: (d) => setPath(d, ['a', 'list', 0, 'x'], 'v'), want: { a: { list: [{ x: 'v' }] } } },
    { name: 'set replaces a scalar parent', draft: { a: 5 }, run: (d) => setPath(d, ['a', 'b'], 1), want: { a: { b: 1 } } },
    { name: 'unset removes a field', draft: { a: { b: 1, c: 2 } }, run: (d) => unsetPath(d, ['a', 'b']), want: { a: { c: 2 } } },
    { name: 'unset splices an array element', draft: { r: [{ n: 1 }, { n: 2 }] }, run: (d) => unsetPath(d, ['r', 0]), want: { r: [{ n: 2 }] } },
    { name: 'unset of nothing is the same draft', draft: { a: 1 }, run: (d) => unsetPath(d, ['b']), want: { a: 1 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.draft);
      assert.deepEqual(c.run(c.draft), c.want);
      assert.deepEqual(c.draft, before, 'the draft itself is not changed');
    });
  }

  it('isUnder compares whole path segments', () => {
    for (const [path, prefix, want] of [
      ['a.b', 'a', true],
      ['a', 'a', true],
      ['ab', 'a', false],
      ['a', 'a.b', false],
    ] as const) {
      assert.equal(isUnder(path, prefix), want, `${path} under ${prefix}`);
    }
  });
});

describe('questionsFor', () => {
  const U = 'business.underwriting';
  const cases: { name: string; draft: Draft; asked: string[]; notAsked: string[] }[] = [
    { name: 'a corporation gives an EIN, no SSN', draft: { business: { business_type: 'llc' } }, asked: ['business.ein'], notAsked: ['business.ssn'] },
    {
      name: 'a sole proprietor with an SSN gives no EIN',
      draft: { business: { business_type: 'soleProprietorship', ssn: '123-45-6789' } },
      asked: ['business.ssn'],
      notAsked: ['business.ein'],
    },
    {
      name: 'a representative with an SSN gives no ITIN',
      draft: { business: { representatives: [{ ssn: '123-45-6789' }, {}] } },
      asked: ['business.representatives.1.itin', 'business.representatives.1.first_name'],
      notAsked: ['business.representatives.0.itin', 'business.representatives.2.first_name'],
    },
    {
      name: 'card: acceptance methods and card activity; no ACH collection',
      draft: { business: { underwriting: { payment_methods: ['card'] } } },
      asked: [`${U}.acceptance_methods.in_person`, `${U}.collect_funds.card.expected_transaction_activity.monthly_volume_range`],
      notAsked: [`${U}.collect_funds.ach.expected_transaction_activity.monthly_volume_range`],
    },
    {
      name: 'card mostly in person: no fulfillment',
      draft: { business: { underwriting: { payment_methods: ['card'], acceptance_methods: { in_person: 85, online: 10, mail_or_phone: 5 } } } },
      asked: [],
      notAsked: [`${U}.fulfillment_method`],
    },
    {
      name: 'card mostly online: fulfillment',
      draft: { business: { underwriting: { payment_methods: ['card'], acceptance_methods: { in_person: 10, online: 85, mail_or_phone: 5 } } } },
      asked: [`${U}.fulfillment_method`, `${U}.refund_policy`],
      notAsked: [],
    },
    {
      name: 'no payment methods: bank statements, no acceptance questions',
      draft: { business: { underwriting: { payment_methods: [] } } },
      asked: ['business.bank_statements.first_month_file_id'],
      notAsked: [`${U}.currently_accepts_card`, `${U}.acceptance_methods.in_person`, 'business.processing_statements.first_month_file_id'],
    },
    {
      name: 'under-10k volume: no amounts',
      draft: { business: { underwriting: { send_funds: { ach: { expected_transaction_activity: { monthly_volume_range: 'under-10k' } } } } } },
      asked: [`${U}.send_funds.ach.expected_transaction_activity.monthly_volume_range`],
      notAsked: [`${U}.send_funds.ach.expected_transaction_activity.average_transaction_amount`],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = ids(c.draft);
      for (const a of c.asked) assert.ok(got.includes(a), `${a} is asked`);
      for (const n of c.notAsked) assert.equal(got.includes(n), false, `${n} is not asked`);
    });
  }

  it('every question id is its path, and ids are unique', () => {
    const qs = questionsFor({ business: { representatives: [{}, {}] } });
    for (const x of qs) if (x.kind !== 'more') assert.equal(x.id, x.path.join('.'));
    assert.equal(new Set(qs.map((x) => x.id)).size, qs.length);
  });

  const formCases: { name: string; forms: { id: string; name: string }[] | undefined; want: Partial<Question> }[] = [
    { name: 'forms unknown: the id is typed', forms: undefined, want: { kind: 'text', closed: undefined, options: undefined } },
    { name: 'no forms: an empty closed list with the hint', forms: [], want: { kind: 'select', closed: true, options: [], emptyHint: NO_FORMS_HINT } },
    {
      name: 'one form: offered alone, said to be the only one',
      forms: [{ id: 'f1', name: 'Main' }],
      want: { kind: 'select', closed: true, options: ['f1'], optionLabels: ['Main (f1)'], label: 'Signup form (the only one in this database: Enter takes it)' },
    },
    {
      name: 'two forms: both, by name and id',
      forms: [{ id: 'f1', name: 'Main' }, { id: 'f2', name: 'Partners' }],
      want: { kind: 'select', options: ['f1', 'f2'], optionLabels: ['Main (f1)', 'Partners (f2)'], label: 'Signup form' },
    },
  ];
  for (const c of formCases) {
    it(`the signup form question — ${c.name}`, () => {
      const first = questionsFor({}, c.forms ? { signupForms: c.forms } : {})[0]!;
      assert.equal(first.id, 'signup_form_id');
      for (const [k, v] of Object.entries(c.want)) assert.deepEqual(first[k as keyof Question], v, k);
    });
  }

  it('stepOfPath', () => {
    for (const [path, step] of [
      ['signup_form_id', 'business'],
      ['business.ein', 'business'],
      ['business.representatives', 'representatives'],
      ['business.representatives.1.itin', 'representatives'],
      ['business.underwriting.geographich_reach', 'underwriting'],
      ['business.max_transaction_size', 'underwriting'],
      ['business.bank_statements.first_month_file_id', 'statements'],
    ] as const) {
      assert.equal(stepOfPath(path), step, path);
    }
  });
});

describe('pruneIrrelevant', () => {
  const U = ['business', 'underwriting'];
  const cases: { name: string; draft: Draft; dropped: (string | number)[][]; kept: (string | number)[][] }[] = [
    { name: 'an SSN once the type is not sole proprietorship', draft: { business: { business_type: 'llc', ssn: '1' } }, dropped: [['business', 'ssn']], kept: [] },
    { name: 'an SSN while the type is unknown is kept', draft: { business: { ssn: '1' } }, dropped: [], kept: [['business', 'ssn']] },
    {
      name: 'card questions once no method is accepted',
      draft: { business: { underwriting: { payment_methods: [], currently_accepts_card: true, acceptance_methods: { in_person: 1 }, collect_funds: { card: {} } } } },
      dropped: [[...U, 'currently_accepts_card'], [...U, 'acceptance_methods'], [...U, 'collect_funds']],
      kept: [[...U, 'payment_methods']],
    },
    {
      name: 'amounts once the range is under-10k',
      draft: { business: { underwriting: { send_funds: { ach: { expected_transaction_activity: { monthly_volume_range: 'under-10k', average_transaction_amount: 100 } } } } } },
      dropped: [[...U, 'send_funds', 'ach', 'expected_transaction_activity', 'average_transaction_amount']],
      kept: [[...U, 'send_funds', 'ach', 'expected_transaction_activity', 'monthly_volume_range']],
    },
    {
      name: 'legacy volume fields once underwriting is answered',
      draft: { business: { max_transaction_size: 5, underwriting: {} } },
      dropped: [['business', 'max_transaction_size']],
      kept: [],
    },
    { name: 'a half-filled draft keeps everything', draft: { business: { underwriting: { currently_accepts_card: true } } }, dropped: [], kept: [[...U, 'currently_accepts_card']] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = pruneIrrelevant(c.draft);
      for (const p of c.dropped) assert.equal(getPath(out, p), undefined, `${p.join('.')} dropped`);
      for (const p of c.kept) assert.notEqual(getPath(out, p), undefined, `${p.join('.')} kept`);
    });
  }
});

describe('parseAnswer', () => {
  const forms = q({ kind: 'select', closed: true, options: ['f1', 'f2'], optionLabels: ['Main (f1)', 'Partners (f2)'] });
  const cases: { name: string; q: Question; typed: string; highlighted?: string; want: unknown }[] = [
    { name: 'text is trimmed', q: q({}), typed: '  Acme ', want: { kind: 'value', value: 'Acme' } },
    { name: 'empty text unsets', q: q({}), typed: ' ', want: { kind: 'unset' } },
    { name: 'empty text takes the default', q: q({ defaultValue: '1' }), typed: '', want: { kind: 'value', value: '1' } },
    { name: 'int', q: q({ kind: 'int' }), typed: '42', want: { kind: 'value', value: 42 } },
    { name: 'a non-number int is left for the schema to refuse', q: q({ kind: 'int' }), typed: '4x', want: { kind: 'value', value: '4x' } },
    { name: 'money in cents, $ and commas allowed', q: q({ kind: 'money' }), typed: '$1,018.50', want: { kind: 'value', value: 101850 } },
    { name: 'money that is not an amount', q: q({ kind: 'money' }), typed: 'lots', want: { kind: 'error', message: 'write an amount of money, e.g. 18.50' } },
    { name: 'list', q: q({ kind: 'list' }), typed: 'card, ach', want: { kind: 'value', value: ['card', 'ach'] } },
    { name: 'list none', q: q({ kind: 'list' }), typed: 'None', want: { kind: 'value', value: [] } },
    { name: 'bool yes', q: q({ kind: 'bool', options: ['yes', 'no'] }), typed: 'y', want: { kind: 'value', value: true } },
    { name: 'bool from the highlight', q: q({ kind: 'bool', options: ['yes', 'no'] }), typed: '', highlighted: 'no', want: { kind: 'value', value: false } },
    { name: 'select by unique prefix', q: q({ kind: 'select', options: ['llc', 'trust'] }), typed: 'tr', want: { kind: 'value', value: 'trust' } },
    { name: 'an open select passes an unknown value to the schema', q: q({ kind: 'select', options: ['llc'] }), typed: 'zzz', want: { kind: 'value', value: 'zzz' } },
    { name: 'a form by its id', q: forms, typed: 'f2', want: { kind: 'value', value: 'f2' } },
    { name: 'a form by its name', q: forms, typed: 'part', want: { kind: 'value', value: 'f2' } },
    { name: 'the highlighted form', q: forms, typed: '', highlighted: 'f1', want: { kind: 'value', value: 'f1' } },
    { name: 'a form not in the list', q: forms, typed: 'f9', want: { kind: 'error', message: 'choose one of the listed options (↑/↓, Enter)' } },
    {
      name: 'no forms at all',
      q: q({ kind: 'select', closed: true, options: [], emptyHint: NO_FORMS_HINT }),
      typed: '',
      want: { kind: 'error', message: NO_FORMS_HINT },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(parseAnswer(c.q, c.typed, c.highlighted), c.want));

  it('matchOption: exact first, then a unique prefix of a value or label', () => {
    for (const [options, typed, labels, want] of [
      [['a', 'ab'], 'a', [], 'a'],
      [['ab', 'ac'], 'a', [], undefined],
      [['ab', 'ac'], 'AC', [], 'ac'],
      [['f1', 'f2'], 'web', ['Website (f1)', 'Partners (f2)'], 'f1'],
    ] as const) {
      assert.equal(matchOption(options, typed, labels), want, `${typed} in ${options.join(',')}`);
    }
  });

  it('formatValue shows a stored value as it is typed', () => {
    for (const [question, value, want] of [
      [q({ kind: 'money' }), 1850, '18.50'],
      [q({ kind: 'bool' }), false, 'no'],
      [q({ kind: 'list' }), [], 'none'],
      [q({ kind: 'list' }), ['card', 'ach'], 'card,ach'],
      [q({}), undefined, ''],
      [q({ kind: 'int' }), 7, '7'],
    ] as const) {
      assert.equal(formatValue(question, value), want);
    }
  });
});

describe('problems placed on questions', () => {
  const qs = questionsFor({ business: { underwriting: { payment_methods: ['card'] } } });
  const byId = (id: string) => qs.find((x) => x.id === id)!;
  const A = 'business.underwriting.acceptance_methods';
  const cases: { name: string; path: string; question: string; message: string }[] = [
    { name: 'a field’s own problem', path: 'business.ein', question: 'business.ein', message: 'is required' },
    { name: 'a group’s problem goes to its first field', path: A, question: `${A}.in_person`, message: 'acceptance_methods: is required' },
    { name: 'a problem inside a question goes to it', path: 'business.phone.number.x', question: 'business.phone.number', message: 'x: is required' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = { path: c.path, message: 'is required' };
      const got = questionForProblem(p, qs);
      assert.equal(got?.id, c.question);
      assert.equal(messageFor(p, got!), c.message);
    });
  }

  it('a group’s problem shows once its last field is answered', () => {
    const sum = { path: A, message: 'must sum to 100' };
    assert.deepEqual(problemsAfterAnswer([sum], byId(`${A}.online`), qs), []);
    assert.deepEqual(problemsAfterAnswer([sum], byId(`${A}.mail_or_phone`), qs), [sum]);
    assert.deepEqual(problemsAfterAnswer([{ path: 'business.ein', message: 'x' }], byId(`${A}.mail_or_phone`), qs), []);
  });
});
