// Partners: the businesses a group invoices (spec 12 list; create and get are extensions).
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { GroupContext } from '../context.js';
import { useCase } from '../use-case.js';
import type { Executor } from '../../store/interfaces/db.js';
import { createPartnerSchema, partnerListQuerySchema, type Partner, type PartnerList } from '../../domain/catalog.js';
import type { PartnerEntity } from '../../domain/catalog-entities.js';
import { notFound } from '../../errors.js';
import { newInGroup } from '../groups/groups.js';

export const createPartner = useCase({
  input: createPartnerSchema,
  async run(p: Platform, ctx: GroupContext, input): Promise<Partner> {
    // In the order the API answers a partner.
    const { company, first_name, last_name, email, line_1, line_2, city, country, subdivision, postal_code } = input;
    const partner: PartnerEntity = await newInGroup(ctx, { company, first_name, last_name, email, line_1, line_2, city, country, subdivision, postal_code });
    return unitOfWork(ctx, async ({ tx }) => {
      await tx.repos.partners.insert(tx, partner);
      return partner;
    });
  },
});

export const requirePartner = async (ex: Executor, groupId: string, id: string): Promise<PartnerEntity> =>
  (await ex.repos.partners.find(ex, groupId, id)) ?? Promise.reject(notFound('partner'));

export const getPartner = useCase({
  input: z.object({ partner_id: z.string() }),
  run: (p: Platform, ctx: GroupContext, input): Promise<Partner> => requirePartner(ctx.store, ctx.group, input.partner_id),
});

/** Get All Partners (spec 12): `name` matches company or person name, case-insensitive substring. */
export const listPartners = useCase({
  input: partnerListQuerySchema,
  async run(p: Platform, ctx: GroupContext, q): Promise<PartnerList> {
    return { data: await ctx.store.repos.partners.list(ctx.store, ctx.group, q) };
  },
});
