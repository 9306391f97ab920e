// Add Card for an existing Customer: a card token and its billing address go to the vault.
import { z } from 'zod';
import { platformClock, type Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import { useCase } from '../use-case.js';
import { event } from '../events/events.js';
import type { GroupContext } from '../context.js';
import { addCardSchema } from '../../domain/transactions.js';
import type { CustomerCard } from '../../domain/customers.js';
import { validationError } from '../../errors.js';
import { requireLinkedAccount } from '../groups/groups.js';
import { requireCustomer, storeCard, toCustomerCard } from '../customers/customers.js';
import { consumeToken } from '../tokens/tokens.js';

/** The card token and billing address of the request, for the path's linked account and customer. */
export const addCard = useCase({
  input: addCardSchema.extend({ linked_account_id: z.string(), customer_id: z.string() }),
  async run(p: Platform, ctx: GroupContext, req): Promise<CustomerCard> {
    const groupId = ctx.group;
    const { linked_account_id: linkedAccountId, customer_id: customerId } = req;
    await requireLinkedAccount(ctx.store, groupId, linkedAccountId);
    await requireCustomer(ctx.store, groupId, customerId);
    return unitOfWork(ctx, async ({ tx, emit }) => {
      const now = ctx.clock.now();
      const token = await consumeToken(tx, req.token, platformClock(p).now(), 'token');
      if (token.type !== 'card') throw validationError([{ path: 'token', message: 'must be a card token (this one is a bank account)' }]);
      const row = await storeCard(tx, { groupId, customerId, linkedAccountId, token, billing: req.billing_address, now: now.toISOString() });
      const card = toCustomerCard(row);
      emit(event('card.added', card));
      return card;
    });
  },
});
