// What capture and refund do to a transaction, as pure rules: given the stored
// transaction's state and the typed request, the outcome, or the user error (thrown).
// The service applies an outcome with a compare-and-set on the status in its unit of work.
import { z } from 'zod';
import { invalidRequest, validationError } from '../errors.js';

/** The stored state a capture reads. */
export interface CaptureState {
  status: string;
  authorized_amount: number;
  processor_id: string;
}

/**
 * A capture, typed: how much, and which request shape asked for it.
 * - `exact` (variant B, `{"amount"}`): must be the authorized amount.
 * - `up_to` (variant A, and the CLI): at most the authorized amount, at least 1 cent;
 *   `amount` absent means all of it; `processor_id`, when given, must be the auth's.
 * `path` names the request field the amount came from (for error messages).
 */
export type CaptureRequest =
  | { kind: 'exact'; amount: number; path: string }
  | { kind: 'up_to'; amount?: number; processor_id?: string; path: string };

/** The typed capture as a use case's input (built by the HTTP adapter from either body variant, or by the CLI from flags). */
export const captureRequestInput: z.ZodType<CaptureRequest> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exact'), amount: z.number().int().nonnegative(), path: z.string() }),
  z.object({ kind: z.literal('up_to'), amount: z.number().int().nonnegative().optional(), processor_id: z.string().optional(), path: z.string() }),
]);

export interface CaptureOutcome {
  amount: number;
  status: 'captured' | 'partially_captured';
}

export function captureOutcome(t: CaptureState, req: CaptureRequest): CaptureOutcome {
  if (t.status !== 'authorized') throw invalidRequest(`only an authorized transaction can be captured; this one is ${t.status}`);
  const problem = (message: string, path = req.path) => validationError([{ path, message }]);
  if (req.kind === 'exact') {
    if (req.amount !== t.authorized_amount) throw problem(`must equal the authorized amount (${t.authorized_amount})`);
  } else {
    if (req.processor_id !== undefined && req.processor_id !== t.processor_id) {
      throw problem('must be the processor of the authorized transaction', 'processor_id');
    }
    if (req.amount !== undefined && req.amount > t.authorized_amount) throw problem(`must not exceed the authorized amount (${t.authorized_amount})`);
    if (req.amount === 0) throw problem('must be at least 1 cent');
  }
  const amount = req.amount ?? t.authorized_amount;
  return { amount, status: amount === t.authorized_amount ? 'captured' : 'partially_captured' };
}

/** The stored state a refund reads. */
export interface RefundState {
  status: string;
  captured_amount: number;
  refunded_amount: number;
}

/** A refund of `amount` (all that is left when absent): how much it refunds. */
export function refundOutcome(t: RefundState, amount: number | undefined): { amount: number } {
  if (t.status !== 'settled' && t.status !== 'partially_refunded') {
    throw invalidRequest(`only a settled transaction can be refunded; this one is ${t.status} (void it instead if it is pending)`);
  }
  const remaining = t.captured_amount - t.refunded_amount;
  const value = amount ?? remaining;
  if (value > remaining) {
    throw invalidRequest(`refund of ${value} exceeds the ${remaining} left to refund`, [{ path: 'amount', message: `must be at most ${remaining}` }]);
  }
  return { amount: value };
}

/** The statuses a void moves from. */
export const VOIDABLE_STATUSES = ['pending', 'authorized'];
