// The one list of sensitive data (src/domain/sensitive.ts), rule by rule: what `redact`
// masks or takes out, what `redactText` takes out of free text (log lines, paths), and
// that the fast path (`mayHoldSensitive`: a text kept unparsed) never lets through what
// `redact` would change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCardNumber, jsonDepth, mayHoldSensitive, opensFewer, redact, redactText, REDACTED, TooDeep } from '../../src/domain/sensitive.js';
import { journalEntry } from '../../src/domain/journal.js';
import fc from 'fast-check';

test('redact: tax ids and routing numbers keep their last four; secrets, card numbers, CVVs, account numbers go', () => {
  const cases: Array<[unknown, unknown]> = [
    [{ business: { ein: '12-3456789' } }, { business: { ein: '•••••6789' } }],
    [{ representatives: [{ ssn: '123-45-6789', itin: '912-70-1234' }] }, { representatives: [{ ssn: '•••••6789', itin: '•••••1234' }] }],
    [{ tax_id: '98-7654321' }, { tax_id: '•••••4321' }],
    [{ bank_account: { routing_number: '110000000', account_number: '000123456789' } }, { bank_account: { routing_number: '•••••0000', account_number: REDACTED } }],
    [{ card: { number: '4111111111111111', cvv: '917', expiration_month: 12 } }, { card: { number: REDACTED, cvv: REDACTED, expiration_month: 12 } }],
    [{ card: { number: '1234', expiration_month: 1 } }, { card: { number: REDACTED, expiration_month: 1 } }],
    [{ phone: { number: '2065550199' }, result: { cvv: 'M' } }, { phone: { number: '2065550199' }, result: { cvv: 'M' } }],
    [{ secret: 'anything', webhook_secret: 'whsec_x', keys: { a: 'b' }, session_token: 't', admin_token: 'a' }, { secret: REDACTED, webhook_secret: REDACTED, keys: REDACTED, session_token: REDACTED, admin_token: REDACTED }],
    [{ note: 'sk_test_abc', other: 'padm_x', list: ['whsec_y', '5555555555554444', '4111 1111 1111 1111'] }, { note: REDACTED, other: REDACTED, list: [REDACTED, REDACTED, REDACTED] }],
    [{ description: 'paid with 4111-1111-1111-1111 today' }, { description: `paid with ${REDACTED} today` }],
    [{ id: '01a25109-e3f0-727b-9420-45052bf45d54', amount: 1999, at: '2030-01-15T12:00:00.000Z' }, { id: '01a25109-e3f0-727b-9420-45052bf45d54', amount: 1999, at: '2030-01-15T12:00:00.000Z' }],
  ];
  for (const [input, want] of cases) assert.deepEqual(redact(input), want, JSON.stringify(input));
});

test('redactText: keys, secrets and card numbers in free text; other digits stay', () => {
  assert.equal(redactText('/api/v1/groups/g/transaction/4111111111111111'), `/api/v1/groups/g/transaction/${REDACTED}`);
  assert.equal(redactText('order-sk_live_abc123'), `order-${REDACTED}`);
  assert.equal(redactText('order-2030-01-15 1234567890123'), 'order-2030-01-15 1234567890123', '13 digits failing Luhn stay');
  assert.equal(isCardNumber('4111 1111 1111 1111'), true);
  assert.equal(isCardNumber('4111 1111 1111 1112'), false);
});

test("an id's digit groups are no card number: a UUID whose digits pass the Luhn check by chance is kept whole", () => {
  // 2000134267049 (its digit groups read as one run) passes the Luhn check.
  const id = '01a20001-3426-7049-8abc-def0abcdefab';
  assert.equal(redactText(`/api/v1/groups/g/customers/${id}`), `/api/v1/groups/g/customers/${id}`);
  assert.deepEqual(redact({ partner_id: id }), { partner_id: id });
  // A card number standing alone is still taken out, with or without separators.
  assert.equal(redactText('paid with 4242-4242-4242-4242 today'), `paid with ${REDACTED} today`);
  assert.equal(redactText('card=4242424242424242&x=1'), `card=${REDACTED}&x=1`);
});

test('a card number beside a hyphen and a hex letter is still one: only a run touching a UUID is kept', () => {
  // The rule once skipped any run after or before a hex digit's hyphen, to spare ids.
  assert.equal(redactText('order-a-4111111111111111'), `order-a-${REDACTED}`);
  assert.equal(redactText('order-4111111111111111-b'), `order-${REDACTED}-b`);
  assert.equal(redactText('order-4111111111111111-01a20001-3426-7049-8abc-def0abcdefab'), `order-${REDACTED}-01a20001-3426-7049-8abc-def0abcdefab`);
  assert.deepEqual(redact({ k: 'evt-4111111111111111-c0ffee' }), { k: `evt-${REDACTED}-c0ffee` });
  assert.ok(mayHoldSensitive('{"k":"order-a-4111111111111111"}'));
  // Still inside a word it is no card number, as before.
  assert.equal(redactText('a4111111111111111'), 'a4111111111111111');
});

test('the fast path: a text mayHoldSensitive calls clean is one redact leaves as it is', () => {
  const texts = [
    '{"type":"sale","payment_details":{"token":"tok_visa"},"amounts":{"requested_amount":1999}}',
    '{"id":"01a25109-e3f0-727b-9420-45052bf45d54","payment_details":{"card":{"cvv":"M","avs":"Y","first_six":"411111"}}}',
    '{"business":{"ein":"12-3456789"}}',
    '{"card":{"number":"4111111111111111","cvv":"123","expiration_month":1}}',
    '{"note":"4111 1111 1111 1111"}',
    '{"x":"whsec_abc"}',
    '{"card":{"number":"1234","expiration_month":1}}',
  ];
  for (const t of texts) {
    const changes = JSON.stringify(redact(JSON.parse(t))) !== t;
    if (changes) assert.ok(mayHoldSensitive(t), `${t} needs redact but the fast path would keep it`);
  }
  assert.equal(mayHoldSensitive(texts[0]!), false);
  assert.equal(mayHoldSensitive(texts[1]!), false);
});

test('the fast path takes what the old scans let through: one hyphen, runs of spaces, a numeric CVV, \\u escapes', () => {
  const texts = [
    '{"description":"card 41111111-11111111"}',
    '{"x":"4111  1111  1111  1111"}',
    '{"card":{"number":"4111111111111111","cvv":123}}',
    '{"d":"\\u0034111111111111111"}',
    '{"\\u0063ard_number":"x"}',
    '{"id":"01a27093-8731-7240-8123-124056a85069 4111 1111 1111 1111"}',
  ];
  for (const t of texts) {
    assert.notEqual(JSON.stringify(redact(JSON.parse(t))), t, `${t}: redact changes it`);
    assert.ok(mayHoldSensitive(t), `${t} needs redact but the fast path would keep it`);
  }
});

test("the fast path passes over ids: a UUID's digit groups (three in a row, in ~1 % of ids) are no card number", () => {
  const digits = (n: number) => Array.from({ length: n }, (_, i) => String((i * 7 + 3) % 10)).join('');
  const ids = [
    '01a2527a-b6ae-7093-8731-124056a85069', // groups 3 and 4 and the start of 5: what made every sale of one bench group take the slow path
    `01a2${digits(4)}-${digits(4)}-7${digits(3)}-8${digits(3)}-abcdefabcdef`,
    `${digits(8)}-${digits(4)}-7${digits(3)}-9${digits(3)}-${digits(12)}`,
  ];
  for (const id of ids) {
    const answer = JSON.stringify({ id, processor_id: id, created_at: '2030-01-15T12:00:00.000Z', amounts: { requested_amount: 1999 } });
    assert.equal(JSON.stringify(redact(JSON.parse(answer))), answer, `${id}: redact keeps it`);
    assert.equal(mayHoldSensitive(answer), false, `${id}: the fast path keeps it unparsed`);
  }
});

test('the fast path, property: a text of digits, separators, ids and words it keeps unparsed is one redact leaves as it is', () => {
  const piece = fc.oneof(
    fc.constantFrom(' ', '-', '  ', '4111', '1111', '4242424242424242', '5555 5555 5555 4444', 'x', '\\n', '\\u0034', 'a-', '-b', 'order-', '2030-01-15T12:00:00.000Z'),
    fc.uuid(),
    fc.stringMatching(/^[0-9 -]{1,20}$/),
  );
  const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (values) => {
      const json = JSON.stringify({ values }).replace('"values"', '"v"');
      // A JSON text with \\n and \\u0034 written raw in it (as a client may send them).
      const raw = json.replaceAll('\\\\', '\\');
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return;
      }
      if (!mayHoldSensitive(raw)) assert.deepEqual(redact(parsed), parsed, raw);
    }),
    { numRuns: 3000 },
  );
});

test('depth: counted cheaply, scanned when it may be deep; redact refuses past 64 levels', () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  assert.equal(opensFewer('{"a":[1,{"b":2}]}'), true);
  assert.equal(opensFewer(deep), false);
  assert.equal(jsonDepth('{"a":"[[[[[[","b":[[1]]}'), 3, 'brackets inside strings do not count');
  assert.ok(jsonDepth(deep) > 64);
  let v: unknown = 1;
  for (let i = 0; i < 100; i++) v = [v];
  assert.throws(() => redact(v), TooDeep);
});

test('a journal entry: a deep body is refused with a note, a large one not kept, the answer as sent', () => {
  const base = { group_id: 'g', request_id: 'r', at: '2030-01-01T00:00:00.000Z', method: 'POST', path: '/p', route: '/p', status: 400, duration_ms: 1, idempotency_key: null, fault: null, recordable: true, headers: {}, dropBody: false };
  const deep = journalEntry({ ...base, raw: `${'['.repeat(100)}${']'.repeat(100)}`, answer: { error: 'x' } });
  assert.equal(deep.body, null);
  assert.match(deep.note!, /request body refused: nested deeper than 64 levels/);
  const large = journalEntry({ ...base, raw: JSON.stringify({ a: 'x'.repeat(300 * 1024) }), answer: null });
  assert.equal(large.body, null);
  assert.match(large.note!, /not kept \(over the journal's 256 KiB a body\)/);
  const sent = journalEntry({ ...base, raw: '{"a": 1}', answer: { ok: true }, answerText: '{"ok":true}' });
  assert.equal(sent.body, '{"a": 1}', 'a clean body is kept as it came');
  assert.equal(sent.answer, '{"ok":true}');
  const tokenize = journalEntry({ ...base, raw: '{"card":{"number":"4111111111111111"}}', dropBody: true, answer: null });
  assert.equal(tokenize.body, null);
});
