import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { usage } from '../../src/cli/usage.js';
import { mintToken } from '../../src/services/tokens/tokens.js';
import type { TokenResponse } from '../../src/domain/tokens.js';
import { tokenSummary } from '../../src/render/transactions.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

export default class TokenCreate extends PayctlCommand {
  static override description = 'Mint a single-use payment token (the same tokenizer as POST /api/v1/tokens)';
  static override examples = [
    '<%= config.bin %> token create --card 4111111111111111 --exp 12/30 --cvv 123',
    '<%= config.bin %> token create --routing 110000000 --account 000123456789 --json',
  ];
  static override flags = {
    card: Flags.string({ description: 'card number', exclusive: ['routing'] }),
    exp: Flags.string({ description: 'card expiry MM/YY or MM/YYYY', dependsOn: ['card'] }),
    cvv: Flags.string({ description: 'card security code', dependsOn: ['card'] }),
    holder: Flags.string({ description: 'card or account holder name' }),
    routing: Flags.string({ description: 'bank routing number', dependsOn: ['account'] }),
    account: Flags.string({ description: 'bank account number', dependsOn: ['routing'] }),
    'account-type': Flags.string({ description: 'bank account type', options: ['checking', 'savings'], default: 'checking' }),
  };

  async run(): Promise<TokenResponse> {
    const { flags } = await this.parse(TokenCreate);
    let body: unknown;
    if (flags.card) {
      const [month, year] = (flags.exp ?? '').split('/');
      body = { card: { number: flags.card, expiration_month: month ?? '', expiration_year: year ?? '', cvv: flags.cvv ?? '', holder_name: flags.holder } };
    } else if (flags.routing) {
      body = { bank_account: { routing_number: flags.routing, account_number: flags.account, account_type: flags['account-type'], holder_name: flags.holder } };
    } else {
      throw usage('give --card with --exp and --cvv, or --routing with --account');
    }
    const token = await executeRaw(mintToken, await this.platform(flags.db), contextFor(await this.platform(flags.db), undefined), body);
    this.log(tokenSummary(token));
    return token;
  }
}
