// An invoice's lines: built from products on create, reconciled with the attached lines
// on update (spec 9: the copied product values cannot change; every problem is reported
// at once), the total held to MAX_AMOUNT.
import { validationError, type FieldProblem } from '../../errors.js';
import { MAX_AMOUNT } from '../money.js';
import type { UnitOfMeasure } from './fields.js';
import type { Product } from './products.js';
import { invoiceTotal, type CreateInvoiceLineInput, type InvoiceLine, type UpdateInvoiceLineInput } from './invoices.js';

// ---------------------------------------------------------------- lines

/** The product values an invoice line copies. */
export type ProductValues = Pick<Product, 'id' | 'name' | 'description' | 'amount' | 'included_tax_amount' | 'unit_of_measure'>;

/** A line to attach: the product's values at attach time plus a quantity. */
export interface NewInvoiceLine {
  product_id: string;
  name: string;
  description: string;
  amount: number;
  included_tax_amount: number;
  unit_of_measure: UnitOfMeasure;
  quantity: number;
}

/** An attached line the update keeps; quantity is the requested one (changed tells whether it differs). */
export interface KeptInvoiceLine {
  line: InvoiceLine;
  quantity: number;
  changed: boolean;
}

export interface LineReconciliation {
  keep: KeptInvoiceLine[];
  add: NewInvoiceLine[];
  /** Attached lines the request did not send. */
  detach: InvoiceLine[];
  /** The resulting lines in request order (kept lines carry their id). */
  lines: Array<NewInvoiceLine & { id?: string }>;
  /** The new invoice amount. */
  amount: number;
}

const COPIED_FIELDS = ['name', 'description', 'amount', 'included_tax_amount', 'unit_of_measure'] as const;

function copyOf(product: ProductValues): Omit<NewInvoiceLine, 'quantity'> {
  return {
    product_id: product.id,
    name: product.name,
    description: product.description,
    amount: product.amount,
    included_tax_amount: product.included_tax_amount ?? 0,
    unit_of_measure: product.unit_of_measure,
  };
}

/** The invoice total is an amount the platform makes: held to MAX_AMOUNT (docs/decisions.md#amounts). */
function checkTotal(lines: ReadonlyArray<{ amount: number; quantity: number }>, problems: FieldProblem[]): number {
  const total = invoiceTotal(lines);
  if (total > BigInt(MAX_AMOUNT)) {
    problems.push({ path: 'products', message: `the invoice total (Σ amount × quantity = ${total} cents) must be at most ${MAX_AMOUNT} cents` });
    return 0;
  }
  return Number(total);
}

/** Lines of a new invoice (create extension): each product_id must be a product of the group. */
export function buildInvoiceLines(
  requested: ReadonlyArray<CreateInvoiceLineInput>,
  productsById: ReadonlyMap<string, ProductValues>,
): { lines: NewInvoiceLine[]; amount: number } {
  const problems: FieldProblem[] = [];
  const lines: NewInvoiceLine[] = [];
  requested.forEach((r, i) => {
    const product = productsById.get(r.product_id);
    if (!product) problems.push({ path: `products.${i}.product_id`, message: 'must be an existing product of this group' });
    else lines.push({ ...copyOf(product), quantity: r.quantity });
  });
  const amount = problems.length ? 0 : checkTotal(lines, problems);
  if (problems.length) throw validationError(problems);
  return { lines, amount };
}

/**
 * Update Invoice (spec 9) line rules:
 * - a line with `id` keeps that attached line: its copied product values stay as they
 *   were attached (even if the product changed since); its quantity becomes the
 *   requested one. The id must be a line of this invoice, listed once
 *   (else products.N.id) and its product_id must be that line's (else products.N.product_id);
 * - a line without `id` attaches a new line: product_id must be a product of the group
 *   (else products.N.product_id); the values are copied from the product;
 * - attached lines the request does not send are detached.
 * Decision: the copies (name, description, amount, included_tax_amount,
 * unit_of_measure) "cannot be changed by an invoice update". A copy that differs from
 * the kept line (or, for a new line, the product) is refused with a 400 naming the
 * field, rather than silently ignored, so a client that believes it changed a price
 * learns that it did not. Every problem is reported at once.
 */
export function reconcileInvoiceLines(
  existingLines: ReadonlyArray<InvoiceLine>,
  requestedLines: ReadonlyArray<UpdateInvoiceLineInput>,
  productsById: ReadonlyMap<string, ProductValues>,
): LineReconciliation {
  const problems: FieldProblem[] = [];
  const existingById = new Map(existingLines.map((l) => [l.id, l]));
  const seen = new Map<string, number>();
  const keep: KeptInvoiceLine[] = [];
  const add: NewInvoiceLine[] = [];
  const lines: LineReconciliation['lines'] = [];

  requestedLines.forEach((r, i) => {
    const at = (field: string) => `products.${i}.${field}`;
    let source: Omit<NewInvoiceLine, 'quantity'> | undefined;
    let kept: InvoiceLine | undefined;

    if (r.id !== undefined) {
      kept = existingById.get(r.id);
      const first = seen.get(r.id);
      if (!kept) {
        problems.push({ path: at('id'), message: 'must be the id of a product line of this invoice (omit it to add a new line)' });
        return;
      }
      if (first !== undefined) {
        problems.push({ path: at('id'), message: `line ${r.id} is already listed at products.${first}` });
        return;
      }
      seen.set(r.id, i);
      if (r.product_id !== kept.product_id) {
        problems.push({ path: at('product_id'), message: `must be ${kept.product_id}, the product of line ${r.id}` });
        return;
      }
      source = kept;
    } else {
      const product = productsById.get(r.product_id);
      if (!product) {
        problems.push({ path: at('product_id'), message: 'must be an existing product of this group' });
        return;
      }
      source = copyOf(product);
    }

    for (const field of COPIED_FIELDS) {
      if (r[field] !== source[field]) {
        const what = kept ? 'the attached line' : 'the product';
        problems.push({
          path: at(field),
          message: `must equal ${what}'s value ${JSON.stringify(source[field])}; product values cannot be changed by an invoice update`,
        });
      }
    }

    const values: NewInvoiceLine = { ...pickCopies(source), quantity: r.quantity };
    if (kept) {
      keep.push({ line: kept, quantity: r.quantity, changed: r.quantity !== kept.quantity });
      lines.push({ id: kept.id, ...values });
    } else {
      add.push(values);
      lines.push(values);
    }
  });

  const amount = checkTotal(lines, problems);
  if (problems.length) throw validationError(problems);
  const detach = existingLines.filter((l) => !seen.has(l.id));
  return { keep, add, detach, lines, amount };
}

function pickCopies(s: Omit<NewInvoiceLine, 'quantity'>): Omit<NewInvoiceLine, 'quantity'> {
  return {
    product_id: s.product_id,
    name: s.name,
    description: s.description,
    amount: s.amount,
    included_tax_amount: s.included_tax_amount,
    unit_of_measure: s.unit_of_measure,
  };
}
