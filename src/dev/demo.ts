// Demo data for `payctl init --demo`: one merchant group with a key per permission and
// a little of everything. Each step runs once per database (its name is recorded), so
// running init again neither duplicates nor destroys anything. Later capabilities add
// a step at the end of `steps`.
import { createHmac, randomBytes } from 'node:crypto';
import type { Platform } from '../services/platform.js';
import { PERMISSIONS, type Permission } from '../domain/permissions.js';
import { createGroup, createLinkedAccount, createProcessor } from '../services/groups/groups.js';
import { createCustomer } from '../services/customers/customers.js';
import { catalogDemoStep } from './demo-catalog.js';
import { transactionsDemoStep } from './demo-transactions.js';
import { recurringDemoStep } from './demo-recurring.js';
import { paymentLinksDemoStep } from './demo-payment-links.js';
import { onboardingDemoStep } from './demo-onboarding.js';
import type { DemoState, DemoStep } from './demo-step.js';
import { sha256 } from '../lib/hash.js';
import { newId } from '../lib/ids.js';
import { contextFor } from '../services/context.js';
import { executeRaw, execute } from '../services/use-case.js';

const demoCustomer = (p: Platform, groupId: string) =>
  executeRaw(createCustomer, p, contextFor(p, groupId), {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '5555550100',
    billing_address: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' },
  });

const steps: DemoStep[] = [
  {
    name: 'core',
    async run(p) {
      const group = await execute(createGroup, p, contextFor(p, undefined), { name: 'Demo Merchant', pricing: 'flat' });
      const processor = await execute(createProcessor, p, contextFor(p, group.id), { type: 'transaction_level', name: 'Simulated Processor' });
      const account = await execute(createLinkedAccount, p, contextFor(p, group.id), { processor_id: processor.id, name: 'Demo linked account' });
      const customer = await demoCustomer(p, group.id);
      return { group_id: group.id, processor_id: processor.id, linked_account_id: account.id, customer_id: customer.id };
    },
  },
  catalogDemoStep,
  onboardingDemoStep,
  transactionsDemoStep,
  recurringDemoStep,
  paymentLinksDemoStep,
];

/** The steps that fill one group (a sandbox's demo); the signup form is platform-wide and stays out. */
const groupSteps = steps.filter((s) => s.name !== 'core' && s !== onboardingDemoStep);

/**
 * The demo data inside an existing group (a sandbox), at `p`'s clock (the group's):
 * the demo customer, then every group step. Returns the demo ids (customer_id, …).
 */
export async function seedDemoInGroup(
  p: Platform,
  ids: { group_id: string; processor_id: string; linked_account_id: string },
): Promise<Record<string, unknown>> {
  const customer = await demoCustomer(p, ids.group_id);
  let state: DemoState = { ...ids, customer_id: customer.id, steps: [] };
  for (const step of groupSteps) state = { ...state, ...(await step.run(p, state)) };
  const { steps: _none, group_id: _g, processor_id: _p, linked_account_id: _l, ...demoIds } = state;
  return demoIds;
}

const STATE = 'demo.state';
const SEED = 'demo.seed';

/** Demo keys are derived from a per-database seed so that `init --demo` can print them again; only their hashes are in api_keys. */
function demoKey(seed: string, permission: Permission): string {
  const digest = createHmac('sha256', seed).update(`demo-key:${permission}`).digest('base64url').replace(/[-_]/g, '');
  return `sk_test_${digest.slice(0, 32)}`;
}

export interface DemoOutput {
  group_id: string;
  processor_id: string;
  linked_account_id: string;
  customer_id: string;
  keys: Record<Permission, string>;
  [extra: string]: unknown;
}

export async function seedDemo(p: Platform): Promise<DemoOutput> {
  const saved = await p.db.repos.settings.get(p.db, STATE);
  let state = (saved ? JSON.parse(saved) : { steps: [] }) as DemoState;
  for (const step of steps) {
    if (state.steps.includes(step.name)) continue;
    state = { ...state, ...(await step.run(p, state)), steps: [...state.steps, step.name] };
    const snapshot = JSON.stringify(state);
    await p.db.write((tx) => tx.repos.settings.put(tx, STATE, snapshot));
  }
  const keys = await ensureDemoKeys(p, state.group_id);
  const { steps: _done, ...ids } = state;
  return { ...ids, keys };
}

async function ensureDemoKeys(p: Platform, groupId: string): Promise<Record<Permission, string>> {
  let seed = await p.db.repos.settings.get(p.db, SEED);
  if (!seed) {
    const fresh = randomBytes(32).toString('hex');
    await p.db.write(async (tx) => {
      if (!(await tx.repos.settings.get(tx, SEED))) await tx.repos.settings.put(tx, SEED, fresh);
    });
    seed = (await p.db.repos.settings.get(p.db, SEED))!;
  }
  const keys = {} as Record<Permission, string>;
  for (const permission of PERMISSIONS) {
    const key = demoKey(seed, permission);
    keys[permission] = key;
    const hash = sha256(key);
    await p.db.write(async (tx) => {
      if (await tx.repos.apiKeys.findByHash(tx, hash)) return;
      await tx.repos.apiKeys.insert(tx, {
        id: newId(),
        group_id: groupId,
        key_hash: hash,
        prefix: key.slice(0, 12),
        permissions: [permission],
        name: `demo ${permission}`,
        created_at: p.clock.nowIso(),
        revoked_at: null,
      });
    });
  }
  return keys;
}

/**
 * The demo's key with `permission` when `groupId` is the demo group and the key is still
 * live (`payctl listen` uses it instead of asking for one); undefined otherwise.
 */
export async function storedDemoKey(p: Platform, groupId: string, permission: Permission): Promise<string | undefined> {
  const seed = await p.db.repos.settings.get(p.db, SEED);
  if (!seed) return undefined;
  const key = demoKey(seed, permission);
  const row = await p.db.repos.apiKeys.findByHash(p.db, sha256(key));
  return row && row.group_id === groupId && !row.revoked_at ? key : undefined;
}
