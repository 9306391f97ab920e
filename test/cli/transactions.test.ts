// payctl sale / auth / capture / void / refund / transaction get / card add / outbox,
// spawned as the real binary over a temporary demo database.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, runCliJson, type CliResult, assertUsageError, assertUserError as assertSharedUserError } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { transactionSchema } from '../../src/domain/transactions.js';

let db: string;
let demo: { group_id: string; processor_id: string; customer_id: string; card_id: string; transaction_ids: string[] };
let g: string;

const billingFlags = [
  '--first-name', 'Ada', '--last-name', 'Lovelace', '--line1', '1 Main St', '--city', 'Springfield',
  '--state', 'IL', '--zip', '62701', '--country', 'US', '--email', 'ada@example.com',
];

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  g = demo.group_id;
});

const cli = (args: string[], input?: string) => runCli(args, { db, input });
/** Human output of a command that must succeed. */
async function human(args: string[]): Promise<string> {
  const r = await cli(args);
  assert.equal(r.code, 0, `payctl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any

/** A user error: exit 1, a short message on stderr, no stack trace. */
function assertUserError(r: CliResult, pattern: RegExp) {
  assertSharedUserError(r, pattern);
  assert.ok(r.stderr.trim().split('\n').length <= 3, r.stderr);
}

test('sale --json prints the API Transaction; flags build the same body as the API', async () => {
  const t = await json(['sale', '--group', g, '--amount', '12.34', '--token', 'tok_visa', ...billingFlags, '--description', 'Espresso', '--order-id', 'O-7', '--custom-field', 'table=12', '--descriptor', 'PAYCTL*CAFE']);
  assert.ok(transactionSchema.safeParse(t).success);
  assert.equal(t.status, 'pending');
  assert.equal(t.amounts.requested_amount, 1234);
  assert.equal(t.processor_id, demo.processor_id, "the group's first processor by default");
  assert.equal(t.source, 'virtual_terminal');
  assert.equal(t.payment_details.card.brand, 'Visa');
  assert.equal(t.payment_details.card.last_four, '1111');
  assert.equal(t.payment_details.card.dynamic_descriptor, 'PAYCTL*CAFE');
  assert.deepEqual(t.custom_fields, { table: '12' });
  assert.deepEqual([t.description, t.order_id], ['Espresso', 'O-7']);
  assert.equal(t.billing_address.postal_code, '62701');
  const again = await json(['transaction', 'get', t.id, '--group', g]);
  assert.deepEqual(again, t);
});

test('human receipts: status, money, brand and last four, response text', async () => {
  const ok = await human(['sale', '--group', g, '--amount-cents', '2599', '--token', 'tok_mastercard', ...billingFlags]);
  assert.match(ok, /status\s+pending/);
  assert.match(ok, /\$25\.99/);
  assert.match(ok, /Mastercard …4444/);
  assert.match(ok, /00 Approved/);
  // A decline is an outcome, not an error: exit 0.
  const declined = await human(['sale', '--group', g, '--amount', '5', '--token', 'tok_visa_declined', ...billingFlags]);
  assert.match(declined, /status\s+declined/);
  assert.match(declined, /05 Declined: do not honor/);
  assert.match(await human(['sale', '--group', g, '--amount', '5', '--token', 'tok_ach', ...billingFlags]), /ACH checking …6789/);
});

test('sale from the stored demo card: --customer and --card, no billing flags', async () => {
  const t = await json(['sale', '--group', g, '--amount', '3', '--customer', demo.customer_id, '--card', demo.card_id, '--email', 'ada@example.com']);
  assert.equal(t.status, 'pending');
  assert.equal(t.customer_id, demo.customer_id);
  assert.equal(t.payment_details.card.last_four, '1111');
});

test('auth, partial capture (variant A from the stored auth), full capture (variant B)', async () => {
  const auth = await json(['auth', '--group', g, '--amount', '50.00', '--token', 'tok_visa', ...billingFlags]);
  assert.equal(auth.status, 'authorized');
  const partial = await json(['capture', auth.id, '--group', g, '--amount', '20.00']);
  assert.equal(partial.status, 'partially_captured');
  assert.equal(partial.amounts.captured_amount, 2000);
  assert.equal(partial.amounts.authorized_amount, 5000);

  const auth2 = await json(['auth', '--group', g, '--amount-cents', '4200', '--customer', demo.customer_id, '--card', demo.card_id, '--email', 'ada@example.com']);
  const full = await human(['capture', auth2.id, '--group', g]);
  assert.match(full, /status\s+captured/);
  assert.match(full, /captured\s+\$42\.00/);

  const auth3 = await json(['auth', '--group', g, '--amount', '10', '--token', 'tok_visa', ...billingFlags]);
  assertUserError(await cli(['capture', auth3.id, '--group', g, '--amount', '10.01']), /must not exceed the authorized amount/);
  const equal = await json(['capture', auth3.id, '--group', g, '--amount-cents', '1000']);
  assert.equal(equal.status, 'captured');
  assertUserError(await cli(['capture', auth3.id, '--group', g]), /only an authorized transaction can be captured/);
});

test('capture --file sends either variant as given', async () => {
  const auth = await json(['auth', '--group', g, '--amount', '8', '--token', 'tok_visa', ...billingFlags]);
  const file = path.join(dataDirOf(db), 'capture.json');
  writeFileSync(file, JSON.stringify({ amount: 799 }));
  assertUserError(await cli(['capture', auth.id, '--group', g, '--file', file]), /amount: must equal the authorized amount \(800\)/);
  writeFileSync(file, JSON.stringify({ amount: 800 }));
  assert.equal((await json(['capture', auth.id, '--group', g, '--file', file])).status, 'captured');
});

test('void, then settle with the clock and refund part and the rest', async () => {
  const pending = await json(['sale', '--group', g, '--amount', '10', '--token', 'tok_visa', ...billingFlags]);
  assert.match(await human(['void', pending.id, '--group', g]), /status\s+voided/);
  assertUserError(await cli(['void', pending.id, '--group', g]), /only a pending or authorized transaction can be voided/);

  const toRefund = await json(['sale', '--group', g, '--amount', '10', '--token', 'tok_visa', ...billingFlags]);
  assertUserError(await cli(['refund', toRefund.id, '--group', g]), /only a settled transaction can be refunded/);
  await json(['clock', 'advance', '1d']);
  const settled = await json(['transaction', 'get', toRefund.id, '--group', g]);
  assert.equal(settled.status, 'settled');
  assert.equal(settled.settlement_batch_ids.length, 1);
  const part = await json(['refund', toRefund.id, '--group', g, '--amount', '2.50']);
  assert.equal(part.status, 'partially_refunded');
  assert.equal(part.amounts.refunded_amount, 250);
  assertUserError(await cli(['refund', toRefund.id, '--group', g, '--amount', '7.51']), /exceeds the 750 left to refund/);
  const rest = await human(['refund', toRefund.id, '--group', g]);
  assert.match(rest, /status\s+refunded/);
  assert.match(rest, /refunded\s+\$10\.00/);
  // The demo's pending sale and captured auth settled with it.
  const [demoSale, , , demoCaptured] = demo.transaction_ids;
  assert.equal((await json(['transaction', 'get', demoSale!, '--group', g])).status, 'settled');
  assert.equal((await json(['transaction', 'get', demoCaptured!, '--group', g])).status, 'settled');
});

test('card add stores a card on the customer from a token', async () => {
  const card = await json(['card', 'add', '--group', g, '--customer', demo.customer_id, '--token', 'tok_mastercard', '--line1', '1 Main St', '--city', 'Springfield', '--state', 'IL', '--zip', '62701', '--country', 'US']);
  assert.equal(card.last_four, '4444');
  assert.match(card.expiration, /^12\/\d{2}$/);
  assert.equal(card.card_on_file, true);
  assert.equal(card.billing_address.city, 'Springfield');
  const customer = await json(['customer', 'get', demo.customer_id, '--group', g]);
  assert.ok(customer.cards.some((c: { card_id: string }) => c.card_id === card.card_id), JSON.stringify(customer.cards));
  const amex = await human(['card', 'add', '--group', g, '--customer', demo.customer_id, '--token', 'tok_amex', '--line1', '1 Main St', '--city', 'Springfield', '--state', 'IL', '--zip', '62701', '--country', 'US']);
  assert.match(amex, /card\s+American Express …0005/);
  assertUserError(
    await cli(['card', 'add', '--group', g, '--customer', demo.customer_id, '--token', 'tok_ach', '--line1', '1 Main St', '--city', 'Springfield', '--state', 'IL', '--zip', '62701', '--country', 'US']),
    /token: must be a card token/,
  );
  assertUserError(await cli(['card', 'add', '--group', g, '--customer', '01900000-0000-7000-8000-000000000000', '--token', 'tok_visa', '--line1', 'x', '--city', 'y', '--state', 'IL', '--zip', '62701', '--country', 'US']), /customer not found/);
});

test('email receipts land in the outbox: outbox list and outbox show', async () => {
  const t = await json(['sale', '--group', g, '--amount', '4.20', '--token', 'tok_visa', ...billingFlags, '--email-receipt']);
  const rows = await json<Array<{ id: string; related_id: string; kind: string }>>(['outbox', 'list', '--kind', 'receipt']);
  const row = rows.find((r) => r.related_id === t.id);
  assert.ok(row, 'a receipt for the sale');
  assert.match(await human(['outbox', 'list']), new RegExp(row.id));
  const shown = await human(['outbox', 'show', row.id]);
  assert.match(shown, /to\s+ada@example\.com/);
  assert.match(shown, /\$4\.20/);
  assert.match(shown, /Paid with: Visa …1111/);
  assert.doesNotMatch(shown, /4111111111111111/);
  assert.equal((await json(['outbox', 'show', row.id])).body.includes(t.id), true);
  assertUserError(await cli(['outbox', 'show', 'nope']), /e-mail not found/);
});

test('--file takes the full body (a path or - for stdin), validated by the same schema', async () => {
  const body = {
    type: 'sale', source: 'api', processor_id: demo.processor_id, currency: 'USD', email_address: 'ada@example.com', email_receipt: false,
    amounts: { requested_amount: 777 }, payment_details: { token: 'tok_discover' },
    billing_address: { first_name: 'Ada', last_name: 'Lovelace', line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US', email: 'ada@example.com' },
  };
  const file = path.join(dataDirOf(db), 'sale.json');
  writeFileSync(file, JSON.stringify(body));
  const t = await json(['sale', '--group', g, '--file', file]);
  assert.deepEqual([t.status, t.source, t.payment_details.card.brand, t.amounts.requested_amount], ['pending', 'api', 'Discover', 777]);

  const { type: _t, ...untyped } = body;
  const fromStdin = await runCli(['auth', '--group', g, '--file', '-', '--json'], { db, input: JSON.stringify(untyped) });
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.equal(JSON.parse(fromStdin.stdout).status, 'authorized', 'type comes from the command when the file has none');

  assertUsageError(await cli(['auth', '--group', g, '--file', file]), /use `payctl sale`/);
  assertUsageError(await cli(['sale', '--group', g, '--file', path.join(dataDirOf(db), 'no-such.json')]), /cannot read --file/);
  writeFileSync(file, JSON.stringify({ ...body, status: 'settled' }));
  assertUserError(await cli(['sale', '--group', g, '--file', file]), /status: is not a field of this request/);
  writeFileSync(file, '{"type":');
  assertUserError(await cli(['sale', '--group', g, '--file', file]), /is not[\s›]+valid[\s›]+JSON/);
});

test('flag values that are not money or cents: exit 2 naming the flag; --json prints one usage_error object', async () => {
  assertUsageError(await cli(['sale', '--group', g, '--amount', '1.234', '--token', 'tok_visa', ...billingFlags]), /--amount[^]*"1\.234" is not an amount of money/);
  assertUsageError(await cli(['sale', '--group', g, '--amount-cents', '12.5', '--token', 'tok_visa', ...billingFlags]), /--amount-cents[^]*"12\.5" is not a whole number of cents/);
  assertUsageError(await cli(['sale', '--group', g, '--tax', 'x', '--amount', '1', '--token', 'tok_visa', ...billingFlags]), /--tax[^]*"x" is not an amount of money/);
  assertUsageError(await cli(['sale', '--group', g, '--custom-field', 'novalue', '--amount', '1', '--token', 'tok_visa', ...billingFlags]), /--custom-field: "novalue" must be key=value/);
  const r = await cli(['sale', '--group', g, '--amount', '1.234', '--token', 'tok_visa', ...billingFlags, '--json']);
  assert.equal(r.code, 2);
  assert.deepEqual(JSON.parse(r.stdout), { error: { type: 'usage_error', message: 'Parsing --amount "1.234" is not an amount of money (write 12.34)' } });
});

test('bad input: exit 1 with a one-line error, no stack trace; --json prints the error object', async () => {
  const countryFlags = billingFlags.map((f) => (f === 'US' ? 'DE' : f));
  assertUserError(await cli(['sale', '--group', g, '--amount', '1', '--token', 'tok_visa', ...countryFlags]), /--country: sales are available for US, CA and UK only/);
  assertUserError(await cli(['sale', '--group', g, '--amount', '1', '--token', 'tok_visa', '--email', 'ada@example.com']), /billing_address \(--first-name, [^)]*\): is required when paying[^]*a token/);
  assertUserError(await cli(['transaction', 'get', '01900000-0000-7000-8000-000000000000', '--group', g]), /transaction not found/);
  const r = await cli(['sale', '--group', g, '--amount', '1', '--token', 'tok_visa', ...billingFlags.map((f) => (f === '62701' ? '627011' : f)), '--json']);
  assert.equal(r.code, 1);
  const err = JSON.parse(r.stdout);
  assert.equal(err.status, 400);
  assert.equal(err.error.type, 'validation_error');
  assert.deepEqual(err.error.fields, [{ path: 'billing_address.postal_code', message: 'must be exactly 5 characters for US' }]);
});
