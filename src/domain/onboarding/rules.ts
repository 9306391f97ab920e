// The cross-field rules, on a loosely-typed `business` (shared by the schema and the wizard
// helpers): one `superRefine` that runs even when fields inside have problems (`when`),
// so a 400 lists every violated rule, not only the field-level ones.
import { z } from 'zod';
import { GEOGRAPHIC_REACH, IN_PERSON_THRESHOLD, isVolumeRange, LEGACY_FIELDS, PAYMENT_METHODS, SOLE_PROPRIETORSHIP } from './enums.js';
import { given, isRecord, type Loose } from './fields.js';

export const sub = (v: unknown, ...keys: string[]): unknown => {
  let cur = v;
  for (const k of keys) cur = isRecord(cur) ? cur[k] : undefined;
  return cur;
};

export const isSoleProp = (b: unknown) => sub(b, 'business_type') === SOLE_PROPRIETORSHIP;
export const underwritingOf = (b: unknown): Loose | undefined => {
  const u = sub(b, 'underwriting');
  return isRecord(u) ? u : undefined;
};
export const methodsOf = (b: unknown): unknown[] | undefined => {
  const m = sub(b, 'underwriting', 'payment_methods');
  return Array.isArray(m) ? m : undefined;
};
/** Legacy mode: no `underwriting` key at all, the deprecated fields stand in for it. */
export const legacyMode = (b: unknown) => isRecord(b) && b.underwriting === undefined;

export function bCurrentlyAcceptsCardRequired(b: unknown) {
  return (methodsOf(b)?.length ?? 0) > 0;
}
export function bAcceptanceRequired(b: unknown) {
  return methodsOf(b)?.includes('card') ?? false;
}
export function bFulfillmentRequired(b: unknown) {
  const inPerson = sub(b, 'underwriting', 'acceptance_methods', 'in_person');
  return bAcceptanceRequired(b) && typeof inPerson === 'number' && inPerson < IN_PERSON_THRESHOLD;
}
/** Rule 2: a soleProprietorship may omit collect_funds; when given, it follows the per-method rule. */
export function bCollectFundsRequired(b: unknown, method: 'ach' | 'card') {
  if (!(methodsOf(b)?.includes(method) ?? false)) return false;
  return !(isSoleProp(b) && sub(b, 'underwriting', 'collect_funds') === undefined);
}
export const FUNDS_SECTIONS = [
  ['collect_funds', 'ach'],
  ['collect_funds', 'card'],
  ['send_funds', 'ach'],
  ['send_funds', 'instant_bank'],
] as const;
/** Why rule 1 applies (a reason for the message), or undefined when it does not. */
export function bRule1Reason(b: unknown): string | undefined {
  const reach = sub(b, 'underwriting', 'geographich_reach');
  if ((GEOGRAPHIC_REACH as readonly unknown[]).includes(reach) && reach !== 'us-only') {
    return `geographich_reach is ${String(reach)}`;
  }
  for (const [group, section] of FUNDS_SECTIONS) {
    const range = sub(b, 'underwriting', group, section, 'expected_transaction_activity', 'monthly_volume_range');
    if (isVolumeRange(range) && range !== 'under-10k') return `${group}.${section} monthly_volume_range is ${range}`;
  }
  return undefined;
}
/** Rule 3/4; `undefined` while currently_accepts_card is required but not (validly) given. */
export function bStatementsRequired(b: unknown): 'processing' | 'bank' | undefined {
  if (legacyMode(b)) return 'processing';
  const accepts = sub(b, 'underwriting', 'currently_accepts_card');
  if (accepts === true) return 'processing';
  if (accepts === false || (accepts === undefined && !bCurrentlyAcceptsCardRequired(b))) return 'bank';
  return undefined;
}

export function businessRules(b: Loose, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const sole = isSoleProp(b);

  if (!given(b.description) && !given(b.website)) issue(['description'], 'is required unless website is given');
  if (!given(b.ein) && !(sole && given(b.ssn))) {
    issue(['ein'], sole ? 'is required (a soleProprietorship may give ssn instead)' : 'is required');
  }
  if (given(b.ssn) && !sole) issue(['ssn'], 'is allowed only for a soleProprietorship (as a replacement for ein)');

  if (legacyMode(b)) {
    const missing = LEGACY_FIELDS.filter((k) => !given(b[k]));
    if (missing.length === LEGACY_FIELDS.length) {
      issue(['underwriting'], `is required (or the deprecated ${LEGACY_FIELDS.join(', ')})`);
    } else {
      for (const k of missing) issue([k], 'is required when underwriting is absent (deprecated legacy field)');
    }
  }

  const u = underwritingOf(b);
  if (u) {
    const methods = methodsOf(b);
    if (methods && methods.length === 0 && !sole) {
      issue(['underwriting', 'payment_methods'], 'must include card or ach (may be empty only for a soleProprietorship)');
    }
    if (bCurrentlyAcceptsCardRequired(b) && !given(u.currently_accepts_card)) {
      issue(['underwriting', 'currently_accepts_card'], 'is required when payment_methods is not empty');
    }
    if (bAcceptanceRequired(b) && !given(u.acceptance_methods)) {
      issue(['underwriting', 'acceptance_methods'], 'is required when card is in payment_methods');
    }
    if (bFulfillmentRequired(b)) {
      for (const k of ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy'] as const) {
        if (!given(u[k])) {
          issue(['underwriting', k], `is required when card is in payment_methods and acceptance_methods.in_person is below ${IN_PERSON_THRESHOLD}`);
        }
      }
    }
    for (const method of PAYMENT_METHODS) {
      if (bCollectFundsRequired(b, method) && !given(sub(u, 'collect_funds', method))) {
        issue(['underwriting', 'collect_funds', method], `is required when ${method} is in payment_methods`);
      }
    }
    const reason = bRule1Reason(b);
    if (reason) {
      for (const k of ['business_presence', 'pending_litigation', 'volume_by_customer_type'] as const) {
        if (!given(u[k])) issue(['underwriting', k], `is required when ${reason}`);
      }
    }
  }

  const statementsKind = bStatementsRequired(b);
  if (statementsKind === 'processing' && !given(b.processing_statements)) {
    issue(
      ['processing_statements'],
      legacyMode(b)
        ? 'is required (3 months) when the deprecated legacy fields are used'
        : 'is required (3 months) when underwriting.currently_accepts_card is true',
    );
  } else if (statementsKind === 'bank' && !given(b.bank_statements)) {
    issue(['bank_statements'], 'is required (3 months) when processing statements are not required');
  }
}
