// `payctl trigger TYPE`: make an event of TYPE happen for real. Each recipe drives the
// real API (the HTTP routes, served in-process over the same database with a key that
// lives only for the run) and, where the clock makes the change (settlement, expiry,
// billing, past due), moves the group's clock as `payctl clock advance --group` does.
// The events it caused are read back from the log: whatever a running `payctl serve`
// streams to `payctl listen` and delivers to webhook endpoints.
import { startServer } from '../http/app.js';
import { answerBudget } from '../http/route.js';
import { ENV } from '../config/env.js';
import { platformClock, type Platform } from '../services/platform.js';
import { contextFor } from '../services/context.js';
import { createKey, revokeKey } from '../services/groups/keys.js';
import { moveGroupClock } from '../services/sandboxes/sandboxes.js';
import { toEvent } from '../services/events/events.js';
import { EVENT_TYPES, type Event, type EventType } from '../domain/events.js';
import { PERMISSIONS } from '../domain/permissions.js';
import { AppError } from '../errors.js';
import { execute } from '../services/use-case.js';

const ADDRESS = { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' };
const BILLING = { first_name: 'Ada', last_name: 'Lovelace', ...ADDRESS, email: 'ada@example.com' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface World {
  group: string;
  processorId: string;
  accountId: string;
  /** The group's date (YYYY-MM-DD) on its clock. */
  today(): string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json>;
  /** Move the group's clock and run its due work. */
  advance(duration: string): Promise<void>;
}

type Recipe = (w: World) => Promise<unknown>;

const g = (w: World) => `/api/v1/groups/${w.group}`;
const rec = (w: World) => `${g(w)}/processing/${w.accountId}/recurring`;

const sale = (w: World, opts: { token?: string; type?: 'sale' | 'auth' } = {}) =>
  w.call('POST', `${g(w)}/transaction`, {
    type: opts.type ?? 'sale',
    source: 'api',
    processor_id: w.processorId,
    currency: 'USD',
    email_address: 'ada@example.com',
    email_receipt: false,
    amounts: { requested_amount: 1234 },
    billing_address: BILLING,
    order_id: `trigger-${Date.now()}`,
    payment_details: { token: opts.token ?? 'tok_visa' },
  });

async function customerWithCard(w: World, token = 'tok_visa'): Promise<{ customer: Json; cardId: string }> {
  const customer = await w.call('POST', `${g(w)}/customers`, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', billing_address: ADDRESS });
  const card = await w.call('POST', `${g(w)}/processing/${w.accountId}/customers/${customer.id}/payment_methods/card`, { token, billing_address: ADDRESS });
  return { customer, cardId: card.card_id ?? card.id };
}

const planBody = { name: 'Trigger plan', description: 'made by payctl trigger', amount: 1500, tax: 0, billing_cycle: 'monthly', billing_factor: 1, duration: 12 };
const plan = (w: World, body: Record<string, unknown> = {}) => w.call('POST', `${rec(w)}/plans`, { ...planBody, ...body });

async function subscription(w: World, opts: { token?: string; plan?: Record<string, unknown>; startDate?: string } = {}): Promise<Json> {
  const { customer, cardId } = await customerWithCard(w, opts.token);
  const p = await plan(w, opts.plan);
  return w.call('POST', `${rec(w)}/subscription`, {
    plan_id: p.id,
    customer_id: customer.id,
    card_id: cardId,
    ...(opts.startDate ? { start_date: opts.startDate } : {}),
  });
}

const productBody = { name: 'Trigger widget', description: 'made by payctl trigger', amount: 1300, included_tax_amount: 0, unit_of_measure: 'pc' };
const product = (w: World) => w.call('POST', `${g(w)}/products`, productBody);

async function invoice(w: World, dueDate?: string): Promise<Json> {
  const partner = await w.call('POST', `${g(w)}/partners`, {
    company: 'Acme Roasters', first_name: 'Wile', last_name: 'Coyote', line_1: '1 Desert Rd', city: 'Tucson', subdivision: 'AZ', postal_code: '85701', country: 'US', email: 'wile@acme.example',
  });
  const p = await product(w);
  const nextYear = Number(w.today().slice(0, 4)) + 1;
  return w.call('POST', `${g(w)}/invoices`, {
    partner_id: partner.id,
    due_date: dueDate ?? `${nextYear}-01-31`,
    processor_id: w.processorId,
    card_enabled: true,
    ach_enabled: false,
    send_email: false,
    products: [{ product_id: p.id, quantity: 2 }],
  });
}

async function paidLink(w: World): Promise<Json> {
  const link = await w.call('POST', `${g(w)}/payment-links`, { amount: 2500, description: 'Trigger ticket' });
  const session = await w.call('GET', `/api/v1/payment-links/${link.id}`);
  return w.call('POST', `/api/v1/payment-links/${link.id}/pay`, { token: 'tok_visa', billing_address: BILLING }, { authorization: session.session_token });
}

/**
 * What each type's recipe does, in one line (for --help); `moves`: how far it moves the
 * group's clock, for the recipes that need the clock (the command asks before it does). signup_entry.created has none:
 * an entry's event belongs to the group the entry opens, not to the group triggered on.
 */
export const RECIPES: Record<Exclude<EventType, 'signup_entry.created'>, { does: string; run: Recipe; moves?: string }> = {
  'transaction.approved': { does: 'a sale with tok_visa', run: (w) => sale(w) },
  'transaction.declined': { does: 'a sale with tok_visa_declined', run: (w) => sale(w, { token: 'tok_visa_declined' }) },
  'transaction.captured': {
    does: 'an auth, then its capture',
    run: async (w) => {
      const auth = await sale(w, { type: 'auth' });
      return w.call('POST', `${g(w)}/transaction/${auth.id}/capture`, { amount: 1234 });
    },
  },
  'transaction.voided': {
    does: 'a sale, then its void',
    run: async (w) => w.call('POST', `${g(w)}/transaction/${(await sale(w)).id}/void`),
  },
  'transaction.refunded': { moves: '1d',
    does: "a sale, the group's clock moved 1d (settlement), then a refund",
    run: async (w) => {
      const s = await sale(w);
      await w.advance('1d');
      return w.call('POST', `${g(w)}/transaction/${s.id}/refund`, { amount: 1234 });
    },
  },
  'transaction.settled': { moves: '1d', does: "a sale, then the group's clock moved 1d (settlement)", run: async (w) => (await sale(w), w.advance('1d')) },
  'transaction.expired': { moves: '8d', does: "an auth, then the group's clock moved 8d (auth expiry)", run: async (w) => (await sale(w, { type: 'auth' }), w.advance('8d')) },
  'settlement_batch.closed': { moves: '1d', does: "a sale, then the group's clock moved 1d (settlement)", run: async (w) => (await sale(w), w.advance('1d')) },
  'customer.created': { does: 'a customer', run: (w) => w.call('POST', `${g(w)}/customers`, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }) },
  'card.added': { does: 'a customer, then a stored card (tok_visa)', run: (w) => customerWithCard(w) },
  'plan.created': { does: 'a plan', run: (w) => plan(w) },
  'plan.updated': {
    does: 'a plan, then a new amount',
    run: async (w) => {
      const p = await plan(w);
      return w.call('PUT', `${rec(w)}/plans/${p.id}`, { ...planBody, amount: 1800, update_subscriptions: false, prorate: false });
    },
  },
  'subscription.created': { does: 'a customer with a card, a plan and a subscription (billed at once)', run: (w) => subscription(w) },
  'subscription.charged': { does: 'a customer with a card, a plan and a subscription (billed at once)', run: (w) => subscription(w) },
  'subscription.updated': {
    does: 'a subscription, then new amounts',
    run: async (w) => {
      const s = await subscription(w);
      return w.call('PUT', `${rec(w)}/subscription/${s.id}`, {
        plan_id: s.plan_id,
        processor_id: s.processor_id,
        currency: 'USD',
        amounts: { requested_amount: 2000, included_tax_amount: 0 },
        billing_address: BILLING,
        billing_cycle: 'monthly',
        duration: 12,
        max_retry_count: 3,
      });
    },
  },
  'subscription.payment_failed': { moves: '1d',
    does: "a customer with the insufficient-funds card (tok_insufficient_funds), a plan, a subscription starting tomorrow, then the group's clock moved 1d (billing)",
    run: async (w) => {
      await subscription(w, { token: 'tok_insufficient_funds', startDate: nextDay(w.today()) });
      return w.advance('1d');
    },
  },
  'subscription.completed': { does: 'a subscription of a one-charge plan (billed at once, then complete)', run: (w) => subscription(w, { plan: { billing_cycle: 'daily', duration: 1 } }) },
  'subscription.canceled': {
    does: 'a subscription, then its cancellation',
    run: async (w) => w.call('POST', `${rec(w)}/subscription/${(await subscription(w)).id}/cancel`),
  },
  'product.created': { does: 'a product', run: (w) => product(w) },
  'product.updated': {
    does: 'a product, then a new price',
    run: async (w) => w.call('PUT', `${g(w)}/products/${(await product(w)).id}`, { ...productBody, amount: 1500 }),
  },
  'invoice.created': { does: 'a partner, a product and an invoice', run: (w) => invoice(w) },
  'invoice.updated': {
    does: 'an invoice, then a note and a new due date',
    run: async (w) => {
      const i = await invoice(w);
      return w.call('PUT', `${g(w)}/invoices/${i.id}`, {
        note: 'Updated by payctl trigger',
        due_date: `${Number(w.today().slice(0, 4)) + 1}-02-28`,
        processor_id: i.processor_id,
        card_enabled: i.card_enabled,
        ach_enabled: i.ach_enabled,
        products: i.products,
      });
    },
  },
  'invoice.archived': { does: 'an invoice, then its archiving', run: async (w) => w.call('DELETE', `${g(w)}/invoices/${(await invoice(w)).id}`) },
  'invoice.paid': {
    does: 'an invoice, then its payment on the public page (tok_visa)',
    run: async (w) => w.call('POST', `/api/v1/invoices/${(await invoice(w)).slug}/pay`, { token: 'tok_visa' }),
  },
  'invoice.past_due': { moves: '1d',
    does: "an invoice due today, then the group's clock moved 1d (past due)",
    run: async (w) => (await invoice(w, w.today()), w.advance('1d')),
  },
  'payment_link.created': { does: 'a payment link', run: (w) => w.call('POST', `${g(w)}/payment-links`, { amount: 2500, description: 'Trigger ticket' }) },
  'payment_link.paid': { does: 'a payment link, then its payment on the public page (tok_visa)', run: (w) => paidLink(w) },
};

export const TRIGGER_TYPES = EVENT_TYPES.filter((t): t is TriggerType => t in RECIPES);
export type TriggerType = keyof typeof RECIPES;

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

export interface TriggerResult {
  type: TriggerType;
  /** Every event the run caused in the group, oldest first. */
  events: Event[];
  /** Faults the group's rules injected into the run's calls (docs/faults.md): `METHOD path: Payctl-Fault`. */
  faults: string[];
}

/** Runs `type`'s recipe on `group`; `p` is the platform seen from that group. */
export async function trigger(p: Platform, group: string, type: TriggerType): Promise<TriggerResult> {
  const recipe = RECIPES[type];
  const { processorId, accountId } = await processorOf(p, group);
  // The server sees the platform as a whole (each request then runs on its key's group clock).
  const base: Platform = { ...p, clock: platformClock(p), platformClock: undefined, groupId: undefined };
  const key = await execute(createKey, base, contextFor(base, group), { permissions: [...PERMISSIONS], name: `payctl trigger ${type}` });
  const server = await startServer({ platform: base, port: 0, host: '127.0.0.1', tickMs: 0, accessLog: 'off' });
  const from = await p.db.repos.events.lastSeq(p.db);
  const faults: string[] = [];
  try {
    const world: World = {
      group,
      processorId,
      accountId,
      today: () => p.clock.nowIso().slice(0, 10),
      async call(method, path, body, headers = {}) {
        const sent = fetch(server.url + path, {
          method,
          headers: { authorization: key.key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const res = await sent.catch((err: unknown) => {
          // A sandbox's timeout_after_commit closes the connection unanswered: say so.
          throw new AppError(502, 'internal_error', `${type}: ${method} ${path} got no answer (the connection was closed: ${String((err as Error).cause ?? err)}); a fault rule of the group (payctl fault list) may have injected it`);
        });
        const fault = res.headers.get('payctl-fault');
        if (fault) faults.push(`${method} ${path}: ${fault}`);
        const text = await res.text();
        const parsed = text ? (JSON.parse(text) as Json) : undefined;
        if (!res.ok) {
          const e = parsed?.error;
          throw new AppError(res.status, res.status >= 500 ? 'internal_error' : 'invalid_request', `${type}: ${method} ${path} answered ${res.status}: ${e?.message ?? text}`, e?.fields);
        }
        return parsed;
      },
      async advance(duration) {
        // The command asks before a recipe moves the clock: a recipe must say that it does.
        if (recipe.moves !== duration) throw new AppError(500, 'internal_error', `${type}: the recipe moves the clock ${duration} but declares ${recipe.moves ?? 'no move'}`);
        await execute(moveGroupClock, base, contextFor(base, undefined), { group_id: group, advance: duration }, answerBudget(base, ENV.clockAnswerMs));
        await p.clock.refresh();
      },
    };
    await recipe.run(world);
  } finally {
    await server.close();
    await execute(revokeKey, base, contextFor(base, undefined), { key_id: key.id }).catch(() => undefined);
  }
  const rows = await p.db.repos.events.after(p.db, group, from, 10_000);
  const events = rows.map(toEvent);
  if (!events.some((e) => e.type === type)) {
    throw new AppError(500, 'internal_error', `${type}: the recipe ran (${recipe.does}) but no ${type} event was written; events: ${events.map((e) => e.type).join(', ') || 'none'}`);
  }
  return { type, events, faults };
}

async function processorOf(p: Platform, group: string): Promise<{ processorId: string; accountId: string }> {
  const [row] = await p.db.repos.linkedAccounts.listByGroup(p.db, group);
  if (!row) {
    throw new AppError(400, 'validation_error', `group ${group} has no processor and linked account yet: create them with \`payctl processor create --group ${group}\` and \`payctl linked-account create\` (or use the demo group of \`payctl init --demo\`)`);
  }
  return { processorId: row.processor_id, accountId: row.id };
}
