import { Flags } from '@oclif/core';
import { PayctlCommand } from '../src/cli/base.js';
import { usage } from '../src/cli/usage.js';
import { checkSignupEntry, listSignupForms, submitSignupEntry, type SubmitOutcome } from '../src/services/onboarding/onboarding.js';
import { execute } from '../src/services/use-case.js';
import type { SignupEntryResult } from '../src/domain/onboarding/response.js';
import type { FieldProblem } from '../src/errors.js';
import { keyValues } from '../src/render/table.js';
import { dateTime } from '../src/render/format.js';
import { DELIVERY_TEXT, loadDraft, wizardSession } from '../src/cli/onboard-session.js';
import { contextFor } from '../src/services/context.js';
import { fileIn, ONBOARDING_DRAFT_FILE } from '../src/config/data-dir.js';
import { dataFile } from '../src/lib/paths.js';

// The example's path in this installation (a path relative to the package means nothing in the user's folder).
const NO_TTY_HINT =
  'the onboarding wizard needs an interactive terminal; submit a JSON entry with --file entry.json (or --file - for stdin), ' +
  `and check it first with --dry-run (example: ${dataFile('examples', 'signup-entry.json')})`;

/** --dry-run --json with problems: print the result object, exit 1 (see catch). */
class DryRunProblems extends Error {
  constructor(readonly result: { valid: boolean; problems: FieldProblem[] }) {
    super('the entry has problems');
  }
}

export default class Onboard extends PayctlCommand {
  static override description =
    'Onboard a business: submit a signup entry from a JSON file, or fill it in with the interactive wizard (on a terminal)';
  static override examples = [
    '<%= config.bin %> onboard --file entry.json',
    '<%= config.bin %> onboard --file entry.json --dry-run',
    '<%= config.bin %> onboard                       # the wizard; Ctrl+S saves onboarding-draft.json beside the database',
    '<%= config.bin %> onboard --resume .payctl/onboarding-draft.json',
  ];
  static override flags = {
    file: Flags.string({ char: 'f', description: 'the signup entry as JSON (a path, or - for stdin)', exclusive: ['resume'] }),
    'dry-run': Flags.boolean({ description: 'only validate --file and print every problem (exit 1 if any)', dependsOn: ['file'] }),
    resume: Flags.string({ description: 'open the wizard on a draft saved with Ctrl+S' }),
    draft: Flags.string({ description: `where Ctrl+S in the wizard saves the draft [default: ${ONBOARDING_DRAFT_FILE} beside the database]` }),
  };

  async run(): Promise<SignupEntryResult | { valid: boolean; problems: FieldProblem[] } | { status: 'cancelled' }> {
    const { flags } = await this.parse(Onboard);
    if (flags.file !== undefined) {
      const body = await this.readBodyFile(flags.file);
      const p = await this.platform(flags.db);
      if (flags['dry-run']) return this.dryRun(await execute(checkSignupEntry, p, contextFor(p, undefined), { entry: body }));
      return this.show(await execute(submitSignupEntry, p, contextFor(p, undefined), { entry: body }));
    }
    if (!process.stdin.isTTY || !process.stdout.isTTY) throw usage(NO_TTY_HINT);
    return this.wizard(flags.db, flags.resume, flags.draft ?? fileIn(this.dataDir(flags.db), ONBOARDING_DRAFT_FILE));
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof DryRunProblems) {
      this.logJson(err.result);
      this.exit(1);
    }
    return super.catch(err);
  }

  private dryRun(r: { problems: FieldProblem[] }): { valid: boolean; problems: FieldProblem[] } {
    const out = { valid: r.problems.length === 0, problems: r.problems };
    if (out.valid) {
      this.log('The entry is valid (dry run: nothing was submitted).');
      return out;
    }
    if (this.jsonEnabled()) throw new DryRunProblems(out);
    const n = r.problems.length;
    this.error([`${n} problem${n > 1 ? 's' : ''} (dry run: nothing was submitted):`, ...r.problems.map((f) => `  ${f.path}: ${f.message}`)].join('\n'), {
      exit: 1,
    });
  }

  private show(outcome: SubmitOutcome): SignupEntryResult {
    const e = outcome.body;
    this.log(`Created signup entry ${e.id} (${e.status.replace('_', ' ')})`);
    this.log(
      keyValues([
        ['business', e.business_name],
        ['external id', e.external_id ?? '-'],
        ['business account', `${e.group_id} (group, ${e.status})`],
        ['signup form', e.signup_form_id],
        ['created', dateTime(e.created_at)],
        ['confirmation e-mail', `${DELIVERY_TEXT[e.email_delivery]}; see payctl outbox get ${e.confirmation_email_id}`],
      ]),
    );
    if (outcome.status === 202) {
      this.warn('the confirmation e-mail could not be sent (HTTP 202): the entry exists; contact support');
    }
    return e;
  }

  private async wizard(dbFlag: string | undefined, resume: string | undefined, draftFile: string) {
    const initialDraft = resume ? await loadDraft(resume) : undefined;
    const p = await this.platform(dbFlag);
    const session = wizardSession(p, draftFile);
    const signupForms = await execute(listSignupForms, p, contextFor(p, undefined), {});
    const { renderOnboardingWizard } = await import('../src/tui/onboarding-wizard.js');
    const result = await renderOnboardingWizard({
      ...(initialDraft ? { initialDraft } : {}),
      signupForms,
      onSubmit: session.onSubmit,
      onSaveDraft: session.onSaveDraft,
    });
    const created = session.created();
    if (result.status === 'submitted' && created) return this.show(created);
    this.log(`Left the wizard; nothing was submitted. Ctrl+S saves a draft (${draftFile}); payctl onboard --resume FILE continues it.`);
    return { status: 'cancelled' as const };
  }
}
