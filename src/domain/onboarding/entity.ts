// A signup entry as the store keeps it, and the masking of its tax ids.
import { maskLastFour, TAX_ID_FIELDS } from '../sensitive.js';
import { isRecord } from './fields.js';
import type { SignupEntry } from './schema.js';

/** "123-45-6789" → "•••••6789"; short values are hidden entirely (the one masking: ./sensitive.ts). */
export const maskValue = maskLastFour;

/** A copy of the entry (or draft) with every tax id (ssn, itin, ein: ./sensitive.ts) reduced to its last four. */
export function maskSensitive<T>(entry: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isRecord(v)) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, TAX_ID_FIELDS.has(k) && typeof x === 'string' ? maskValue(x) : walk(x)]),
    );
  };
  return walk(entry) as T;
}

/** A signup entry as the store keeps it: the validated entry, ssn/itin/ein masked to their last four. */
export interface SignupEntryEntity {
  id: string;
  signup_form_id: string;
  external_id: string | null;
  /** The business account (group) the entry created. */
  group_id: string;
  status: 'pending_review' | 'approved' | 'rejected';
  business_name: string;
  entry: SignupEntry;
  created_at: string;
}
