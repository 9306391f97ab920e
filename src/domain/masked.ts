// Where a value kept by the journal (or a recording) holds a masked one — `[redacted]`
// whole or in a text, or a tax id's `•••••6789` (./sensitive.ts) — so that what reads it
// back (the dashboard's "send again", docs/dashboard.md) never sends a mask as if it were
// the value the client sent.
import { REDACTED } from './sensitive.js';

const LAST_FOUR_MASK = '•••••';

/** Whether a text holds a mask. */
export const holdsMask = (text: string): boolean => text.includes(REDACTED) || text.includes(LAST_FOUR_MASK);

/** The path (`card.number`, `items.0.ssn`) of the first masked value in `value`, or undefined when nothing is masked. */
export function firstMasked(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return holdsMask(value) ? at || '(body)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [k, v] of entries) {
    const found = firstMasked(v, at ? `${at}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}
