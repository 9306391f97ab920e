import { Flags } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { publicUrlFor } from '../src/config/server-file.js';
import { keyLines } from '../src/render/platform.js';
import { seedDemo, type DemoOutput } from '../src/dev/demo.js';
import { makeDefaultGroupIfNone } from '../src/cli/default-group.js';

export default class Init extends PayctlCommand {
  static override description = 'Create or migrate the database; with --demo, add demo data (safe to run again)';
  static override examples = ['<%= config.bin %> init', '<%= config.bin %> init --demo --json'];
  static override flags = {
    demo: Flags.boolean({ description: 'add a demo merchant, one API key per permission and sample data' }),
  };

  async run(): Promise<({ db: string; schema_version: number } & Partial<DemoOutput>)> {
    const { flags } = await this.parse(Init);
    const p = await this.platform(flags.db);
    const base = { db: p.db.location, schema_version: p.db.schemaVersion };
    if (!flags.demo) {
      this.log(`Database ready: ${p.db.location} (schema version ${p.db.schemaVersion})`);
      return base;
    }
    const demo = await seedDemo(p);
    const defaultLine = await makeDefaultGroupIfNone(p, demo.group_id);
    if (!this.jsonEnabled()) {
      this.log(`Database ready: ${p.db.location}`);
      this.log(`Demo group:      ${demo.group_id}`);
      if (defaultLine) this.log(defaultLine);
      this.log(`Linked account:  ${demo.linked_account_id}`);
      this.log(`Processor:       ${demo.processor_id}`);
      this.log(`Customer:        ${demo.customer_id}`);
      this.log('API keys (one per permission):');
      this.log(keyLines(demo.keys));
      const lists: Array<[string, string]> = [
        ['Transactions', 'transaction_ids'], ['Plans', 'plan_ids'], ['Subscriptions', 'subscription_ids'],
        ['Products', 'product_ids'], ['Partners', 'partner_ids'], ['Invoices', 'invoice_ids'], ['Payment links', 'payment_link_ids'],
      ];
      for (const [label, field] of lists) {
        const ids = demo[field] as string[] | undefined;
        if (ids?.length) this.log(`${`${label}:`.padEnd(17)}${ids.join(', ')}`);
      }
      if (demo.card_id) this.log(`Stored card:     ${String(demo.card_id)}`);
      if (demo.signup_form_id) this.log(`Signup form:     ${String(demo.signup_form_id)}`);
      const linkIds = demo.payment_link_ids as string[] | undefined;
      if (linkIds?.[0]) {
        // No server runs yet (npm start serves after this): the address is the default one, which
        // `serve --port` changes; serve prints the page again on the address it really uses.
        const guess = publicUrlFor(p.dataDir, p.db.location, p.env).source === 'default' ? '  (on the default port; payctl serve prints the address it serves)' : '';
        this.log(`Pay page:        ${p.publicUrl}/pay/${linkIds[0]}${guess}`);
      }
    }
    return { ...base, ...demo };
  }
}
