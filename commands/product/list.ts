import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag, pagingFlags } from '../../src/cli/flags/catalog-flags.js';
import { listProducts } from '../../src/services/catalog/products.js';
import type { ProductList } from '../../src/domain/catalog.js';
import { formatMoney } from '../../src/domain/money.js';
import { table } from '../../src/render/table.js';
import { contextFor } from '../../src/services/context.js';

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
    const result = await listProducts(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), {
      limit: flags.limit,
      offset: flags.offset,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
    });
    const { items, total_count } = result.data;
    this.log(table(['id', 'name', 'amount', 'tax incl.', 'unit'], items.map((x) => [x.id, x.name, formatMoney(x.amount), formatMoney(x.included_tax_amount), x.unit_of_measure])));
    this.log(`${items.length} shown of ${total_count} (offset ${flags.offset})`);
    return result;
  }
}
