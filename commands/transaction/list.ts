import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { filterFlags, filterQuery } from '../../src/cli/flags/report-query.js';
import { linkedAccountFlag, linkedAccountOrDefault } from '../../src/cli/flags/scope.js';
import type { ReportTable } from '../../src/domain/reporting.js';
import { report } from '../../src/services/reporting/reporting.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class TransactionList extends PayctlCommand {
  static override description =
    'List transactions, newest first, a page at a time, with every filter of the reporting API (--json: its table answer, the transactions in `items`)';
  static override examples = [
    '<%= config.bin %> transaction list',
    '<%= config.bin %> transaction list --status settled,pending --brand Visa --limit 20',
    '<%= config.bin %> transaction list --customer CUSTOMER_ID --start 2026-01-01 --json',
    '<%= config.bin %> transaction list --limit 20 --offset 20',
  ];
  static override flags = {
    group: groupFlag,
    'linked-account': linkedAccountFlag,
    start: Flags.string({ description: 'from (RFC 3339 or YYYY-MM-DD, inclusive) [default: 6 months before now]' }),
    end: Flags.string({ description: 'to (RFC 3339 or YYYY-MM-DD, inclusive) [default: now]' }),
    ...pagingFlags,
    ...filterFlags,
  };

  async run(): Promise<ReportTable> {
    const { flags } = await this.parse(TransactionList);
    const p = await this.platform(flags.db);
    const accountId = await linkedAccountOrDefault(p, flags.group, flags['linked-account']);
    const query = { ...filterQuery(flags), type: 'table', start: flags.start, end: flags.end, limit: String(flags.limit), offset: String(flags.offset) };
    const result = (await execute(report, p, contextFor(p, flags.group), { linked_account_id: accountId, query })) as ReportTable;
    if (!this.jsonEnabled()) {
      const [{ table }, { TABLE_HEAD, tableRow }, { pageFooter }] = await Promise.all([
        import('../../src/render/table.js'),
        import('../../src/render/report.js'),
        import('../../src/render/page-footer.js'),
      ]);
      this.log(result.items.length ? table(TABLE_HEAD, result.items.map(tableRow)) : 'No transactions match.');
      this.log(pageFooter({ shown: result.items.length, total: result.total_count, offset: flags.offset }));
    }
    return result;
  }
}
