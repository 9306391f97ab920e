import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { amountFlag, defined, productFlags } from '../../src/cli/flags/catalog-flags.js';
import { updateProduct } from '../../src/services/catalog/products.js';
import type { Edit } from '../../src/services/edit.js';
import type { Product } from '../../src/domain/catalog.js';
import { productDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';

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
          amount: amountFlag('amount', flags.amount, flags['amount-cents']),
          included_tax_amount: amountFlag('tax', flags.tax, flags['tax-cents']),
          unit_of_measure: flags.unit,
        }),
      });
    const product = await updateProduct(p, contextFor(p, flags.group), args.id, flags.file ? await this.readBodyFile(flags.file) : edit);
    this.log(productDetails(product));
    return product;
  }
}
