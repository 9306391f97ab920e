// Flag helpers shared by the product, invoice and partner commands.
import { Flags } from '@oclif/core';
import { AppError } from '../../errors.js';
import { parseMoney } from '../../domain/money.js';

export { groupFlag } from './group.js';
import { groupFlag } from './group.js';

/** The flags of `product create` and `product update` (the same body shape). */
export function productFlags(unitDefault?: string) {
  return {
    group: groupFlag,
    name: Flags.string({ description: 'product name (at most 100 characters)' }),
    description: Flags.string({ description: 'description (at most 255 characters)' }),
    amount: Flags.string({ description: 'unit price as money, tax included (12.34)' }),
    'amount-cents': Flags.integer({ description: 'unit price in cents' }),
    tax: Flags.string({ description: 'tax included in the price, as money' }),
    'tax-cents': Flags.integer({ description: 'tax included in the price, in cents' }),
    unit: Flags.string({ description: 'unit of measure (only pc is supported)', ...(unitDefault ? { default: unitDefault } : {}) }),
    file: Flags.string({ description: 'full request body as JSON (a path, or - for stdin)' }),
  };
}

export const pagingFlags = {
  limit: Flags.integer({ description: 'page size (1 to 1000)', default: 50 }),
  offset: Flags.integer({ description: 'items to skip', default: 0 }),
};

const usage = (message: string) => new AppError(400, 'validation_error', message);

/** An amount given as money (--amount 12.34) or cents (--amount-cents 1234); undefined when neither. */
export function amountFlag(flag: string, money: string | undefined, cents: number | undefined): number | undefined {
  if (money !== undefined && cents !== undefined) throw usage(`give --${flag} or --${flag}-cents, not both`);
  if (cents !== undefined) return cents;
  if (money === undefined) return undefined;
  try {
    return parseMoney(money);
  } catch (e) {
    throw usage(`--${flag}: ${(e as Error).message}`);
  }
}

/** `ID:QTY` (or `ID`, quantity 1) of --product and --quantity flags. */
export function idQuantity(flag: string, text: string): { id: string; quantity: number } {
  const m = /^([^:\s]+)(?::(\d+))?$/.exec(text.trim());
  if (!m) throw usage(`--${flag} "${text}" must be ID or ID:QUANTITY`);
  return { id: m[1]!, quantity: m[2] === undefined ? 1 : Number(m[2]) };
}

/** Drop undefined members so the request schema reports missing fields by name. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
