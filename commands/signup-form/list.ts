import { PayctlCommand } from '../../src/cli/base.js';
import { listSignupForms } from '../../src/services/onboarding/onboarding.js';
import type { SignupForm } from '../../src/domain/onboarding-response.js';
import { table, when } from '../../src/render/table.js';

export default class SignupFormList extends PayctlCommand {
  static override description = 'List signup forms (the ids onboarding entries may name as signup_form_id)';
  static override examples = ['<%= config.bin %> signup-form list', '<%= config.bin %> signup-form list --json'];

  async run(): Promise<SignupForm[]> {
    const { flags } = await this.parse(SignupFormList);
    const forms = await listSignupForms(await this.platform(flags.db));
    this.log(table(['id', 'name', 'created'], forms.map((f) => [f.id, f.name, when(f.created_at)])));
    return forms;
  }
}
