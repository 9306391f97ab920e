import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { listOutbox } from '../../src/mail/outbox.js';
import type { OutboxRow } from '../../src/store/repositories/outbox.js';
import { table, when } from '../../src/render/table.js';
import { statusWord } from '../../src/render/colour.js';

export default class OutboxList extends PayctlCommand {
  static override description = 'List e-mails the platform sent (receipts, invoices, onboarding), newest first';
  static override examples = ['<%= config.bin %> outbox list', '<%= config.bin %> outbox list --kind receipt --limit 10 --json'];
  static override flags = {
    kind: Flags.string({ description: 'only this kind (receipt, invoice, onboarding …)' }),
    limit: Flags.integer({ description: 'at most this many (max 1000)', default: 50, min: 1, max: 1000 }),
    offset: Flags.integer({ description: 'skip this many', default: 0, min: 0 }),
  };

  async run(): Promise<OutboxRow[]> {
    const { flags } = await this.parse(OutboxList);
    const rows = await listOutbox(await this.platform(flags.db), { kind: flags.kind, limit: flags.limit, offset: flags.offset });
    if (rows.length === 0) this.log('No e-mails.');
    else this.log(table(['id', 'kind', 'to', 'subject', 'status', 'created'], rows.map((r) => [r.id, r.kind, r.to_address, r.subject, statusWord(r.status), when(r.created_at)])));
    return rows;
  }
}
