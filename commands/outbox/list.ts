import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { pagingFlags } from '../../src/cli/flags/paging.js';
import { listOutbox } from '../../src/services/mail/outbox.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { EMAIL_KINDS, type EmailKind, type OutboxEmail } from '../../src/domain/email.js';
import { outboxTable } from '../../src/render/outbox.js';
import { pageFooter } from '../../src/render/page-footer.js';

export default class OutboxList extends PayctlCommand {
  static override description = 'List e-mails the platform sent (receipts, invoices, onboarding), newest first';
  static override examples = ['<%= config.bin %> outbox list', '<%= config.bin %> outbox list --kind receipt --limit 10 --json'];
  static override flags = {
    kind: Flags.string({ description: 'only this kind', options: [...EMAIL_KINDS] }),
    ...pagingFlags,
  };

  async run(): Promise<OutboxEmail[]> {
    const { flags } = await this.parse(OutboxList);
    const p = await this.platform(flags.db);
    const rows = await execute(listOutbox, p, contextFor(p, undefined), { kind: flags.kind as EmailKind | undefined, limit: flags.limit, offset: flags.offset });
    this.log(outboxTable(rows));
    this.log(pageFooter({ shown: rows.length, offset: flags.offset, limit: flags.limit }));
    return rows;
  }
}
