// Numbers for RELIABILITY.md: each suite prints one `RESULT <name> {json}` line, the store first (and
// appends it to $PAYCTL_RESULTS when set), and a seeded PRNG so "random" kill points
// are reproducible from the printed seed.
import { appendFileSync } from 'node:fs';

export function report(name: string, numbers: Record<string, unknown>): void {
  // The store the numbers were measured on (run-postgres.ts sets it for the PostgreSQL pass).
  const store = process.env.PAYCTL_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
  const line = `RESULT ${name} ${JSON.stringify({ store, ...numbers })}`;
  console.log(line);
  if (process.env.PAYCTL_RESULTS) appendFileSync(process.env.PAYCTL_RESULTS, `${line}\n`);
}

/** mulberry32: a small deterministic PRNG in [0, 1) (the seeder's). */
export { prng as seededRandom } from '../../src/dev/seed.js';
