import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getTransaction } from '../../src/services/transactions/lifecycle.js';
import type { Transaction } from '../../src/domain/transactions.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { transactionDetails } from '../../src/render/transactions.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';

export default class TransactionGet extends PayctlCommand {
  static override description = 'Show a transaction';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['transaction:show'];
  static override examples = ['<%= config.bin %> transaction get TRANSACTION_ID --group GROUP_ID', '<%= config.bin %> transaction get TRANSACTION_ID --group GROUP_ID --json'];
  static override args = { id: Args.string({ description: 'transaction id', required: true }) };
  static override flags = { group: groupFlag };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(TransactionGet);
    const t = await execute(getTransaction, await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), { transaction_id: args.id });
    this.log(transactionDetails(t));
    return t;
  }
}
