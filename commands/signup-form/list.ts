import { PayctlCommand } from '../../src/cli/base.js';
import { listSignupForms } from '../../src/services/onboarding/onboarding.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import type { SignupForm } from '../../src/domain/onboarding/response.js';
import { signupFormTable } from '../../src/render/platform.js';

export default class SignupFormList extends PayctlCommand {
  static override description = 'List signup forms (the ids onboarding entries may name as signup_form_id)';
  static override examples = ['<%= config.bin %> signup-form list', '<%= config.bin %> signup-form list --json'];

  async run(): Promise<SignupForm[]> {
    const { flags } = await this.parse(SignupFormList);
    const p = await this.platform(flags.db);
    const forms = await execute(listSignupForms, p, contextFor(p, undefined), {});
    this.log(signupFormTable(forms));
    return forms;
  }
}
