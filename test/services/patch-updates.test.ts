// The CLI's update commands edit the current object inside the update's own unit of
// work: two edits of different fields at once both survive (read, merge and write are
// one transaction each), where reading first and writing a full body later loses one.
import '../helpers/env.js';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { contextFor } from '../../src/services/context.js';
import { createProduct, editProduct, getProduct } from '../../src/services/catalog/products.js';
import { execute } from '../../src/services/use-case.js';
import { createPlan, editPlan, getPlan } from '../../src/services/recurring/plans.js';
import { planToUpdateBody } from '../../src/domain/recurring.js';
import type { Product } from '../../src/domain/catalog.js';

const { p, demo } = await demoPlatform();
after(() => p.close());
const ctx = contextFor(p, demo.group_id);

const productBody = (x: Product) => ({
  name: x.name,
  description: x.description,
  amount: x.amount,
  included_tax_amount: x.included_tax_amount,
  unit_of_measure: x.unit_of_measure,
});

test('two concurrent product edits of different fields both survive', async () => {
  const product = await execute(createProduct, p, ctx, { name: 'Widget', description: 'first', amount: 1000, unit_of_measure: 'pc' });
  await Promise.all([
    execute(editProduct, p, ctx, { product_id: product.id, edit: (current: Product) => ({ ...productBody(current), name: 'Gadget' }) }),
    execute(editProduct, p, ctx, { product_id: product.id, edit: (current: Product) => ({ ...productBody(current), amount: 2500 }) }),
  ]);
  const now = await execute(getProduct, p, ctx, { product_id: product.id });
  assert.equal(now.name, 'Gadget');
  assert.equal(now.amount, 2500);
});

test('an edit that yields an invalid body is refused by the same rules as the API, and changes nothing', async () => {
  const product = await execute(createProduct, p, ctx, { name: 'Bolt', description: 'M6', amount: 100, unit_of_measure: 'pc' });
  await assert.rejects(execute(editProduct, p, ctx, { product_id: product.id, edit: (current: Product) => ({ ...productBody(current), amount: -1 }) }), /amount/);
  assert.equal((await execute(getProduct, p, ctx, { product_id: product.id })).amount, 100);
});

test('two concurrent plan edits of different fields both survive', async () => {
  const plan = await execute(createPlan, p, ctx, { linked_account_id: demo.linked_account_id, name: 'Monthly', description: 'basic', amount: 1500, billing_cycle: 'monthly', duration: 0 });
  await Promise.all([
    execute(editPlan, p, ctx, { linked_account_id: demo.linked_account_id, plan_id: plan.id, edit: (current: typeof plan) => ({ ...planToUpdateBody(current), name: 'Monthly plus' }) }),
    execute(editPlan, p, ctx, { linked_account_id: demo.linked_account_id, plan_id: plan.id, edit: (current: typeof plan) => ({ ...planToUpdateBody(current), description: 'now with more' }) }),
  ]);
  const now = await execute(getPlan, p, ctx, { linked_account_id: demo.linked_account_id, plan_id: plan.id });
  assert.equal(now.name, 'Monthly plus');
  assert.equal(now.description, 'now with more');
});
