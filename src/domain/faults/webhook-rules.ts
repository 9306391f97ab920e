// Faults on webhook deliveries: the rules of an endpoint (the schedule every rule has,
// and an action on the attempt: duplicate, reorder, delay, drop, bad_signature), and
// what a fired rule does to one attempt.
import { z } from 'zod';
import { parseDuration } from '../time.js';
import { timestamp } from '../strings.js';
import { addProblems, need, refuse, scheduleFields, scheduleProblems, uniform, type Problem, type Schedule } from './schedule.js';

export const WEBHOOK_FAULT_ACTIONS = ['duplicate', 'reorder', 'delay', 'drop', 'bad_signature'] as const;
export type WebhookFaultAction = (typeof WEBHOOK_FAULT_ACTIONS)[number];

const platformDuration = (what: string) =>
  z.string().max(40, { error: 'must be at most 40 characters' }).refine(
    (v) => {
      try {
        const ms = parseDuration(v);
        return ms > 0 && ms <= 366 * 86_400_000;
      } catch {
        return false;
      }
    },
    { error: 'must be a duration of platform time from 1s to 366d: 30s, 5m, 2h, 1d12h' },
  ).describe(what);

export const webhookRuleFields = {
  ...scheduleFields,
  action: z.enum(WEBHOOK_FAULT_ACTIONS, { error: `must be one of ${WEBHOOK_FAULT_ACTIONS.join(', ')}` }).describe('What happens to an attempt the rule fires on'),
  delay: platformDuration("delay: how long the attempt is held, in the group's platform time (30s, 2h)").optional(),
  window: platformDuration('reorder: the attempt is held back by a time drawn from the seed within this window, so later events overtake it').optional(),
};

function webhookRuleProblems(v: Schedule & { action?: unknown; delay?: unknown; window?: unknown }): Problem[] {
  const out = scheduleProblems(v);
  const r = v as Record<string, unknown>;
  const action = v.action as WebhookFaultAction | undefined;
  if (action === undefined) return out;
  refuse(r, ['delay', 'window'].filter((f) => !(action === 'delay' && f === 'delay') && !(action === 'reorder' && f === 'window')), action, out);
  if (action === 'delay') need(r, 'delay', action, out);
  if (action === 'reorder') need(r, 'window', action, out);
  return out;
}

export const webhookFaultRuleSchema = z
  .strictObject(webhookRuleFields)
  .superRefine(addProblems(webhookRuleProblems))
  .meta({
    id: 'WebhookFaultRuleRequest',
    description:
      "A fault rule of a webhook endpoint: how often (rate, first or every; every attempt when none), for how long (count, from/until on the group clock), and what happens to an attempt (action). Recorded on the attempt (fault).",
  });
export const addWebhookFaultRuleInput = z
  .strictObject({ ...webhookRuleFields, group_id: z.string(), endpoint_id: z.string() })
  .superRefine(addProblems(webhookRuleProblems));
export type WebhookFaultRuleInput = z.output<typeof webhookFaultRuleSchema>;
export type WebhookFaultRule = WebhookFaultRuleInput & {
  id: string;
  group_id: string;
  endpoint_id: string;
  seed: number;
  calls: number;
  fired: number;
  created_at: string;
};
export const webhookFaultRuleResponseSchema = z
  .object({
    id: z.string(),
    group_id: z.string(),
    endpoint_id: z.string(),
    ...webhookRuleFields,
    seed: z.number().int().describe("The seed of the rule's draws (the one given, or the one generated)"),
    calls: z.number().int().describe('Attempts seen so far'),
    fired: z.number().int().describe('Attempts the rule fired on so far'),
    created_at: timestamp,
  })
  .meta({ id: 'WebhookFaultRule' });
export const webhookFaultRuleListSchema = z.object({ data: z.array(webhookFaultRuleResponseSchema) }).meta({ id: 'WebhookFaultRuleList' });

/** What a fired webhook rule does to one attempt. */
export type WebhookFaultEffect =
  | { action: 'duplicate' | 'drop' | 'bad_signature' }
  | { action: 'delay' | 'reorder'; holdMs: number };

export interface InjectedWebhookFault {
  effect: WebhookFaultEffect;
  rule: string;
  call: number;
}

/** The effect of webhook rule `r` firing on attempt `call` (a reorder's hold is drawn from the seed within its window). */
export function webhookEffectOf(r: WebhookFaultRule, call: number): WebhookFaultEffect {
  if (r.action === 'delay') return { action: 'delay', holdMs: parseDuration(r.delay!) };
  if (r.action === 'reorder') return { action: 'reorder', holdMs: 1000 + Math.floor(uniform(r.seed, call, 1) * Math.max(1, parseDuration(r.window!) - 1000)) };
  return { action: r.action };
}

/** How an attempt names its fault (the attempt's `fault`): `drop; rule=<id>; call=<n>`, a hold with its length. */
export function describeWebhookFault(f: InjectedWebhookFault): string {
  const hold = 'holdMs' in f.effect ? `; held=${Math.round(f.effect.holdMs / 1000)}s` : '';
  return `${f.effect.action}${hold}; rule=${f.rule}; call=${f.call}`;
}
