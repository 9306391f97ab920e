// What products, partners and invoices share: the bounds, the field schemas a product
// and an invoice line both use, the due date, and the shape of a list answer.
import { z } from 'zod';
import { uint64 } from '../money.js';
import { requiredText, uuid } from '../strings.js';
import { dateSchema, readInstant } from '../time.js';

// ---------------------------------------------------------------- bounds

export const PRODUCT_NAME_MAX = 100;
export const PRODUCT_DESCRIPTION_MAX = 255;
/** Lines per invoice (the spec shows no limit; arrays are bounded, docs/decisions.md#unknown-fields). */
export const INVOICE_LINES_MAX = 100;
export const EXTERNAL_ID_MAX = 255;
export const PROCESSOR_ID_MAX = 100;
export const UNITS_OF_MEASURE = ['pc'] as const;
export type UnitOfMeasure = (typeof UNITS_OF_MEASURE)[number];

// ---------------------------------------------------------------- shared pieces

export const productName = requiredText(PRODUCT_NAME_MAX);
// The spec's listing says uint64 for description, but its description and example are text.
export const productDescription = requiredText(PRODUCT_DESCRIPTION_MAX);
export const unitOfMeasure = z.enum(UNITS_OF_MEASURE, { error: 'must be "pc" (the only supported unit of measure)' });
export const quantity = uint64.min(1, { error: 'must be at least 1' });
/** A UUID reference, with a clear message when it is missing. */
export const ref = z.string({ error: 'is required and must be a UUID' }).pipe(uuid);

/** `YYYY-MM-DD` that names a real calendar day, years 1970–9999 (2026-02-30 is refused): src/domain/time.ts. */
export const dueDate = dateSchema.meta({ format: 'date', description: 'the due day, YYYY-MM-DD (years 1970 to 9999); the invoice is past_due from the next midnight UTC' });

export function isCalendarDate(s: string): boolean {
  return readInstant(s, { dateOnly: true }).ok;
}

/** A list answer: `{data: {items, total_count}}`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.object({ items: z.array(item), total_count: z.number().int() }) });
