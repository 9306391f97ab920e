// The simulated processor: a payment method's scripted outcome (data/test-cards.json)
// decides approval; an approved sale is pending, an approved auth authorized.
import { outcome, type Outcome } from './test-cards.js';

export interface Decision extends Outcome {
  status: 'pending' | 'authorized' | 'declined';
}

/** `forced`: a sandbox's fault, answered whatever the payment method's scripted outcome. */
export function decide(testOutcome: string, type: 'sale' | 'auth', forced?: Outcome): Decision {
  const o = forced ?? outcome(testOutcome);
  return { ...o, status: o.approved ? (type === 'auth' ? 'authorized' : 'pending') : 'declined' };
}
