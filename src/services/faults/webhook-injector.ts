// Which fault, if any, one webhook attempt gets: the same shape as the API's injector
// (injector.ts): the rules in memory per config_version, an endpoint without rules costs
// one map lookup, and a matching attempt counts a call of each active rule in one write.
// A delivery held back once (delay, reorder) is not held again by its next attempt, so a
// hold rule without first/count still lets every event through: the mark is on the
// delivery row, written with the rule's counters, so it holds after a restart and when
// another server makes the next attempt.
import type { Store as Database } from '../../store/interfaces/db.js';
import { configCache } from '../../store/config-cache.js';
import { fires, inWindow, webhookEffectOf, type InjectedWebhookFault, type WebhookFaultRule } from '../../domain/faults.js';

interface Loaded {
  version: number;
  byEndpoint: Map<string, WebhookFaultRule[]>;
}

const loaded = new WeakMap<Database, Loaded>();

async function rulesNow(db: Database): Promise<Loaded> {
  const cache = configCache(db);
  const version = cache.currentVersion ?? (await cache.check(db));
  const current = loaded.get(db);
  if (current?.version === version) return current;
  const byEndpoint = new Map<string, WebhookFaultRule[]>();
  for (const r of await db.repos.webhookFaultRules.listAll(db)) byEndpoint.set(r.endpoint_id, [...(byEndpoint.get(r.endpoint_id) ?? []), r]);
  const next = { version, byEndpoint };
  loaded.set(db, next);
  return next;
}

/** False when the rules loaded under the current config_version hold none of this endpoint. */
export function mayFaultEndpoint(db: Database, endpointId: string): boolean {
  const state = loaded.get(db);
  if (state === undefined || state.version !== configCache(db).currentVersion) return true;
  return state.byEndpoint.has(endpointId);
}

/** The fault of one attempt of `delivery` to `endpointId` at the group's time `nowMs`, or undefined. */
export async function injectWebhookFault(db: Database, endpointId: string, delivery: { id: number; heldOnce: boolean }, nowMs: number): Promise<InjectedWebhookFault | undefined> {
  const rules = (await rulesNow(db)).byEndpoint.get(endpointId);
  if (!rules) return undefined;
  const active = rules.filter((r) => inWindow(r, nowMs) && !(delivery.heldOnce && (r.action === 'delay' || r.action === 'reorder')));
  if (active.length === 0) return undefined;
  const chosen = await db.write(async (tx) => {
    const counters = new Map((await tx.repos.webhookFaultRules.counters(tx, active.map((r) => r.id))).map((c) => [c.id, c]));
    let out: InjectedWebhookFault | undefined;
    for (const r of active) {
      const c = counters.get(r.id);
      if (!c) continue;
      if (r.count !== undefined && c.fired >= r.count) continue;
      const call = c.calls + 1;
      const fire = out === undefined && fires(r, call);
      if (fire) out = { effect: webhookEffectOf(r, call), rule: r.id, call };
      await tx.repos.webhookFaultRules.setCounters(tx, r.id, call, c.fired + (fire ? 1 : 0));
    }
    if (out && 'holdMs' in out.effect) await tx.repos.webhookDeliveries.markHeld(tx, delivery.id);
    return out;
  });
  return chosen;
}
