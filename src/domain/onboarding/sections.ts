// Helpers for the wizard and for display: which conditional parts of the form apply to a
// partial, unvalidated entry (the same rules the schema enforces: ./rules.ts).
import { bAcceptanceRequired, bCollectFundsRequired, bCurrentlyAcceptsCardRequired, bFulfillmentRequired, bRule1Reason, bStatementsRequired, isSoleProp, legacyMode, methodsOf, sub } from './rules.js';

export const businessOf = (entry: unknown) => sub(entry, 'business');

export const isSoleProprietorship = (entry: unknown) => isSoleProp(businessOf(entry));
export const paymentMethodsOf = (entry: unknown): string[] =>
  (methodsOf(businessOf(entry)) ?? []).filter((m): m is string => typeof m === 'string');
export const needsCurrentlyAcceptsCard = (entry: unknown) => bCurrentlyAcceptsCardRequired(businessOf(entry));
export const needsAcceptanceMethods = (entry: unknown) => bAcceptanceRequired(businessOf(entry));
/** card accepted and in_person below 80: fulfillment_method, fulfillment_timeframe, refund_policy apply. */
export const needsFulfillment = (entry: unknown) => bFulfillmentRequired(businessOf(entry));
/** Rule 1: business_presence, pending_litigation, volume_by_customer_type apply. */
export const needsRule1Fields = (entry: unknown) => bRule1Reason(businessOf(entry)) !== undefined;
/** The wizard asks collect_funds.<method> whenever the method is used (required unless rule 2 lifts it). */
export const usesPaymentMethod = (entry: unknown, method: 'ach' | 'card') => paymentMethodsOf(entry).includes(method);
export const collectFundsRequired = (entry: unknown, method: 'ach' | 'card') => bCollectFundsRequired(businessOf(entry), method);
/** Rules 3 and 4: which three months of statements the entry needs. */
export const statementsRequired = (entry: unknown): 'processing' | 'bank' =>
  bStatementsRequired(businessOf(entry)) ?? 'bank';

export interface RelevantSections {
  legacy: boolean;
  currentlyAcceptsCard: boolean;
  acceptanceMethods: boolean;
  fulfillment: boolean;
  collectFunds: { ach: boolean; card: boolean };
  rule1: boolean;
  statements: 'processing' | 'bank';
}

/** Which conditional parts of the form apply to this (partial) entry. */
export function relevantSections(entry: unknown): RelevantSections {
  return {
    legacy: legacyMode(businessOf(entry)),
    currentlyAcceptsCard: needsCurrentlyAcceptsCard(entry),
    acceptanceMethods: needsAcceptanceMethods(entry),
    fulfillment: needsFulfillment(entry),
    collectFunds: { ach: usesPaymentMethod(entry, 'ach'), card: usesPaymentMethod(entry, 'card') },
    rule1: needsRule1Fields(entry),
    statements: statementsRequired(entry),
  };
}
