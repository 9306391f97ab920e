import { Args } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { getOutbox } from '../../src/services/mail/outbox.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import type { OutboxEmail } from '../../src/domain/email.js';
import { outboxDetails } from '../../src/render/outbox.js';

export default class OutboxGet extends PayctlCommand {
  static override description = 'Show one e-mail of the outbox with its body';
  // One verb for one object: `get` (as the API's), `show` an alias everywhere.
  static override aliases = ['outbox:show'];
  static override examples = ['<%= config.bin %> outbox get EMAIL_ID', '<%= config.bin %> outbox get EMAIL_ID --json'];
  static override args = { id: Args.string({ description: 'e-mail id (from outbox list)', required: true }) };

  async run(): Promise<OutboxEmail> {
    const { args, flags } = await this.parse(OutboxGet);
    const p = await this.platform(flags.db);
    const row = await execute(getOutbox, p, contextFor(p, undefined), { email_id: args.id });
    this.log(outboxDetails(row));
    return row;
  }
}
