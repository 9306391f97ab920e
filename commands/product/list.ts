import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { listProducts } from '../../src/services/catalog/products.js';
import type { ProductList } from '../../src/domain/catalog.js';
import { productTable } from '../../src/render/catalog.js';
import { pageFooter } from '../../src/render/page-footer.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class ProductListCommand extends PayctlCommand {
  static override description = 'List the products of a group';
  static override examples = ['<%= config.bin %> product list --group GROUP_ID', '<%= config.bin %> product list --group GROUP_ID --name beans --limit 10'];
  static override flags = {
    group: groupFlag,
    name: Flags.string({ description: 'only products whose name contains this (case-insensitive)' }),
    ...pagingFlags,
  };

  async run(): Promise<ProductList> {
    const { flags } = await this.parse(ProductListCommand);
    const p = await this.platform(flags.db);
    const result = await execute(listProducts, p, contextFor(p, flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
    });
    const { items, total_count } = result.data;
    this.log(productTable(items));
    this.log(pageFooter({ shown: items.length, total: total_count, offset: flags.offset }));
    return result;
  }
}
