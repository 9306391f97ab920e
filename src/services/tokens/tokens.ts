// The tokenizer: turns card or bank details into a single-use token and keeps only
// brand, first six, last four, expiry and holder name. Fixed test tokens (tok_visa …)
// are reusable and never stored.
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import type { RequestContext } from '../context.js';
import type { Executor, Tx } from '../../store/interfaces/db.js';
import { invalidRequest, validationError } from '../../errors.js';
import { tokenInputSchema, type TokenEntity, type TokenRequest, type TokenResponse } from '../../domain/tokens.js';
import { cvvLength, detectBrand, luhnValid, routingNumberValid } from '../../processor/cards.js';
import { bankOutcome, cardOutcome, testCards } from '../../processor/test-cards.js';
import { randomBase62 } from '../../lib/ids.js';

export const TOKEN_TTL_MS = 15 * 60 * 1000;

/** POST /api/v1/tokens and `payctl token create`: acts for no group (a token belongs to none until used). */
export const mintToken = useCase({
  input: tokenInputSchema,
  run: mint,
});

async function mint(p: Platform, ctx: RequestContext, parsed: TokenRequest): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const base = {
    token: `tok_${randomBase62(24)}`,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + TOKEN_TTL_MS).toISOString(),
    used_at: null,
  };
  let row: TokenEntity;
  if ('card' in parsed) {
    const c = parsed.card;
    const brand = detectBrand(c.number);
    const problems = [];
    if (!luhnValid(c.number)) problems.push({ path: 'card.number', message: 'is not a valid card number (Luhn check failed)' });
    else if (!brand) problems.push({ path: 'card.number', message: 'brand not supported (Visa, Mastercard, American Express, Discover)' });
    if (brand && c.cvv.length !== cvvLength(brand)) {
      problems.push({ path: 'card.cvv', message: `must be ${cvvLength(brand)} digits for ${brand}` });
    }
    const endOfExpiryMonth = Date.UTC(c.expiration_year, c.expiration_month, 1);
    if (endOfExpiryMonth <= now.getTime()) problems.push({ path: 'card.expiration_year', message: 'the card has expired' });
    if (problems.length) throw validationError(problems);
    row = {
      ...base,
      type: 'card',
      brand: brand!,
      card_type: 'credit',
      first_six: c.number.slice(0, 6),
      last_four: c.number.slice(-4),
      exp_month: c.expiration_month,
      exp_year: c.expiration_year,
      holder_name: c.holder_name ?? '',
      routing_number: null,
      account_type: null,
      cvv_supplied: true,
      test_outcome: cardOutcome(c.number),
    };
  } else {
    const b = parsed.bank_account;
    if (!routingNumberValid(b.routing_number)) {
      throw validationError([{ path: 'bank_account.routing_number', message: 'is not a valid ABA routing number (checksum failed)' }]);
    }
    row = {
      ...base,
      type: 'bank_account',
      brand: null,
      card_type: null,
      first_six: null,
      last_four: b.account_number.slice(-4),
      exp_month: null,
      exp_year: null,
      holder_name: b.holder_name ?? '',
      routing_number: b.routing_number,
      account_type: b.account_type,
      cvv_supplied: false,
      test_outcome: bankOutcome(b.account_number),
    };
  }
  return unitOfWork(ctx, async ({ tx }) => {
    await tx.repos.tokens.insert(tx, row);
    return toTokenResponse(row);
  });
}

export function toTokenResponse(row: TokenEntity): TokenResponse {
  return {
    token: row.token,
    type: row.type,
    expires_at: row.expires_at,
    ...(row.type === 'card'
      ? {
          card: {
            brand: row.brand!,
            card_type: row.card_type!,
            first_six: row.first_six!,
            last_four: row.last_four,
            expiration_month: row.exp_month!,
            expiration_year: row.exp_year!,
            holder_name: row.holder_name,
          },
        }
      : {
          bank_account: {
            routing_number: row.routing_number!,
            last_four: row.last_four,
            account_type: row.account_type!,
            holder_name: row.holder_name,
          },
        }),
  };
}

/** The fixed, reusable test tokens (tok_visa, tok_ach …), expiring five years from `now`. */
export function fixedToken(token: string, now: Date): TokenEntity | undefined {
  const far = new Date(now.getTime() + 5 * 365 * 86_400_000);
  const card = testCards().cards.find((c) => c.token === token);
  // Plain literals, no `...common`: on this V8 (Node 20) a spread followed by more
  // properties takes a slow path, ~25 µs here on every token sale.
  const created_at = now.toISOString();
  const expires_at = far.toISOString();
  if (card) {
    return {
      token,
      created_at,
      expires_at,
      used_at: null,
      holder_name: 'Test Holder',
      type: 'card',
      brand: card.brand,
      card_type: 'credit',
      first_six: card.number.slice(0, 6),
      last_four: card.number.slice(-4),
      exp_month: 12,
      exp_year: far.getUTCFullYear(),
      routing_number: null,
      account_type: null,
      cvv_supplied: true,
      test_outcome: card.outcome,
    };
  }
  const bank = testCards().bank_accounts.find((b) => b.token === token);
  if (bank) {
    return {
      token,
      created_at,
      expires_at,
      used_at: null,
      holder_name: 'Test Holder',
      type: 'bank_account',
      brand: null,
      card_type: null,
      first_six: null,
      last_four: bank.account_number.slice(-4),
      exp_month: null,
      exp_year: null,
      routing_number: bank.routing_number,
      account_type: 'checking',
      cvv_supplied: false,
      test_outcome: bank.outcome,
    };
  }
  return undefined;
}

/**
 * Use a token inside a write transaction: fixed test tokens always work; a minted token
 * works once and before it expires (compare-and-set on used_at). `now` is the platform
 * clock's time, not the group's: a minted token belongs to no group until it is used.
 * `path` names the request field for the error.
 */
export async function consumeToken(tx: Tx, token: string, now: Date, path = 'payment_details.token'): Promise<TokenEntity> {
  const fixed = fixedToken(token, now);
  if (fixed) return fixed;
  const row = await tx.repos.tokens.find(tx, token);
  if (!row) throw validationError([{ path, message: 'is not a known token (mint one with POST /api/v1/tokens)' }]);
  if (row.used_at) throw invalidRequest(`${path}: this token was already used; tokens are single-use`, [{ path, message: 'token already used' }]);
  if (row.expires_at <= now.toISOString()) {
    throw invalidRequest(`${path}: this token has expired (tokens live 15 minutes)`, [{ path, message: 'token expired' }]);
  }
  const { changes } = await tx.repos.tokens.markUsed(tx, token, now.toISOString());
  if (changes !== 1) throw invalidRequest(`${path}: this token was already used; tokens are single-use`, [{ path, message: 'token already used' }]);
  return row;
}

/** Look a token up without using it (e.g. to validate before a charge). */
export async function peekToken(ex: Executor, token: string, now: Date): Promise<TokenEntity | undefined> {
  return fixedToken(token, now) ?? (await ex.repos.tokens.find(ex, token));
}
