import { Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { createSignupForm } from '../../src/services/onboarding/onboarding.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import type { SignupForm } from '../../src/domain/onboarding/response.js';

export default class SignupFormCreate extends PayctlCommand {
  static override description = 'Create a signup form: its id is the signup_form_id that onboarding entries must name';
  static override examples = [
    '<%= config.bin %> signup-form create --name "Website signups"',
    '<%= config.bin %> signup-form create --name Partners --json',
  ];
  static override flags = {
    name: Flags.string({ description: 'a name to recognise the form by (1 to 100 characters)', required: true }),
  };

  async run(): Promise<SignupForm> {
    const { flags } = await this.parse(SignupFormCreate);
    const p = await this.platform(flags.db);
    const form = await execute(createSignupForm, p, contextFor(p, undefined), { name: flags.name });
    this.log(`Created signup form ${form.id} (${form.name})`);
    return form;
  }
}
