import { Args } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { refundTransaction } from '../src/services/transactions/lifecycle.js';
import { refundRequestFrom, type Transaction } from '../src/domain/transactions.js';
import { amountFlags, amountFromFlags, groupFlag, receipt } from '../src/cli/flags/transaction-flags.js';
import { contextFor } from '../src/services/context.js';

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
    const amount = amountFromFlags(flags);
    const t = await refundTransaction(await this.platform(flags.db), contextFor(await this.platform(flags.db), flags.group), args.id, refundRequestFrom(amount === undefined ? {} : { amount }));
    this.log(receipt(t));
    return t;
  }
}
