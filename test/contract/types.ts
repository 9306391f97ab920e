// Compile-time half of the contract: each named component of the generated client is
// the same type as the zod schema the server builds its answers from (or validates the
// request with). A field added to, removed from or retyped in a schema without
// regenerating the client fails `tsc` here, before any test runs.
import type { z } from 'zod';
import type { components } from './schema.js';
import type * as tx from '../../src/domain/transactions.js';
import type * as catalog from '../../src/domain/catalog.js';
import type * as customers from '../../src/domain/customers.js';
import type * as tokens from '../../src/domain/tokens.js';
import type * as links from '../../src/domain/payment-links.js';
import type * as recurring from '../../src/domain/recurring.js';
import type * as reporting from '../../src/domain/reporting.js';
import type * as onboarding from '../../src/domain/onboarding.js';
import type * as onboardingResponse from '../../src/domain/onboarding/response.js';
import type * as sandboxes from '../../src/domain/sandboxes.js';
import type { errorBodySchema } from '../../src/errors.js';

type S = components['schemas'];
/** true when A and B are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;

declare const responseChecks: {
  Transaction: Same<S['Transaction'], Out<typeof tx.transactionSchema>>;
  Invoice: Same<S['Invoice'], Out<typeof catalog.invoiceSchema>>;
  InvoiceLine: Same<S['InvoiceLine'], Out<typeof catalog.invoiceLineSchema>>;
  Product: Same<S['Product'], Out<typeof catalog.productSchema>>;
  Partner: Same<S['Partner'], Out<typeof catalog.partnerSchema>>;
  InvoicePayment: Same<S['InvoicePayment'], Out<typeof catalog.invoicePaymentSchema>>;
  Customer: Same<S['Customer'], Out<typeof customers.customerSchema>>;
  CustomerCard: Same<S['CustomerCard'], Out<typeof customers.customerCardSchema>>;
  Token: Same<S['Token'], Out<typeof tokens.tokenResponseSchema>>;
  PaymentLink: Same<S['PaymentLink'], Out<typeof links.paymentLinkSchema>>;
  PublicPaymentLink: Same<S['PublicPaymentLink'], Out<typeof links.publicPaymentLinkSchema>>;
  PaymentLinkPayResult: Same<S['PaymentLinkPayResult'], Out<typeof links.paymentLinkPayResultSchema>>;
  Plan: Same<S['Plan'], Out<typeof recurring.planSchema>>;
  Subscription: Same<S['Subscription'], Out<typeof recurring.subscriptionSchema>>;
  ReportResult: Same<S['ReportResult'], Out<typeof reporting.reportResultSchema>>;
  SignupEntryResult: Same<S['SignupEntryResult'], Out<typeof onboardingResponse.signupEntryResultSchema>>;
  GroupClock: Same<S['GroupClock'], Out<typeof sandboxes.groupClockSchema>>;
  Error: Same<S['Error'], Out<typeof errorBodySchema>>;
};

declare const requestChecks: {
  SaleRequest: Same<S['SaleRequest'], In<typeof tx.saleRequestSchema>>;
  CaptureRequest: Same<S['CaptureRequest'], In<typeof tx.captureRequestSchema>>;
  AddCardRequest: Same<S['AddCardRequest'], In<typeof tx.addCardSchema>>;
  TokenRequest: Same<S['TokenRequest'], In<typeof tokens.tokenRequestSchema>>;
  UpdateInvoiceRequest: Same<S['UpdateInvoiceRequest'], In<typeof catalog.updateInvoiceSchema>>;
  CreateInvoiceRequest: Same<S['CreateInvoiceRequest'], In<typeof catalog.createInvoiceSchema>>;
  UpdateProductRequest: Same<S['UpdateProductRequest'], In<typeof catalog.updateProductSchema>>;
  CreatePartnerRequest: Same<S['CreatePartnerRequest'], In<typeof catalog.createPartnerSchema>>;
  CreatePlanRequest: Same<S['CreatePlanRequest'], In<typeof recurring.createPlanSchema>>;
  UpdatePlanRequest: Same<S['UpdatePlanRequest'], In<typeof recurring.updatePlanSchema>>;
  UpdateSubscriptionRequest: Same<S['UpdateSubscriptionRequest'], In<typeof recurring.updateSubscriptionSchema>>;
  CreateSubscriptionRequest: Same<S['CreateSubscriptionRequest'], In<typeof recurring.createSubscriptionSchema>>;
  CreatePaymentLinkRequest: Same<S['CreatePaymentLinkRequest'], In<typeof links.createPaymentLinkSchema>>;
  PayPaymentLinkRequest: Same<S['PayPaymentLinkRequest'], In<typeof links.payPaymentLinkRequestSchema>>;
  SignupEntry: Same<S['SignupEntry'], In<typeof onboarding.signupEntrySchema>>;
};
/** The names of the checks that are not `true`. */
type Failing<T> = { [K in keyof T]: T[K] extends true ? never : K }[keyof T];
type Mismatched = Failing<typeof responseChecks> | Failing<typeof requestChecks>;
// When a component and its schema differ, tsc says: Type 'true' is not assignable to type '"<Component>"'.
export const componentsMatchSchemas: [Mismatched] extends [never] ? true : Mismatched = true;
