import { readFile, writeFile } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import { PayctlCommand } from '../../src/cli/base.js';
import { usage } from '../../src/cli/usage.js';
import { ENV } from '../../src/config/env.js';
import { runningServer } from '../../src/config/server-file.js';
import { ENV_PREFIX, stepTimeoutMs } from '../../src/domain/scenarios.js';
import { missingEnv, parseScenario, ScenarioFileError, type LoadedScenario } from '../../src/dev/scenario-file.js';
import { runScenario, type ScenarioResult } from '../../src/dev/scenario-run.js';
import { sandboxForRun } from '../../src/dev/scenario-sandbox.js';
import { collectorSource } from '../../src/dev/scenario-webhooks.js';
import { junitXml, stepLines, summaryLine } from '../../src/render/scenario-report.js';

export default class ScenarioRun extends PayctlCommand {
  static override description =
    'Run scenario files (YAML or JSON steps: requests, clock moves, faults, expected events) against a fresh sandbox of the running server, one line per step; exit code 1 when an expectation fails. Format: docs/scenarios.md';
  static override examples = [
    '<%= config.bin %> scenario run examples/scenarios/checkout.yaml',
    '<%= config.bin %> scenario run examples/scenarios/*.yaml --reporter junit --reporter-file scenarios.xml',
    '<%= config.bin %> scenario run flow.yaml --url http://127.0.0.1:4000 --admin-token padm_…',
    '<%= config.bin %> scenario run onboarding.yaml --env SIGNUP_FORM_ID --step-timeout 1m',
    '<%= config.bin %> scenario run flow.yaml --group GROUP_ID --json',
  ];
  static override strict = false;
  static override args = { file: Args.string({ description: 'scenario file(s): .yaml, .yml or .json', required: true }) };
  static override flags = {
    url: Flags.string({ description: 'the server to run against [default: the running `payctl serve` of --db]' }),
    'admin-token': Flags.string({ description: 'the sandbox admin token (makes the sandbox through the API; needed with --url)', env: ENV.adminToken }),
    group: Flags.string({ description: 'run in this existing group instead of a fresh sandbox (a key is made for the run and revoked after)' }),
    reporter: Flags.string({ description: 'also write a report in this format', options: ['junit'] }),
    'reporter-file': Flags.string({ description: 'where --reporter writes', default: 'scenario-report.xml' }),
    env: Flags.string({ description: `an environment variable the files may read as \${env.NAME} (repeatable); those named ${ENV_PREFIX}* need no flag`, multiple: true, multipleNonGreedy: true }),
    'step-timeout': Flags.string({ description: 'how long a request, clock or fault step may take when it sets no timeout: (1s to 10m)', default: '30s' }),
    record: Flags.string({ description: "record the sandbox's calls while the file runs and write the scenario file they make here (one scenario file only)" }),
  };

  async run(): Promise<Array<ScenarioResult & { file: string }>> {
    const { argv, flags } = await this.parse(ScenarioRun);
    const files = argv as string[];
    const allowEnv = flags.env ?? [];
    const badName = allowEnv.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
    if (badName !== undefined) throw usage(`--env ${badName}: must be the name of an environment variable (letters, digits and _), not a value`);
    const timeout = stepTimeoutMs(flags['step-timeout']);
    if (typeof timeout !== 'number') throw usage(`--step-timeout ${flags['step-timeout']}: ${timeout.error}`);
    // Every file is read and checked before anything runs.
    const loaded: Array<{ file: string; scenario: LoadedScenario }> = [];
    const problems: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
      }
      try {
        const scenario = parseScenario(text, file, { allowEnv });
        const unset = missingEnv(scenario, process.env);
        if (unset.length > 0) problems.push(`${file}: refers to environment variables that are not set: ${unset.join(', ')}`);
        loaded.push({ file, scenario });
      } catch (err) {
        if (!(err instanceof ScenarioFileError)) throw err;
        problems.push(err.message);
      }
    }
    if (problems.length > 0) this.error(`${problems.join('\n')}\nNothing was run.`, { exit: 1 });

    if (flags.record && files.length !== 1) throw usage('--record takes one scenario file (it writes the recording of that run)');
    // With --url the run is a client of that server only: no local database is opened (or made).
    if (flags.url && flags.group && !flags.db) throw usage('--group with --url makes the run\'s key on that server\'s database: name it with --db (or pass --admin-token instead of --group)');
    const url = flags.url ?? runningServer(this.dataDir(flags.db), (await this.platform(flags.db)).db.location)?.url;
    if (!url) throw usage('no running server for this database: start `payctl serve`, or pass --url (with --admin-token)');
    if (flags.url && !flags['admin-token'] && !flags.group) throw usage('--url needs --admin-token (PAYCTL_ADMIN_TOKEN) to make the sandbox, or --group with --db');
    // Only the variables the files may read are handed to the run, never the rest of the environment.
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && (allowEnv.includes(e[0]) || e[0].startsWith(ENV_PREFIX))));

    const results: Array<ScenarioResult & { file: string }> = [];
    for (const { file, scenario } of loaded) {
      const sandbox = await sandboxForRun({ url, adminToken: flags['admin-token'], group: flags.group, platform: () => this.platform(flags.db) }, scenario.scenario);
      if (!this.jsonEnabled()) this.log(`${scenario.scenario.name} (${file}) — sandbox ${sandbox.handle.group_id}`);
      try {
        const result = await runScenario(scenario, { url, sandbox: sandbox.handle, adminToken: flags['admin-token'], env, stepTimeoutMs: timeout, record: flags.record !== undefined, webhooks: collectorSource(sandbox.handle.group_id) }, (step) => {
          if (!this.jsonEnabled()) for (const line of stepLines(step, file)) this.log(`  ${line}`);
        });
        if (!this.jsonEnabled()) this.log(summaryLine(result, file));
        if (flags.record && result.recording !== undefined) {
          await writeFile(flags.record, result.recording);
          if (!this.jsonEnabled()) this.log(`Recorded the run as ${flags.record}`);
        }
        results.push({ file, ...result });
      } finally {
        await sandbox.release();
      }
    }
    if (flags.reporter === 'junit') await writeFile(flags['reporter-file'], junitXml(results.map((r) => ({ file: r.file, result: r }))));
    // Exit code 1 on a failed expectation, with the whole result still printed (--json too).
    if (results.some((r) => !r.ok)) process.exitCode = 1;
    return results;
  }
}
