// Turning flag values into request bodies: the body is validated by the request
// schema of src/domain (as an HTTP body is), so these helpers only shape JSON.
import { usage } from '../usage.js';

/** Drop undefined members, so the request schema reports missing fields by their API names. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `ID:QTY` (or `ID`, quantity 1) of --product, --add-product and --quantity. */
export function idQuantity(flag: string, text: string): { id: string; quantity: number } {
  const m = /^([^:\s]+)(?::(\d+))?$/.exec(text.trim());
  if (!m) throw usage(`--${flag} "${text}" must be ID or ID:QUANTITY`);
  return { id: m[1]!, quantity: m[2] === undefined ? 1 : Number(m[2]) };
}

/** `key=value` pairs of a repeatable flag as an object. */
export function keyValuePairs(flag: string, pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usage(`--${flag}: "${pair}" must be key=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}
