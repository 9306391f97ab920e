// Customers (extension) and stored payment methods (spec "Customer card").
import { z } from 'zod';
import { text, email, timestamp } from './strings.js';
import { cardBillingAddress, type CardBillingAddress } from './address.js';

export const createCustomerSchema = z.strictObject({
  first_name: text(64).optional(),
  last_name: text(64).optional(),
  email: email.optional(),
  phone: text(20).optional(),
  billing_address: cardBillingAddress.optional(),
}).meta({ id: 'CreateCustomerRequest' });
export type CreateCustomer = z.output<typeof createCustomerSchema>;

const cardAddress = z.object({
  line_1: z.string(),
  line_2: z.string(),
  city: z.string(),
  subdivision: z.string(),
  postal_code: z.string(),
  country: z.string(),
});

export const customerCardSchema = z.object({
  card_id: z.string(),
  first_six: z.string(),
  last_four: z.string(),
  expiration: z.string().describe('MM/YY'),
  brand: z.string(),
  card_type: z.string(),
  card_category: z.string(),
  holder_name: z.string(),
  billing_address: cardAddress,
  issuer: z.string(),
  issuer_country: z.string(),
  regulated: z.boolean(),
  commercial: z.boolean(),
  card_on_file: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'CustomerCard' });
export type CustomerCard = z.output<typeof customerCardSchema>;

export const customerBankAccountSchema = z.object({
  bank_account_id: z.string(),
  routing_number: z.string(),
  last_four: z.string(),
  account_type: z.string(),
  holder_name: z.string(),
  created_at: timestamp,
}).meta({ id: 'CustomerBankAccount' });
export type CustomerBankAccount = z.output<typeof customerBankAccountSchema>;

export const customerSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  billing_address: z.record(z.string(), z.string()).nullable(),
  cards: z.array(customerCardSchema),
  bank_accounts: z.array(customerBankAccountSchema),
  created_at: timestamp,
  updated_at: timestamp,
}).meta({ id: 'Customer' });
export type Customer = z.output<typeof customerSchema>;

/** "MM/YY" from a month and a four-digit year. */
export const expirationMMYY = (month: number, year: number): string =>
  `${String(month).padStart(2, '0')}/${String(year % 100).padStart(2, '0')}`;

/** A customer as the platform keeps it (the entity repositories take and return). */
export interface CustomerEntity {
  id: string;
  group_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  /** The billing address given (its fields as sent), or null. */
  billing_address: Record<string, string> | null;
  created_at: string;
  updated_at: string;
}

/** A card in a customer's vault (never the full number: brand, first six, last four, expiry). */
export interface CustomerCardEntity {
  id: string;
  group_id: string;
  customer_id: string;
  linked_account_id: string | null;
  brand: string;
  card_type: string;
  card_category: string;
  first_six: string;
  last_four: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  issuer: string;
  issuer_country: string;
  regulated: boolean;
  commercial: boolean;
  /** The simulated processor's outcome for this card (test cards). */
  test_outcome: string;
  billing_address: Partial<CardBillingAddress>;
  created_at: string;
  updated_at: string;
}

/** A bank account in a customer's vault (routing number and last four only). */
export interface CustomerBankAccountEntity {
  id: string;
  group_id: string;
  customer_id: string;
  routing_number: string;
  last_four: string;
  account_type: string;
  holder_name: string;
  test_outcome: string;
  created_at: string;
}
