// Add Card for an existing Customer: a card token and its billing address go to the vault.
import { platformClock, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { GroupContext } from '../context.js';
import { addCardSchema } from '../../domain/transactions.js';
import type { CustomerCard } from '../../domain/customers.js';
import { parseOrThrow, validationError } from '../../errors.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { requireCustomer, storeCard, toCustomerCard } from '../customers/customers.js';
import { consumeToken } from '../tokens/tokens.js';

export async function addCard(p: Platform, ctx: GroupContext, linkedAccountId: string, customerId: string, body: unknown): Promise<CustomerCard> {
  const groupId = ctx.group;
  const req = parseOrThrow(addCardSchema, body);
  await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
  await requireCustomer(ctx.store, groupId, customerId);
  return unitOfWork(ctx, async ({ tx }) => {
    const now = ctx.clock.now();
    const token = await consumeToken(tx, req.token, platformClock(p).now(), 'token');
    if (token.type !== 'card') throw validationError([{ path: 'token', message: 'must be a card token (this one is a bank account)' }]);
    const row = await storeCard(tx, { groupId, customerId, linkedAccountId, token, billing: req.billing_address, now: now.toISOString() });
    return toCustomerCard(row);
  });
}
