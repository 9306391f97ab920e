import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { requiredFlags } from '../../src/cli/flags/fields.js';
import { setsField } from '../../src/cli/flags/fields.js';
import { addressFlagsAt } from '../../src/cli/flags/transaction-flags.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { defined } from '../../src/cli/flags/body.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createPartner } from '../../src/services/catalog/partners.js';
import type { Partner } from '../../src/domain/catalog.js';
import { partnerDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

// The address flags every command spells the same way (--line1 --state --zip; --line-1 --subdivision --postal-code still work).
const partnerAddress = addressFlagsAt('', '');

export default class PartnerCreate extends PayctlCommand {
  static override description = 'Create a partner (a business you invoice)';
  static override examples = [
    '<%= config.bin %> partner create --group GROUP_ID --company "Blue Door Cafe" --first-name Grace --last-name Hopper --email grace@bluedoor.example --line1 "12 Harbor Rd" --city Portland --state OR --zip 97201 --country US',
    '<%= config.bin %> partner create --group GROUP_ID --file partner.json',
  ];
  static override bodySchema = createPartner.input;
  static override flags = requiredFlags({
    group: groupFlag,
    'first-name': Flags.string({ description: 'contact first name' }),
    'last-name': Flags.string({ description: 'contact last name' }),
    email: Flags.string({ description: 'e-mail address (invoices are sent here)' }),
    ...partnerAddress,
    company: setsField(Flags.string({ description: 'company name' }), 'company'),
    file: fileFlag,
  }, ['company', 'email', 'line1', 'city', 'state', 'zip', 'country']);

  async run(): Promise<Partner> {
    const { flags } = await this.parse(PartnerCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : defined({
          company: flags.company,
          first_name: flags['first-name'],
          last_name: flags['last-name'],
          email: flags.email,
          line_1: flags.line1,
          line_2: flags.line2,
          city: flags.city,
          subdivision: flags.state,
          postal_code: flags.zip,
          country: flags.country,
        });
    const p = await this.platform(flags.db);
    const partner = await executeRaw(createPartner, p, contextFor(p, flags.group), body);
    this.log(partnerDetails(partner));
    return partner;
  }
}
