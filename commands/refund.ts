import { Args } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { refundTransaction } from '../src/services/transactions/lifecycle.js';
import type { Transaction } from '../src/domain/transactions.js';
import { amountFlags } from '../src/cli/flags/transaction-flags.js';
import { amountFrom } from '../src/cli/flags/money.js';
import { groupFlag } from '../src/cli/flags/group.js';
import { receipt } from '../src/render/transactions.js';
import { contextFor } from '../src/services/context.js';
import { execute } from '../src/services/use-case.js';

export default class Refund extends PayctlCommand {
  static override description = 'Refund a settled transaction: all that is left, or part of it with --amount (never more than was captured)';
  static override examples = [
    '<%= config.bin %> refund TRANSACTION_ID --group GROUP_ID',
    '<%= config.bin %> refund TRANSACTION_ID --group GROUP_ID --amount 2.50',
  ];
  static override args = { id: Args.string({ description: 'transaction id', required: true }) };
  static override flags = { group: groupFlag, ...amountFlags };

  async run(): Promise<Transaction> {
    const { args, flags } = await this.parse(Refund);
    const p = await this.platform(flags.db);
    const t = await execute(refundTransaction, p, contextFor(p, flags.group), { transaction_id: args.id, amount: amountFrom(flags, 'amount') });
    this.log(receipt(t));
    return t;
  }
}
