// `payctl dev seed --transactions N`: many realistic transactions, fast, for the
// reporting benchmark and for trying the report browser. Rows are generated in time
// order over the last months of the platform clock (varied statuses, brands, sources,
// methods, customers, plans, invoices, forms) and written with multi-row INSERTs
// inside large write transactions (5,000 rows per statement, 20,000 per transaction;
// see src/store/sql/repositories/seed.ts for how a statement carries them).
import { performance } from 'node:perf_hooks';
import { randomFillSync } from 'node:crypto';
import type { Platform } from '../services/platform.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';
import type { Progress } from '../services/clock/chunks.js';
import { listGroups, listLinkedAccounts, listProcessors, requireGroup } from '../services/groups/groups.js';
import type { CustomerEntity } from '../domain/customers.js';
import type { TransactionStatus } from '../domain/transactions.js';
import type { TransactionRow } from '../store/interfaces/seed.js';
import { invalidRequest, validationError } from '../errors.js';
import { monthsBefore } from '../domain/reporting.js';
import { newId } from '../lib/ids.js';

export interface SeedOptions {
  /** Group to fill (default: the first group). */
  groupId?: string;
  transactions: number;
  /** Months back from now that the rows spread over (default 8). */
  months?: number;
  /** Seed of the pseudo-random generator, for reproducible data (default 1). */
  seed?: number;
  rowsPerStatement?: number;
  rowsPerTransaction?: number;
  progress?: Progress;
}

export interface SeedResult {
  group_id: string;
  transactions: number;
  settlement_batches: number;
  customers: number;
  from: string;
  to: string;
  elapsed_ms: number;
  rows_per_second: number;
}

export const MAX_SEED = 10_000_000;
const DAY = 86_400_000;
const SEED_CUSTOMERS = 40;

/** The columns a seeded row sets; the rest take their table default (NULL or ''). */
const VARYING: Array<keyof TransactionRow> = [
  'id', 'linked_account_id', 'processor_id', 'transaction_type', 'payment_method', 'method_detail', 'customer_id',
  'brand', 'card_type', 'first_six', 'last_four', 'customer_name', 'expiration_date', 'avs', 'cvv', 'issued_country',
  'requested_amount', 'authorized_amount', 'captured_amount', 'refunded_amount', 'description', 'source', 'order_id',
  'email_address', 'form_id', 'form_external_id', 'subscription_id', 'plan_id', 'invoice_id', 'invoice_number',
  'invoice_external_id', 'response_code', 'response_text', 'status', 'settlement_batch_id', 'created_at', 'updated_at',
];

/** A UUID v7 for the instant `ms` (a seeded row's id sorts like its created_at). */
const idBytes = Buffer.alloc(10);
function idAt(ms: number): string {
  randomFillSync(idBytes);
  const hex = ms.toString(16).padStart(12, '0');
  const r = idBytes.toString('hex');
  const variant = ((idBytes[9]! & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(3, 6)}-${r.slice(6, 18)}`;
}

/** mulberry32: a small deterministic PRNG in [0, 1), good enough for test data (the tests' seeded kill points use it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Weighted<T> = Array<[T, number]>;
function picker<T>(items: Weighted<T>): (r: number) => T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  return (r) => {
    let x = r * total;
    for (const [v, w] of items) if ((x -= w) < 0) return v;
    return items[items.length - 1]![0];
  };
}

const pickMethod = picker<'card' | 'customer_card' | 'ach' | 'customer_ach'>([['card', 45], ['customer_card', 33], ['ach', 13], ['customer_ach', 9]]);
const pickBrand = picker<string>([['Visa', 45], ['Mastercard', 30], ['American Express', 15], ['Discover', 10]]);
const pickSource = picker<string>([['api', 40], ['virtual_terminal', 15], ['forms', 14], ['recurring', 16], ['invoice', 10], ['wallet', 5]]);
const FIRST_SIX: Record<string, string> = { Visa: '411111', Mastercard: '555555', 'American Express': '378282', Discover: '601111' };
const DECLINES = [
  ['05', 'Declined: do not honor'],
  ['51', 'Declined: insufficient funds'],
  ['N7', 'Declined: address verification (AVS) mismatch'],
] as const;
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth'];

/** The status of a generated row from its age and kind (what the platform would show by now). */
function statusOf(r: () => number, type: 'sale' | 'auth', ageMs: number, beforeCutoff: boolean): TransactionStatus {
  if (r() < 0.07) return 'declined';
  if (type === 'auth') {
    const x = r();
    if (ageMs > 7 * DAY && x < 0.2) return 'expired';
    if (ageMs <= 7 * DAY && x < 0.4) return 'authorized';
    if (x < 0.45) return 'voided';
    if (!beforeCutoff) return x < 0.9 ? 'captured' : 'partially_captured';
  } else {
    const x = r();
    if (x < 0.02) return 'voided';
    if (!beforeCutoff) return 'pending';
  }
  const y = r();
  return y < 0.03 ? 'refunded' : y < 0.05 ? 'partially_refunded' : 'settled';
}

export async function seedTransactions(p: Platform, opts: SeedOptions): Promise<SeedResult> {
  const count = opts.transactions;
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SEED) {
    throw validationError([{ path: 'transactions', message: `must be a whole number from 1 to ${MAX_SEED}` }]);
  }
  const perStatement = opts.rowsPerStatement ?? 5_000;
  const perTx = Math.max(perStatement, opts.rowsPerTransaction ?? 20_000);
  const months = opts.months ?? 8;

  const group = opts.groupId ? await requireGroup(p.db, opts.groupId) : (await execute(listGroups, p, contextFor(p, undefined), {}))[0];
  if (!group) throw invalidRequest(`there is no group yet in the database ${p.db.location}: run \`payctl init --demo\` or create one with \`payctl group create\``);
  const processors = await execute(listProcessors, p, contextFor(p, group.id), {});
  if (processors.length === 0) throw invalidRequest(`group ${group.id} has no processor: add one with \`payctl processor create\``);
  const accounts = await execute(listLinkedAccounts, p, contextFor(p, group.id), {});

  const nowMs = p.clock.now().getTime();
  const nowIso = new Date(nowMs).toISOString();
  const customers = await ensureCustomers(p, group.id, nowIso);
  await p.db.write((tx) => tx.repos.seed.bulkLoadCache(tx));
  const started = performance.now();
  const r = prng(opts.seed ?? 1);
  const pool = (n: number) => Array.from({ length: n }, () => newId());
  const plans = pool(6);
  const subscriptions = pool(300);
  const forms = pool(8);
  const invoices = Array.from({ length: 500 }, (_, i) => ({ id: newId(), number: `INV-${String(1000 + i)}`, external: `ext-${i}` }));

  const fromMs = monthsBefore(new Date(nowMs), months).getTime();
  const span = nowMs - fromMs;
  // One settlement batch per UTC day, closed at the next 00:00 UTC; rows after the last
  // cutoff are still pending. The batches are written first (the rows reference them)
  // and their totals once every row is in.
  const lastCutoff = Math.floor(nowMs / DAY) * DAY;
  const batches = new Map<number, { id: string; count: number; total: number }>();
  for (let day = Math.floor(fromMs / DAY); day * DAY < lastCutoff; day++) batches.set(day, { id: newId(), count: 0, total: 0 });
  await p.db.write(async (tx) => {
    for (const [day, b] of batches) {
      const cutoff = new Date((day + 1) * DAY).toISOString();
      await tx.repos.settlement.insertBatch(tx, { id: b.id, group_id: group.id, cutoff_at: cutoff, transaction_count: 0, total_amount: 0, created_at: cutoff });
    }
  });

  let done = 0;
  const write = async (chunk: TransactionRow[]) => {
    // One aggregate per chunk into the reporting rollup is cheaper than its trigger per row.
    await p.db.write((tx) =>
      tx.repos.seed.insertCountedInRollup(tx, async () => {
        for (let i = 0; i < chunk.length; i += perStatement) {
          await tx.repos.seed.insertTransactions(tx, chunk.slice(i, i + perStatement), { columns: VARYING, constants: { group_id: group.id, currency: 'USD' } });
        }
      }),
    );
    done += chunk.length;
    opts.progress?.(done, count, 'Seeding transactions');
  };
  opts.progress?.(0, count, 'Seeding transactions');
  // Generate the next chunk while SQLite writes the previous one (its statements run
  // on libuv's thread pool); yield now and then so their callbacks get a turn.
  let writing: Promise<void> = Promise.resolve();
  let rows: TransactionRow[] = [];
  for (let i = 0; i < count; i++) {
    // Stratified times: row i falls in the i-th slice of the window, so rows come in time order.
    rows.push(makeRow(i, Math.min(nowMs, Math.floor(fromMs + ((i + r()) / count) * span))));
    if (rows.length >= perTx || i === count - 1) {
      await writing;
      writing = write(rows);
      rows = [];
    }
    if (i % 1000 === 999) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await writing;
  const used = [...batches.values()].filter((b) => b.count > 0);
  await p.db.write(async (tx) => {
    for (const b of used) await tx.repos.seed.setBatchTotals(tx, b.id, b.count, b.total);
    // Days without a settled row keep no empty batch.
    for (const b of batches.values()) if (b.count === 0) await tx.repos.seed.deleteBatch(tx, b.id);
  });
  const elapsed = performance.now() - started;
  return {
    group_id: group.id,
    transactions: count,
    settlement_batches: used.length,
    customers: customers.length,
    from: new Date(fromMs).toISOString(),
    to: nowIso,
    elapsed_ms: Math.round(elapsed),
    rows_per_second: Math.round(count / (elapsed / 1000)),
  };

  function makeRow(i: number, at: number): TransactionRow {
    const created = new Date(at).toISOString();
    const type: 'sale' | 'auth' = r() < 0.85 ? 'sale' : 'auth';
    const method = pickMethod(r());
    const card = method === 'card' || method === 'customer_card';
    const brand = card ? pickBrand(r()) : null;
    const stored = method === 'customer_card' || method === 'customer_ach';
    const customer = stored || r() < 0.2 ? customers[Math.floor(r() * customers.length)]! : undefined;
    let source = pickSource(r());
    if (source === 'recurring' && !stored) source = 'api';
    const status = statusOf(r, type, nowMs - at, at < lastCutoff);
    const requested = Math.round(100 + r() * r() * 49_900);
    const approved = status !== 'declined';
    const captured =
      !approved || status === 'authorized' || status === 'expired' || (type === 'auth' && status === 'voided')
        ? 0
        : status === 'partially_captured'
          ? Math.round(requested * 0.5)
          : requested;
    const refunded = status === 'refunded' ? captured : status === 'partially_refunded' ? Math.round(captured * 0.3) : 0;
    const settled = status === 'settled' || status === 'refunded' || status === 'partially_refunded';
    let batchId: string | null = null;
    const batch = settled ? batches.get(Math.floor(at / DAY)) : undefined;
    if (batch) {
      batch.count++;
      batch.total += captured;
      batchId = batch.id;
    }
    const decline = DECLINES[i % DECLINES.length]!;
    const name = customer ? `${customer.first_name} ${customer.last_name}` : `${FIRST[i % 10]} ${LAST[(i >> 3) % 10]}`;
    const invoice = source === 'invoice' ? invoices[Math.floor(r() * invoices.length)]! : undefined;
    const sub = source === 'recurring' ? Math.floor(r() * subscriptions.length) : -1;
    const form = source === 'forms' ? Math.floor(r() * forms.length) : -1;
    const processor = processors[i % processors.length]!;
    return {
      id: idAt(at),
      group_id: group!.id,
      linked_account_id: accounts.find((a) => a.processor_id === processor.id)?.id ?? null,
      processor_id: processor.id,
      transaction_type: type,
      payment_method: card ? 'card' : 'ach',
      method_detail: method,
      customer_id: customer?.id ?? null,
      card_id: null,
      bank_account_id: null,
      brand,
      card_type: card ? 'credit' : 'checking',
      first_six: card ? FIRST_SIX[brand!]! : '021000021',
      last_four: String(1000 + Math.floor(r() * 9000)),
      customer_name: name,
      expiration_date: card ? `${String(27 + (i % 4))}/${String(1 + (i % 12)).padStart(2, '0')}` : null,
      avs: card ? 'Y' : null,
      cvv: card ? 'M' : null,
      issued_country: card ? 'US' : null,
      dynamic_descriptor: null,
      requested_amount: requested,
      authorized_amount: approved ? requested : 0,
      captured_amount: captured,
      refunded_amount: refunded,
      included_tax_amount: null,
      included_shipping_amount: null,
      currency: 'USD',
      description: invoice ? `Invoice ${invoice.number}` : sub >= 0 ? 'Subscription charge' : 'Seeded transaction',
      source,
      order_id: source === 'api' || source === 'virtual_terminal' ? `ORD-${i}` : '',
      po_number: '',
      ip_address: '',
      email_receipt: 0,
      email_address: customer?.email ?? '',
      user_id: '',
      username: '',
      billing_address: null,
      shipping_address: null,
      form_id: form >= 0 ? forms[form]! : null,
      form_external_id: form >= 0 ? `form-${form}` : '',
      form_entry_id: '',
      subscription_id: sub >= 0 ? subscriptions[sub]! : null,
      plan_id: sub >= 0 ? plans[sub % plans.length]! : null,
      invoice_id: invoice?.id ?? null,
      invoice_number: invoice?.number ?? null,
      invoice_external_id: invoice?.external ?? null,
      payment_link_id: null,
      destination_group_id: null,
      custom_fields: null,
      commissions: null,
      response_code: approved ? '00' : decline[0],
      response_text: approved ? 'Approved' : decline[1],
      status,
      settlement_batch_id: batchId,
      created_at: created,
      updated_at: created,
    };
  }
}

/** The group's customers, topped up to a few dozen so customer filters have variety. */
async function ensureCustomers(p: Platform, groupId: string, now: string): Promise<CustomerEntity[]> {
  const existing = await p.db.repos.customers.list(p.db, groupId, SEED_CUSTOMERS, 0);
  const missing = SEED_CUSTOMERS - existing.length;
  if (missing <= 0) return existing;
  const fresh: CustomerEntity[] = Array.from({ length: missing }, (_, i) => ({
    id: newId(),
    group_id: groupId,
    first_name: FIRST[i % FIRST.length]!,
    last_name: LAST[Math.floor(i / FIRST.length) % LAST.length]!,
    email: `customer${i}@example.com`,
    phone: '',
    billing_address: null,
    created_at: now,
    updated_at: now,
  }));
  await p.db.write(async (tx) => {
    for (const c of fresh) await tx.repos.customers.insert(tx, c);
  });
  return [...existing, ...fresh];
}
