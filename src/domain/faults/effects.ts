// What a fired API fault rule does to one call: its effect (drawn from the rule's seed),
// the processor outcome a decline-type action forces, and how the fault is named.
import type { Outcome } from '../../processor/test-cards.js';
import { DECLINE_CODES, type ApiFaultRule } from './api-rules.js';
import { uniform } from './schedule.js';

/** What the dispatcher does with a request (one fault per request: the first rule that fires). */
export type FaultEffect =
  | { action: 'latency'; ms: number }
  | { action: 'error'; status: number; retry_after?: number }
  | { action: 'timeout_after_commit'; ms: number }
  | { action: 'decline' | 'avs_mismatch' | 'cvv_mismatch' | 'processor_unavailable'; outcome: Outcome };

export interface InjectedFault {
  effect: FaultEffect;
  /** The rule that fired, or `simulate` for the one-off header. */
  rule: string;
  /** The rule's call number that fired (absent for the header). */
  call?: number;
}

/** The processor outcome a decline-type action forces. */
export function forcedOutcome(action: FaultEffect['action'], responseCode?: string): Outcome {
  if (action === 'avs_mismatch') return { approved: false, response_code: 'N7', response_text: DECLINE_CODES.N7!, avs: 'N', cvv: 'M' };
  if (action === 'cvv_mismatch') return { approved: false, response_code: 'N8', response_text: DECLINE_CODES.N8!, avs: 'Y', cvv: 'N' };
  const code = responseCode ?? (action === 'processor_unavailable' ? '91' : '05');
  return { approved: false, response_code: code, response_text: DECLINE_CODES[code] ?? 'Declined', avs: 'Y', cvv: 'M' };
}

/** The effect of rule `r` firing on call `call` (latency ranges are drawn from the seed). */
export function effectOf(r: ApiFaultRule, call: number): FaultEffect {
  switch (r.action) {
    case 'latency': {
      const lo = r.ms ?? 0;
      const hi = r.ms_max ?? lo;
      return { action: 'latency', ms: lo + Math.floor(uniform(r.seed, call, 1) * (hi - lo + 1)) };
    }
    case 'error':
      return { action: 'error', status: r.status!, ...(r.retry_after !== undefined ? { retry_after: r.retry_after } : {}) };
    case 'timeout_after_commit':
      return { action: 'timeout_after_commit', ms: r.ms ?? 0 };
    default:
      return { action: r.action, outcome: forcedOutcome(r.action, r.response_code) };
  }
}

/** The `Payctl-Fault` header value (also the request log's `fault`): the action, its parameters, the rule and call. */
export function describeFault(f: InjectedFault): string {
  const e = f.effect;
  const params: string[] = [e.action];
  if (e.action === 'latency' || e.action === 'timeout_after_commit') params.push(`ms=${e.ms}`);
  if (e.action === 'error') {
    params.push(`status=${e.status}`);
    if (e.retry_after !== undefined) params.push(`retry_after=${e.retry_after}`);
  }
  if ('outcome' in e) params.push(`response_code=${e.outcome.response_code}`);
  params.push(`rule=${f.rule}`);
  if (f.call !== undefined) params.push(`call=${f.call}`);
  return params.join('; ');
}
