// Clock advance billing due subscriptions: filled in once recurring billing exists.
import { skipped, type BenchConfig, type Outcome } from '../lib/outcome.js';

export async function billingScenario(_cfg: BenchConfig, _log: (line: string) => void): Promise<Outcome[]> {
  return [skipped('billing', 'clock advance billing due subscriptions', 'not available yet')];
}
