import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { amountFrom } from '../../src/cli/flags/money.js';
import { defined } from '../../src/cli/flags/body.js';
import { productFlags } from '../../src/cli/flags/catalog-flags.js';
import { editProduct, updateProduct } from '../../src/services/catalog/products.js';
import type { Edit } from '../../src/services/edit.js';
import type { Product } from '../../src/domain/catalog.js';
import { productDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw, withParams } from '../../src/services/use-case.js';

export default class ProductUpdate extends PayctlCommand {
  static override description = 'Update a product: flags change those fields and keep the rest; --file replaces the whole product';
  static override examples = [
    '<%= config.bin %> product update PRODUCT_ID --group GROUP_ID --amount 26.00',
    '<%= config.bin %> product update PRODUCT_ID --group GROUP_ID --file product.json',
  ];
  static override args = { id: Args.string({ description: 'product id', required: true }) };
  static override flags = productFlags();

  async run(): Promise<Product> {
    const { args, flags } = await this.parse(ProductUpdate);
    const p = await this.platform(flags.db);
    // The API replaces every field (spec 8): the flags edit the current product, read in
    // the update's own transaction.
    const edit: Edit<Product> = (current) => ({
        name: current.name,
        description: current.description,
        amount: current.amount,
        included_tax_amount: current.included_tax_amount,
        unit_of_measure: current.unit_of_measure,
        ...defined({
          name: flags.name,
          description: flags.description,
          amount: amountFrom(flags, 'amount'),
          included_tax_amount: amountFrom(flags, 'tax'),
          unit_of_measure: flags.unit,
        }),
      });
    const ctx = contextFor(p, flags.group);
    const product = flags.file
      ? await executeRaw(updateProduct, p, ctx, withParams(await this.readBodyFile(flags.file), { product_id: args.id }))
      : await execute(editProduct, p, ctx, { product_id: args.id, edit });
    this.log(productDetails(product));
    return product;
  }
}
