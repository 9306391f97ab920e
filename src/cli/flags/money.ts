// Amounts on the command line: money (--amount 12.34) or cents (--amount-cents 1234),
// never both. Both flags parse to cents, so a command reads one number; text that is
// not money, or not whole cents, is a usage error naming the flag.
import { Flags } from '@oclif/core';
import type { OptionFlag } from '@oclif/core/interfaces';
import { parseMoney } from '../../domain/money.js';
import { usage } from '../usage.js';
import { setsField } from './fields.js';

/** A money flag whose value is cents ("12.34" → 1234). */
export const moneyFlag = Flags.custom<number>({
  parse: async (text) => {
    try {
      return parseMoney(text);
    } catch (err) {
      throw usage((err as Error).message);
    }
  },
});

/** A cents flag: a whole number of cents ("1234"). */
export const centsFlag = Flags.custom<number>({
  parse: async (text) => {
    const t = text.trim();
    if (!/^\d{1,16}$/.test(t) || !Number.isSafeInteger(Number(t))) throw usage(`"${text}" is not a whole number of cents (write 1234 for $12.34)`);
    return Number(t);
  },
});

type AmountFlag = OptionFlag<number | undefined>;
type MoneyPair<N extends string> = { [K in N | `${N}-cents`]: AmountFlag };

/** --NAME (money) and --NAME-cents (cents) for one amount; `what` says what it is ("amount of each cycle"). */
export function moneyFlags<N extends string>(name: N, what: string, opts: { exclusive?: string[]; field?: string } = {}): MoneyPair<N> {
  const cents = `${name}-cents`;
  // Both set the same API field: errors on it name --NAME (src/cli/flags/fields.ts).
  const field = opts.field ?? name.replace(/-/g, '_');
  const mark = <T extends object>(flag: T) => setsField(flag, field);
  return {
    [name]: mark(moneyFlag({ description: `${what} as money, e.g. 12.34`, exclusive: [cents, ...(opts.exclusive ?? [])] })),
    [cents]: mark(centsFlag({ description: `${what} in cents, e.g. 1234`, exclusive: [name, ...(opts.exclusive ?? [])] })),
  } as MoneyPair<N>;
}

/** The cents of --NAME or --NAME-cents; undefined when neither was given. */
export function amountFrom(flags: object, name: string): number | undefined {
  const f = flags as Record<string, unknown>;
  return (f[name] ?? f[`${name}-cents`]) as number | undefined;
}
