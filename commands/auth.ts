import { PayctlCommand } from '../src/cli/base.js';
import { requiredFlags } from '../src/cli/flags/fields.js';
import { createSale } from '../src/services/transactions/sale.js';
import type { Transaction } from '../src/domain/transactions.js';
import { saleBodyFromFlags, saleFlags, withType } from '../src/cli/flags/transaction-flags.js';
import { processorOrDefault } from '../src/cli/flags/scope.js';
import { receipt } from '../src/render/transactions.js';
import { contextFor } from '../src/services/context.js';
import { executeRaw } from '../src/services/use-case.js';

export default class Auth extends PayctlCommand {
  static override description = 'Authorize an amount to capture later (type "auth", Flat pricing only): authorized when approved, declined otherwise';
  static override examples = [
    '<%= config.bin %> auth --group GROUP_ID --amount 12.34 --token tok_visa --first-name Ada --last-name Lovelace --line1 "1 Main St" --city Springfield --state IL --zip 62701 --country US --email ada@example.com',
    '<%= config.bin %> auth --group GROUP_ID --amount-cents 500 --customer CUSTOMER_ID --card CARD_ID --email ada@example.com --json',
    '<%= config.bin %> auth --group GROUP_ID --file auth.json',
  ];
  static override bodySchema = createSale.input;
  static override flags = requiredFlags(saleFlags, ['email', 'amount', 'amount-cents']);

  async run(): Promise<Transaction> {
    const { flags } = await this.parse(Auth);
    const p = await this.platform(flags.db);
    const body = flags.file
      ? withType(await this.readBodyFile(flags.file), 'auth')
      : saleBodyFromFlags('auth', flags, await processorOrDefault(p, flags.group, flags.processor));
    const t = await executeRaw(createSale, p, contextFor(p, flags.group), body);
    this.log(receipt(t));
    return t;
  }
}
