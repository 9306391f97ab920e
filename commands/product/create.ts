import { PayctlCommand } from '../../src/cli/base.js';
import { amountFlag, defined, productFlags } from '../../src/cli/flags/catalog-flags.js';
import { createProduct } from '../../src/services/catalog/products.js';
import type { Product } from '../../src/domain/catalog.js';
import { formatMoney } from '../../src/domain/money.js';
import { contextFor } from '../../src/services/context.js';

export default class ProductCreate extends PayctlCommand {
  static override description = 'Create a product (name, description, price with tax included)';
  static override examples = [
    '<%= config.bin %> product create --group GROUP_ID --name "Espresso beans" --description "1 kg bag" --amount 24.00 --tax 2.00',
    '<%= config.bin %> product create --group GROUP_ID --file product.json',
  ];
  static override flags = productFlags('pc');

  async run(): Promise<Product> {
    const { flags } = await this.parse(ProductCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : defined({
          name: flags.name,
          description: flags.description,
          amount: amountFlag('amount', flags.amount, flags['amount-cents']),
          included_tax_amount: amountFlag('tax', flags.tax, flags['tax-cents']),
          unit_of_measure: flags.unit,
        });
    const product = await createProduct(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), body);
    this.log(`Created product ${product.id} (${product.name}, ${formatMoney(product.amount)})`);
    return product;
  }
}
