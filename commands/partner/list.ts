import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { listPartners } from '../../src/services/catalog/partners.js';
import type { PartnerList } from '../../src/domain/catalog.js';
import { partnerTable } from '../../src/render/catalog.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class PartnerListCommand extends PayctlCommand {
  static override description = 'List partners; --name matches company or person name (case-insensitive)';
  static override examples = [
    '<%= config.bin %> partner list --group GROUP_ID',
    '<%= config.bin %> partner list --group GROUP_ID --name bakery --limit 20 --offset 20',
  ];
  static override flags = {
    group: groupFlag,
    name: Flags.string({ description: 'only partners whose company or person name contains this' }),
    ...pagingFlags,
  };

  async run(): Promise<PartnerList> {
    const { flags } = await this.parse(PartnerListCommand);
    const p = await this.platform(flags.db);
    const result = await execute(listPartners, p, contextFor(p, flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
    });
    const { items, total_count } = result.data;
    this.log(partnerTable(items));
    this.log(pageFooter({ shown: items.length, total: total_count, offset: flags.offset }));
    return result;
  }
}
