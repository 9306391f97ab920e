// Where an object's page is, and which fields of an API object name another object.
import { enc } from '../html.js';
import type { Event } from '../../../domain/events.js';

export const objectHref = (groupId: string, kind: string, id: string) => `/dashboard/groups/${enc(groupId)}/objects/${enc(kind)}/${enc(id)}`;

/** An API field holding another object's id → that object's kind. */
export const RELATED_FIELDS: Record<string, string> = {
  customer_id: 'customer',
  card_id: 'card',
  plan_id: 'plan',
  subscription_id: 'subscription',
  product_id: 'product',
  invoice_id: 'invoice',
  partner_id: 'partner',
  payment_link_id: 'payment_link',
  transaction_id: 'transaction',
};

/** Every [kind, id] an API object names (its own fields and those of its parts, a few levels deep; a part that is a whole object of a kind, by its id). */
export function relatedOf(object: unknown, own: string): Array<[string, string]> {
  const found = new Map<string, [string, string]>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 3 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.slice(0, 200).forEach((x) => walk(x, depth + 1));
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const kind = RELATED_FIELDS[k];
      if (kind && typeof x === 'string' && x !== '' && x !== own) found.set(`${kind}:${x}`, [kind, x]);
      else {
        // An object carried whole under its kind's name (an invoice's `partner`): its id.
        const whole = RELATED_FIELDS[`${k}_id`];
        const id = whole && x !== null && typeof x === 'object' ? (x as { id?: unknown }).id : undefined;
        if (whole && typeof id === 'string' && id !== '' && id !== own) found.set(`${whole}:${id}`, [whole, id]);
        walk(x, depth + 1);
      }
    }
  };
  walk(object, 0);
  return [...found.values()];
}

/** The id of an event's object: its `id`, or a card's `card_id` (a card has no `id` field). */
export function eventObjectId(e: Event): string | undefined {
  const o = e.data.object as { id?: unknown; card_id?: unknown };
  const id = o.id ?? o.card_id;
  return typeof id === 'string' ? id : undefined;
}
