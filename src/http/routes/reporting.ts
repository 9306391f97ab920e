import type { RouteDef } from '../route.js';
import { keyAuth, route } from '../route.js';
import { report } from '../../services/reporting/reporting.js';
import { reportingSummary } from '../../services/reporting/summary.js';
import { reportSummarySchema, summaryQuerySchema } from '../../domain/reporting-summary.js';
import { reportQuerySchema, reportResultSchema } from '../../domain/reporting.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../domain/paging.js';
import { execute } from '../../services/use-case.js';

export const reportingRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/processing/:linked_account_id/transactions/reporting',
    summary: 'Transaction reporting: a table of transactions, a count or an amount sum',
    description: [
      'type=table → {items, total_count}; type=count → {total_count}; type=amount_sum → {total_amount}.',
      'Array filters accept repeated keys (statuses=a&statuses=b), bracket keys (statuses[]=a) and comma lists (statuses=a,b).',
      `limit defaults to ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX} (a larger limit is a 400); offset defaults to 0. Rows are newest first (created_at, then id).`,
      'start/end are inclusive and default to 6 months before now and now (platform clock).',
      'total_amount is the net amount in cents: captured_amount − refunded_amount over pending, settled, captured, partially_captured, partially_refunded and refunded transactions (authorized, declined, voided and expired add 0).',
      'Only the path group\'s transactions are ever reported; the linked account must belong to the group (404).',
    ].join('\n\n'),
    tag: 'Reporting',
    auth: keyAuth('view_transactions'),
    query: reportQuerySchema,
    response: reportResultSchema,
    handler: (c) => execute(report, c.platform, c.groupCtx, { linked_account_id: c.params.linked_account_id, query: c.query }),
  }),
  route({
    method: 'GET',
    path: '/api/v1/groups/:group_id/transactions/reporting/summary',
    summary: 'Reporting summary: transaction counts and net amounts per day, status, brand, payment method or source',
    description: [
      'The same window and filters as the reporting endpoint (array filters in the same three encodings); group_by selects the key (default day, in UTC).',
      'amount is the net amount in cents, as total_amount of type=amount_sum; count and amount of each key add up to total_count and total_amount.',
      'Only keys with transactions are listed, ordered by key. Whole days are read from the daily rollup, the partial first and last day from the transactions.',
    ].join('\n\n'),
    tag: 'Reporting',
    extension: true,
    auth: keyAuth('view_transactions'),
    query: summaryQuerySchema,
    response: reportSummarySchema,
    handler: (c) => execute(reportingSummary, c.platform, c.groupCtx, { query: c.query }),
  }),
];
