// Partners: the businesses a group invoices (spec 12 list; create and get are extensions).
import type { Platform } from '../platform.js';
import { unitOfWork } from '../unit-of-work.js';
import type { GroupContext } from '../context.js';
import type { Executor } from '../../store/db.js';
import { partnerRepo, type PartnerRow } from '../../store/repositories/partners.js';
import { createPartnerSchema, partnerListQuerySchema, type Partner, type PartnerList } from '../../domain/catalog.js';
import { notFound, parseOrThrow } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { requireGroup } from '../groups/groups.js';

export function toPartner(row: PartnerRow): Partner {
  return {
    id: row.id,
    group_id: row.group_id,
    company: row.company,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    line_1: row.line_1,
    line_2: row.line_2,
    city: row.city,
    country: row.country,
    subdivision: row.subdivision,
    postal_code: row.postal_code,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function requirePartner(ex: Executor, groupId: string, id: string): Promise<PartnerRow> {
  const row = await partnerRepo.find(ex, groupId, id);
  if (!row) throw notFound('partner');
  return row;
}

export async function createPartner(p: Platform, ctx: GroupContext, body: unknown): Promise<Partner> {
  const groupId = ctx.group;
  const input = parseOrThrow(createPartnerSchema, body);
  await requireGroup(ctx.store, groupId);
  const now = ctx.clock.nowIso();
  const row: PartnerRow = {
    id: newId(),
    group_id: groupId,
    company: input.company,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    line_1: input.line_1,
    line_2: input.line_2,
    city: input.city,
    country: input.country,
    subdivision: input.subdivision,
    postal_code: input.postal_code,
    created_at: now,
    updated_at: now,
  };
  return unitOfWork(ctx, async ({ tx }) => {
    await partnerRepo.insert(tx, row);
    return toPartner(row);
  });
}

export async function getPartner(p: Platform, ctx: GroupContext, id: string): Promise<Partner> {
  const groupId = ctx.group;
  return toPartner(await requirePartner(ctx.store, groupId, id));
}

/** Get All Partners (spec 12): `name` matches company or person name, case-insensitive substring. */
export async function listPartners(p: Platform, ctx: GroupContext, query: unknown): Promise<PartnerList> {
  const groupId = ctx.group;
  const q = parseOrThrow(partnerListQuerySchema, query);
  const { items, total_count } = await partnerRepo.list(ctx.store, groupId, q);
  return { data: { items: items.map(toPartner), total_count } };
}
