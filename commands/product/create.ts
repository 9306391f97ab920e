import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { amountFrom } from '../../src/cli/flags/money.js';
import { defined } from '../../src/cli/flags/body.js';
import { productFlags } from '../../src/cli/flags/catalog-flags.js';
import { createProduct } from '../../src/services/catalog/products.js';
import type { Product } from '../../src/domain/catalog.js';
import { money } from '../../src/render/format.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class ProductCreate extends PayctlCommand {
  static override description = 'Create a product (name, description, price with tax included)';
  static override examples = [
    '<%= config.bin %> product create --group GROUP_ID --name "Espresso beans" --description "1 kg bag" --amount 24.00 --tax 2.00',
    '<%= config.bin %> product create --group GROUP_ID --file product.json',
  ];
  static override bodySchema = createProduct.input;
  static override flags = requiredFlags(productFlags('pc'), ['name', 'description', 'amount', 'amount-cents']);

  async run(): Promise<Product> {
    const { flags } = await this.parse(ProductCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : defined({
          name: flags.name,
          description: flags.description,
          amount: amountFrom(flags, 'amount'),
          included_tax_amount: amountFrom(flags, 'tax'),
          unit_of_measure: flags.unit,
        });
    const p = await this.platform(flags.db);
    const product = await executeRaw(createProduct, p, contextFor(p, flags.group), body);
    this.log(`Created product ${product.id} (${product.name}, ${money(product.amount)})`);
    return product;
  }
}
