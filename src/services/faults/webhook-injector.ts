// Which fault, if any, one webhook attempt gets: the endpoint's rules (scope webhook of
// the one rule store, in memory per config_version: rule-set.ts, as the API's injector
// has them), and a matching attempt counts a call of each active rule in one write.
// A delivery held back once (delay, reorder) is not held again by its next attempt, so a
// hold rule without first/count still lets every event through: the mark is on the
// delivery row, written with the rule's counters, so it holds after a restart and when
// another server makes the next attempt.
import type { Store as Database } from '../../store/interfaces/db.js';
import { inWindow, webhookEffectOf, type InjectedWebhookFault } from '../../domain/faults.js';
import { countAndChoose, rulesInMemory, rulesNow } from './rule-set.js';

/** False when the rules loaded under the current config_version hold none of this endpoint. */
export function mayFaultEndpoint(db: Database, endpointId: string): boolean {
  const state = rulesInMemory(db, 'webhook');
  return state === undefined || state.byOwner.has(endpointId);
}

/** The fault of one attempt of `delivery` to `endpointId` at the group's time `nowMs`, or undefined. */
export async function injectWebhookFault(db: Database, endpointId: string, delivery: { id: number; heldOnce: boolean }, nowMs: number): Promise<InjectedWebhookFault | undefined> {
  const rules = (await rulesNow(db, 'webhook')).byOwner.get(endpointId);
  if (!rules) return undefined;
  const active = rules.filter((r) => inWindow(r, nowMs) && !(delivery.heldOnce && (r.action === 'delay' || r.action === 'reorder')));
  if (active.length === 0) return undefined;
  return db.write(async (tx) => {
    const fired = await countAndChoose(tx, 'webhook', active);
    const out = fired && { effect: webhookEffectOf(fired.rule, fired.call), rule: fired.rule.id, call: fired.call };
    if (out && 'holdMs' in out.effect) await tx.repos.webhookDeliveries.markHeld(tx, delivery.id);
    return out;
  });
}
