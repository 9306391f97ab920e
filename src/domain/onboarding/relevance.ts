// Which answers of a draft still apply. When someone goes back and changes an answer
// that others depend on (the business type, the payment methods, a volume range), the
// answers the rules no longer ask for are dropped, so the entry sent holds only what
// the schema expects. Only when what they depend on is known: a half-filled draft keeps
// everything.
import {
  LEGACY_FIELDS,
  needsAcceptanceMethods,
  needsCurrentlyAcceptsCard,
  needsFulfillment,
  needsRule1Fields,
  paymentMethodsOf,
  statementsRequired,
} from './index.js';
import { getPath, isRecord, unsetPath, type Draft, type Path } from './draft.js';

/** The draft without the answers the rules no longer ask for. */
export function pruneIrrelevant(d: Draft): Draft {
  let next = d;
  const drop = (path: Path) => (next = unsetPath(next, path));
  const B = ['business'];
  const U = [...B, 'underwriting'];
  const type = getPath(next, [...B, 'business_type']);
  if (typeof type === 'string' && type !== 'soleProprietorship') drop([...B, 'ssn']);
  const underwriting = getPath(next, U);
  if (isRecord(underwriting)) {
    for (const k of LEGACY_FIELDS) drop([...B, k]);
    const methods = getPath(next, [...U, 'payment_methods']);
    if (Array.isArray(methods)) {
      if (!needsCurrentlyAcceptsCard(next)) drop([...U, 'currently_accepts_card']);
      if (!needsAcceptanceMethods(next)) drop([...U, 'acceptance_methods']);
      const inPerson = getPath(next, [...U, 'acceptance_methods', 'in_person']);
      if (!methods.includes('card') || typeof inPerson === 'number') {
        if (!needsFulfillment(next)) for (const k of ['fulfillment_method', 'fulfillment_timeframe', 'refund_policy']) drop([...U, k]);
      }
      for (const m of ['ach', 'card'] as const) if (!methods.includes(m)) drop([...U, 'collect_funds', m]);
      const cf = getPath(next, [...U, 'collect_funds']);
      if (isRecord(cf) && Object.keys(cf).length === 0) drop([...U, 'collect_funds']);
    }
    const sections = [['collect_funds', 'ach'], ['collect_funds', 'card'], ['send_funds', 'ach'], ['send_funds', 'instant_bank']];
    for (const [g, s] of sections) {
      const A = [...U, g!, s!, 'expected_transaction_activity'];
      if (getPath(next, [...A, 'monthly_volume_range']) === 'under-10k') {
        drop([...A, 'average_transaction_amount']);
        drop([...A, 'maximum_transaction_amount']);
      }
    }
    const rangesKnown = ['send_funds.ach', 'send_funds.instant_bank', ...paymentMethodsOf(next).map((m) => `collect_funds.${m}`)].every(
      (p) => getPath(next, [...U, ...p.split('.'), 'expected_transaction_activity', 'monthly_volume_range']) !== undefined,
    );
    if (getPath(next, [...U, 'geographich_reach']) !== undefined && rangesKnown && !needsRule1Fields(next)) {
      for (const k of ['business_presence', 'pending_litigation', 'volume_by_customer_type']) drop([...U, k]);
    }
    const accepts = getPath(next, [...U, 'currently_accepts_card']);
    if (typeof accepts === 'boolean' || (Array.isArray(methods) && methods.length === 0)) {
      drop([...B, statementsRequired(next) === 'processing' ? 'bank_statements' : 'processing_statements']);
    }
  }
  return next;
}
