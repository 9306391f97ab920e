import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { getProduct } from '../../src/services/catalog/products.js';
import type { Product } from '../../src/domain/catalog.js';
import { productDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class ProductGet extends PayctlCommand {
  static override description = 'Show a product';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['product:show'];
  static override examples = ['<%= config.bin %> product get PRODUCT_ID --group GROUP_ID', '<%= config.bin %> product get PRODUCT_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'product id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Product> {
    const { args, flags } = await this.parse(ProductGet);
    const p = await this.platform(flags.db);
    const product = await execute(getProduct, p, contextFor(p, flags.group), { product_id: args.id });
    this.log(productDetails(product));
    return product;
  }
}
