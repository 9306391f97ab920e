// payctl plan / subscription, spawned as the real binary over a temporary demo database:
// flags and --file build the same bodies as the API, --json prints the API objects, the
// linked account defaults to the group's first, errors are one line; clock advance bills.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, runCliJson, type CliResult, assertUsageError, assertUserError } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { planListSchema, planSchema, subscriptionListSchema, subscriptionSchema } from '../../src/domain/recurring.js';

let db: string;
let demo: { group_id: string; linked_account_id: string; customer_id: string; card_id: string; plan_ids: string[]; subscription_ids: string[] };
let g: string;

before(async () => {
  db = tempDbPath();
  demo = await runCliJson(['init', '--demo'], { db });
  g = demo.group_id;
});

const cli = (args: string[], input?: string) => runCli(args, { db, input });
const json = <T = any>(args: string[]) => runCliJson<T>(args, { db }); // eslint-disable-line @typescript-eslint/no-explicit-any


test('init --demo adds plan_ids and subscription_ids; the subscriptions are active on the demo card', async () => {
  assert.equal(demo.plan_ids.length, 3);
  assert.equal(demo.subscription_ids.length, 2);
  for (const id of demo.subscription_ids) {
    const s = await json(['subscription', 'get', id, '--group', g]);
    assert.deepEqual([s.status, s.customer_id, s.payment_method], ['active', demo.customer_id, 'card']);
  }
});

test('plan create (flags) / get / list / update', async () => {
  const plan = await json([
    'plan', 'create', '--group', g, '--name', 'CLI Gold', '--amount', '19.99', '--tax', '1.50', '--billing-cycle', 'monthly',
    '--duration', '12', '--max-retry-count', '2', '--retry-delays', '2,5', '--proration-behavior', 'immediate_action',
  ]);
  assert.deepEqual(planSchema.parse(plan), plan);
  assert.deepEqual(
    [plan.name, plan.amount, plan.tax, plan.billing_cycle, plan.duration, plan.max_retry_count, plan.retry_policy, plan.proration_behavior, plan.linked_account_id],
    ['CLI Gold', 1999, 150, 'monthly', 12, 2, { steps: [{ delay_days: 2 }, { delay_days: 5 }] }, 'immediate_action', demo.linked_account_id],
  );
  assert.deepEqual(await json(['plan', 'get', plan.id, '--group', g, '--linked-account', demo.linked_account_id]), plan);

  const list = await json(['plan', 'list', '--group', g, '--limit', '2']);
  assert.deepEqual(planListSchema.parse(list), list);
  assert.equal(list.data.items[0].id, plan.id);

  const human = await cli(['plan', 'list', '--group', g]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /CLI Gold/);
  assert.match(human.stdout, /\$19\.99/);

  // Update with flags keeps what is not given (and needs a description, which the plan lacks).
  const noDescription = await cli(['plan', 'update', plan.id, '--group', g, '--amount-cents', '2500']);
  assertUserError(noDescription, /description/);
  const updated = await json(['plan', 'update', plan.id, '--group', g, '--amount-cents', '2500', '--description', 'Gold v2']);
  assert.deepEqual([updated.amount, updated.tax, updated.description, updated.duration, updated.retry_policy], [2500, 150, 'Gold v2', 12, plan.retry_policy]);
});

test('plan create from --file and from stdin; validation errors are one line per field, exit 1', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-plan-'));
  const file = path.join(dir, 'plan.json');
  writeFileSync(file, JSON.stringify({ name: 'From file', amount: 700, billing_cycle: 'daily', billing_factor: 3, duration: '0', trial_period_days: 5, trial_amount: 0 }));
  const fromFile = await json(['plan', 'create', '--group', g, '--file', file]);
  assert.deepEqual([fromFile.billing_cycle, fromFile.billing_factor, fromFile.trial_period_days, fromFile.trial_amount], ['daily', 3, 5, 0]);
  const fromStdin = await runCli(['plan', 'create', '--group', g, '--file', '-', '--json'], { db, input: JSON.stringify({ name: 'Stdin', amount: 100, billing_cycle: 'annual', duration: 1 }) });
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.equal(JSON.parse(fromStdin.stdout).name, 'Stdin');

  const bad = await cli(['plan', 'create', '--group', g, '--name', 'Bad', '--amount', '1', '--billing-cycle', 'weekly', '--billing-factor', '2', '--duration', '1', '--max-retry-count', '6']);
  assertUserError(bad, /--billing-factor: must be 1 when --billing-cycle is weekly/);
  assert.match(bad.stderr, /--max-retry-count/);
  const badJson = await cli(['plan', 'create', '--group', g, '--name', 'Bad', '--amount', '1', '--billing-cycle', 'weekly', '--duration', '1', '--max-retry-count', '6', '--json']);
  assert.equal(badJson.code, 1);
  assert.equal(JSON.parse(badJson.stdout).error.fields[0].path, 'max_retry_count');
  assertUsageError(await cli(['plan', 'create', '--group', g, '--name', 'x', '--amount', '1.234', '--billing-cycle', 'monthly', '--duration', '1']), /--amount/);
  assertUsageError(await cli(['plan', 'create', '--group', g, '--name', 'x', '--amount', '1', '--billing-cycle', 'monthly', '--duration', '0', '--retry-delays', '1,x']), /--retry-delays "1,x" must be whole days/);
  assert.equal((await cli(['plan', 'create', '--group', g, '--billing-cycle', 'hourly'])).code, 2, 'a bad option is a usage error');
  assertUserError(await cli(['plan', 'get', '0190c7f2-1234-7abc-8def-0123456789ab', '--group', g]), /plan not found/);
});

test('subscription create / update / list / cancel, and the clock bills it', async () => {
  const plan = await json(['plan', 'create', '--group', g, '--name', 'CLI monthly', '--amount', '10.00', '--billing-cycle', 'monthly', '--duration', '0', '--proration-behavior', 'none']);
  const sub = await json(['subscription', 'create', '--group', g, '--plan', plan.id, '--customer', demo.customer_id, '--card', demo.card_id, '--description', 'From the CLI']);
  assert.deepEqual(subscriptionSchema.parse(sub), sub);
  assert.deepEqual([sub.status, sub.metadata.charge_count, sub.description, sub.amounts.amount], ['active', 1, 'From the CLI', 1000]);

  const updated = await json(['subscription', 'update', sub.id, '--group', g, '--amount', '15.00', '--proration-behavior', 'create_prorations', '--token', 'tok_mastercard']);
  assert.deepEqual([updated.amounts.amount, updated.payment_details.card.brand, updated.proration_result], [1500, 'Mastercard', 'pending']);

  const advanced = await json(['clock', 'advance', '32d']);
  assert.ok(advanced.work['subscription-billing'] >= 1);
  const billed = await json(['subscription', 'get', sub.id, '--group', g]);
  assert.equal(billed.metadata.charge_count, 2);
  assert.equal(billed.proration_result, 'applied');

  const list = await json(['subscription', 'list', '--group', g, '--plan', plan.id]);
  assert.deepEqual(subscriptionListSchema.parse(list), list);
  assert.deepEqual(list.data.items.map((x: { id: string }) => x.id), [sub.id]);

  const canceled = await json(['subscription', 'cancel', sub.id, '--group', g]);
  assert.equal(canceled.status, 'canceled');
  assertUserError(await cli(['subscription', 'cancel', sub.id, '--group', g]), /already canceled/);
  const human = await cli(['subscription', 'list', '--group', g, '--status', 'canceled']);
  assert.equal(human.code, 0);
  assert.match(human.stdout, new RegExp(sub.id));
});

test('subscription create errors and --file', async () => {
  assertUserError(await cli(['subscription', 'create', '--group', g, '--plan', demo.plan_ids[0]!, '--customer', demo.customer_id]), /--card: is required unless --bank-account or --token is given/);
  assertUsageError(await cli(['subscription', 'create', '--group', g, '--customer', demo.customer_id, '--token', 'tok_visa']), /missing required flag: --plan/);
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-sub-'));
  const file = path.join(dir, 'sub.json');
  writeFileSync(file, JSON.stringify({ plan_id: demo.plan_ids[1], customer_id: demo.customer_id, payment_details: { token: 'tok_ach' }, start_date: '2099-01-01' }));
  const s = await json(['subscription', 'create', '--group', g, '--file', file]);
  assert.deepEqual([s.payment_method, s.next_bill_date, s.metadata.charge_count], ['ach', '2099-01-01T00:00:00.000Z', 0]);
  assertUserError(await cli(['subscription', 'get', s.id, '--group', g, '--linked-account', '0190c7f2-1234-7abc-8def-0123456789ab']), /linked account not found/);
});
