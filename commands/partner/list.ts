import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag, pagingFlags } from '../../src/cli/flags/catalog-flags.js';
import { listPartners } from '../../src/services/catalog/partners.js';
import type { PartnerList } from '../../src/domain/catalog.js';
import { table } from '../../src/render/table.js';
import { contextFor } from '../../src/services/context.js';

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
    const result = await listPartners(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
    });
    const { items, total_count } = result.data;
    this.log(
      table(
        ['id', 'company', 'name', 'email', 'city', 'country'],
        items.map((x) => [x.id, x.company, [x.first_name, x.last_name].filter(Boolean).join(' '), x.email, x.city, x.country]),
      ),
    );
    this.log(`${items.length} shown of ${total_count} (offset ${flags.offset})`);
    return result;
  }
}
