// The simulated processor's scripted outcomes, from data/test-cards.json.
import { readFileSync } from 'node:fs';
import { dataFile } from '../lib/paths.js';
import type { Brand } from './cards.js';

export interface Outcome {
  approved: boolean;
  response_code: string;
  response_text: string;
  avs: string;
  cvv: string;
}

interface TestCardsFile {
  outcomes: Record<string, Outcome>;
  cards: Array<{ number: string; brand: Brand; outcome: string; token: string }>;
  bank_accounts: Array<{ routing_number: string; account_number: string; outcome: string; token: string }>;
}

let cached: TestCardsFile | undefined;
export function testCards(): TestCardsFile {
  cached ??= JSON.parse(readFileSync(dataFile('test-cards.json'), 'utf8')) as TestCardsFile;
  return cached;
}

export function outcome(name: string): Outcome {
  const o = testCards().outcomes[name];
  if (!o) throw new Error(`unknown test outcome ${name}`);
  return o;
}

/** The scripted outcome of a card number (approved for any other valid number). */
export function cardOutcome(number: string): string {
  return testCards().cards.find((c) => c.number === number)?.outcome ?? 'approved';
}

export function bankOutcome(accountNumber: string): string {
  return testCards().bank_accounts.find((b) => b.account_number === accountNumber)?.outcome ?? 'ach_approved';
}
