// Customers and their vault of stored cards and bank accounts.
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import { event } from '../events/events.js';
import type { GroupContext } from '../context.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import {
  createCustomerSchema, expirationMMYY,
  type Customer, type CustomerBankAccount, type CustomerBankAccountEntity, type CustomerCard, type CustomerCardEntity, type CustomerEntity,
} from '../../domain/customers.js';
import type { CardBillingAddress } from '../../domain/address.js';
import type { TokenMethod } from '../../domain/tokens.js';
import { notFound } from '../../errors.js';
import { pagingQuery } from '../../domain/paging.js';
import { newId } from '../../lib/ids.js';

export const createCustomer = useCase({
  input: createCustomerSchema,
  run(p: Platform, ctx: GroupContext, input): Promise<Customer> {
    const now = ctx.clock.nowIso();
    const row: CustomerEntity = {
      id: newId(),
      group_id: ctx.group,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      email: input.email ?? '',
      phone: input.phone ?? '',
      billing_address: input.billing_address ?? null,
      created_at: now,
      updated_at: now,
    };
    return unitOfWork(ctx, async ({ tx, emit }) => {
      await tx.repos.customers.insert(tx, row);
      const customer = toCustomer(row, [], []);
      emit(event('customer.created', customer));
      return customer;
    });
  },
});

export const getCustomer = useCase({
  input: z.object({ customer_id: z.string() }),
  async run(p: Platform, ctx: GroupContext, input): Promise<Customer> {
    const id = input.customer_id;
    const row = await requireCustomer(ctx.store, ctx.group, id);
    const [cards, banks] = await Promise.all([ctx.store.repos.customerCards.listByCustomer(ctx.store, id), ctx.store.repos.customerBankAccounts.listByCustomer(ctx.store, id)]);
    return toCustomer(row, cards, banks);
  },
});

/** A page of the group's customers, newest first, each as Get Customer answers it (`payctl customer list`). */
export const listCustomers = useCase({
  input: z.object({ ...pagingQuery }),
  async run(p: Platform, ctx: GroupContext, input): Promise<Customer[]> {
    const rows = await ctx.store.repos.customers.list(ctx.store, ctx.group, input.limit, input.offset);
    return Promise.all(
      rows.map(async (row) => {
        const [cards, banks] = await Promise.all([ctx.store.repos.customerCards.listByCustomer(ctx.store, row.id), ctx.store.repos.customerBankAccounts.listByCustomer(ctx.store, row.id)]);
        return toCustomer(row, cards, banks);
      }),
    );
  },
});

export async function requireCustomer(ex: Executor, groupId: string, id: string): Promise<CustomerEntity> {
  const row = await ex.repos.customers.find(ex, groupId, id);
  if (!row) throw notFound('customer');
  return row;
}

/** Store a tokenized card on a customer (inside the caller's transaction). */
export async function storeCard(
  tx: Tx,
  input: { groupId: string; customerId: string; linkedAccountId: string | null; token: TokenMethod; billing: Partial<CardBillingAddress>; now: string },
): Promise<CustomerCardEntity> {
  const t = input.token;
  const row: CustomerCardEntity = {
    id: newId(),
    group_id: input.groupId,
    customer_id: input.customerId,
    linked_account_id: input.linkedAccountId,
    brand: t.brand!,
    card_type: t.card_type ?? 'credit',
    card_category: 'consumer',
    first_six: t.first_six!,
    last_four: t.last_four,
    exp_month: t.exp_month!,
    exp_year: t.exp_year!,
    holder_name: t.holder_name,
    issuer: `${t.brand} Test Bank`,
    issuer_country: 'US',
    regulated: false,
    commercial: false,
    test_outcome: t.test_outcome,
    billing_address: input.billing,
    created_at: input.now,
    updated_at: input.now,
  };
  await tx.repos.customerCards.insert(tx, row);
  return row;
}

export async function storeBankAccount(
  tx: Tx,
  input: { groupId: string; customerId: string; token: TokenMethod; now: string },
): Promise<CustomerBankAccountEntity> {
  const t = input.token;
  const row: CustomerBankAccountEntity = {
    id: newId(),
    group_id: input.groupId,
    customer_id: input.customerId,
    routing_number: t.routing_number!,
    last_four: t.last_four,
    account_type: t.account_type ?? 'checking',
    holder_name: t.holder_name,
    test_outcome: t.test_outcome,
    created_at: input.now,
  };
  await tx.repos.customerBankAccounts.insert(tx, row);
  return row;
}

export function toCustomerCard(row: CustomerCardEntity): CustomerCard {
  const a = row.billing_address;
  return {
    card_id: row.id,
    first_six: row.first_six,
    last_four: row.last_four,
    expiration: expirationMMYY(row.exp_month, row.exp_year),
    brand: row.brand,
    card_type: row.card_type,
    card_category: row.card_category,
    holder_name: row.holder_name,
    billing_address: {
      line_1: a.line_1 ?? '',
      line_2: a.line_2 ?? '',
      city: a.city ?? '',
      subdivision: a.subdivision ?? '',
      postal_code: a.postal_code ?? '',
      country: a.country ?? '',
    },
    issuer: row.issuer,
    issuer_country: row.issuer_country,
    regulated: row.regulated,
    commercial: row.commercial,
    card_on_file: true,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toCustomerBankAccount(row: CustomerBankAccountEntity): CustomerBankAccount {
  return {
    bank_account_id: row.id,
    routing_number: row.routing_number,
    last_four: row.last_four,
    account_type: row.account_type,
    holder_name: row.holder_name,
    created_at: row.created_at,
  };
}

function toCustomer(row: CustomerEntity, cards: CustomerCardEntity[], banks: CustomerBankAccountEntity[]): Customer {
  return {
    id: row.id,
    group_id: row.group_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    billing_address: row.billing_address,
    cards: cards.map(toCustomerCard),
    bank_accounts: banks.map(toCustomerBankAccount),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
