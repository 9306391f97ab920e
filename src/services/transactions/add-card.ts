// Add Card for an existing Customer: a card token and its billing address go to the vault.
import { platformClock, type Platform } from '../platform.js';
import { addCardSchema } from '../../domain/transactions.js';
import type { CustomerCard } from '../../domain/customers.js';
import { parseOrThrow, validationError } from '../../errors.js';
import { requireLinkedAccount } from '../groups.js';
import { requireCustomer, storeCard, toCustomerCard } from '../customers.js';
import { consumeToken } from '../tokens.js';

export async function addCard(p: Platform, groupId: string, linkedAccountId: string, customerId: string, body: unknown): Promise<CustomerCard> {
  const req = parseOrThrow(addCardSchema, body);
  await requireLinkedAccount(p.db, groupId, linkedAccountId);
  await requireCustomer(p.db, groupId, customerId);
  return p.db.write(async (tx) => {
    const now = p.clock.now();
    const token = await consumeToken(tx, req.token, platformClock(p).now(), 'token');
    if (token.type !== 'card') throw validationError([{ path: 'token', message: 'must be a card token (this one is a bank account)' }]);
    const row = await storeCard(tx, { groupId, customerId, linkedAccountId, token, billing: req.billing_address, now: now.toISOString() });
    return toCustomerCard(row);
  });
}
