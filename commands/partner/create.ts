import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { fileFlag } from '../../src/cli/flags/file.js';
import { defined } from '../../src/cli/flags/body.js';
import { groupFlag } from '../../src/cli/flags/group.js';
import { createPartner } from '../../src/services/catalog/partners.js';
import type { Partner } from '../../src/domain/catalog.js';
import { partnerDetails } from '../../src/render/catalog.js';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';

export default class PartnerCreate extends PayctlCommand {
  static override description = 'Create a partner (a business you invoice)';
  static override examples = [
    '<%= config.bin %> partner create --group GROUP_ID --company "Blue Door Cafe" --first-name Grace --last-name Hopper --email grace@bluedoor.example --line-1 "12 Harbor Rd" --city Portland --subdivision OR --postal-code 97201 --country US',
    '<%= config.bin %> partner create --group GROUP_ID --file partner.json',
  ];
  static override flags = {
    group: groupFlag,
    company: Flags.string({ description: 'company name' }),
    'first-name': Flags.string({ description: 'contact first name' }),
    'last-name': Flags.string({ description: 'contact last name' }),
    email: Flags.string({ description: 'e-mail address (invoices are sent here)' }),
    'line-1': Flags.string({ description: 'address line 1' }),
    'line-2': Flags.string({ description: 'address line 2' }),
    city: Flags.string(),
    subdivision: Flags.string({ description: 'state or province (2 or 3 characters)' }),
    'postal-code': Flags.string(),
    country: Flags.string({ description: 'ISO country code (2 letters)' }),
    file: fileFlag,
  };

  async run(): Promise<Partner> {
    const { flags } = await this.parse(PartnerCreate);
    const body = flags.file
      ? await this.readBodyFile(flags.file)
      : defined({
          company: flags.company,
          first_name: flags['first-name'],
          last_name: flags['last-name'],
          email: flags.email,
          line_1: flags['line-1'],
          line_2: flags['line-2'],
          city: flags.city,
          subdivision: flags.subdivision,
          postal_code: flags['postal-code'],
          country: flags.country,
        });
    const p = await this.platform(flags.db);
    const partner = await executeRaw(createPartner, p, contextFor(p, flags.group), body);
    this.log(partnerDetails(partner));
    return partner;
  }
}
