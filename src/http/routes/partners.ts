import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { createPartner, getPartner, listPartners } from '../../services/catalog/partners.js';
import { executeRaw } from '../../services/use-case.js';
import { partnerListSchema, partnerSchema } from '../../domain/catalog.js';

export const partnerRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/v1/groups/:group_id/partners',
    summary: 'Get All Partners',
    description:
      'Oldest first. `name` matches the company, first or last name (case-insensitive substring); total_count counts every match, not just the page. limit 1..1000 (default 50).',
    tag: 'Partners',
    auth: keyAuth('manage_partners'),
    query: listPartners.input,
    response: partnerListSchema,
    handler: (c) => executeRaw(listPartners, c.platform, c.groupCtx, c.query),
  },
  {
    method: 'POST',
    path: '/api/v1/groups/:group_id/partners',
    summary: 'Create a partner',
    tag: 'Partners',
    extension: true,
    auth: keyAuth('manage_partners'),
    body: createPartner.input,
    response: partnerSchema,
    handler: (c) => executeRaw(createPartner, c.platform, c.groupCtx, c.body),
  },
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/partners/:partner_id',
    summary: 'Get a partner',
    tag: 'Partners',
    extension: true,
    auth: keyAuth('manage_partners'),
    response: partnerSchema,
    handler: (c) => executeRaw(getPartner, c.platform, c.groupCtx, { partner_id: c.params.partner_id }),
  }),
];
