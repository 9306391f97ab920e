// Shared string bounds: every string is bounded (docs/decisions.md#unknown-fields).
import { z } from 'zod';

export const DEFAULT_MAX = 5000;

/** Optional free text: at most 5,000 characters unless a tighter bound is given. */
export const text = (max = DEFAULT_MAX) => z.string().max(max, { error: `must be at most ${max} characters` });

/** Required non-empty text. */
export const requiredText = (max = DEFAULT_MAX) =>
  z.string({ error: 'is required and must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
  error: 'must be a UUID',
});

/** Object of string key-value pairs, bounded. */
export const customFields = z
  .record(z.string().max(100), z.union([z.string().max(DEFAULT_MAX), z.number(), z.boolean()]))
  .refine((o) => Object.keys(o).length <= 50, { error: 'at most 50 custom fields' });

export const email = z.email({ error: 'must be a valid e-mail address' }).max(100, { error: 'must be at most 100 characters' });

/** A timestamp in a response: RFC 3339, UTC with milliseconds (docs/decisions.md#identifiers). */
export const timestamp = z.string().meta({ format: 'date-time', description: 'RFC 3339 timestamp, UTC with milliseconds' });
