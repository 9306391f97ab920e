import '../helpers/env.js';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, runCliJson } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
const load = (name: string): Json => JSON.parse(readFileSync(join(repoRoot(), 'data', 'examples', name), 'utf8'));

// No SMTP server: the e-mail stays in the outbox, whatever the environment running the tests says.
const env = { PAYCTL_SMTP_URL: '', COLUMNS: '200' };
const dir = mkdtempSync(join(tmpdir(), 'payctl-onboard-'));
const writeEntry = (name: string, entry: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(entry));
  return file;
};

let db: string;
let formId: string;
before(async () => {
  db = tempDbPath();
  const demo = await runCliJson(['init', '--demo'], { db, env });
  formId = demo.signup_form_id;
  assert.match(formId, /^[0-9a-f-]{36}$/);
});

const groupCount = async () => (await runCliJson<unknown[]>(['group', 'list'], { db, env })).length;

describe('payctl onboard --file', () => {
  it('submits the entry and prints it; --json prints the API object', async () => {
    const entry = load('signup-entry.json');
    entry.signup_form_id = formId;
    const file = writeEntry('entry.json', entry);

    const human = await runCli(['onboard', '--file', file], { db, env });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /Created signup entry [0-9a-f-]{36} \(pending review\)/);
    assert.match(human.stdout, /Café Façade & Sons, L\.L\.C\./);
    assert.match(human.stdout, /crm-000417/);
    assert.match(human.stdout, /in the outbox \(no SMTP server configured\)/);

    const api = await runCliJson(['onboard', '--file', file], { db, env });
    assert.equal(api.status, 'pending_review');
    assert.equal(api.signup_form_id, formId);
    assert.equal(api.external_id, 'crm-000417');
    assert.equal(api.email_delivery, 'stored');
    const groups = await runCliJson<{ id: string; status: string }[]>(['group', 'list'], { db, env });
    assert.equal(groups.find((g) => g.id === api.group_id)?.status, 'pending_review');

    for (const out of [human.stdout + human.stderr, JSON.stringify(api)]) {
      for (const secret of ['12-3456789', '123-45-6789', '912-70-1234']) assert.ok(!out.includes(secret), `printed ${secret}`);
    }
  });

  it('reads the entry from stdin with --file -', async () => {
    const entry = load('signup-entry-sole-prop.json');
    entry.signup_form_id = formId;
    const r = await runCli(['onboard', '--file', '-', '--json'], { db, env, input: JSON.stringify(entry) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).business_name, "Jo's Handyman Services");
  });

  it('an invalid entry is refused with every problem and exit 1', async () => {
    const entry = load('signup-entry-sole-prop.json');
    entry.signup_form_id = 'form_nope';
    entry.business.phone.country_code = '33';
    const r = await runCli(['onboard', '--file', writeEntry('bad-submit.json', entry)], { db, env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /signup_form_id/);
    assert.match(r.stderr, /business\.phone\.country_code/);
  });
});

describe('payctl onboard --file --dry-run', () => {
  it('lists every problem, exits 1 and submits nothing', async () => {
    const entry = load('signup-entry.json');
    entry.signup_form_id = 'form_nope';
    delete entry.business.ein;
    entry.external_id = 'y'.repeat(40);
    entry.business.representatives[0].ownership_percentage = 120;
    entry.business.underwriting.volume_by_customer_type = { b2b: 50, b2c: 10, p2p: 0 };
    delete entry.business.processing_statements;
    const groups = await groupCount();
    const r = await runCli(['onboard', '--file', writeEntry('bad.json', entry), '--dry-run'], { db, env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /6 problems \(dry run: nothing was submitted\)/);
    for (const path of [
      'signup_form_id',
      'external_id',
      'business.ein',
      'business.representatives.0.ownership_percentage',
      'business.underwriting.volume_by_customer_type',
      'business.processing_statements',
    ]) {
      assert.ok(r.stderr.includes(`${path}: `), `${path} missing from:\n${r.stderr}`);
    }
    assert.equal(await groupCount(), groups);

    const json = await runCli(['onboard', '--file', writeEntry('bad.json', entry), '--dry-run', '--json'], { db, env });
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout);
    assert.equal(out.valid, false);
    assert.equal(out.problems.length, 6);
  });

  it('a valid entry: exit 0, nothing submitted', async () => {
    const entry = load('signup-entry-sole-prop.json');
    entry.signup_form_id = formId;
    const groups = await groupCount();
    const r = await runCli(['onboard', '--file', writeEntry('ok.json', entry), '--dry-run'], { db, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /valid \(dry run: nothing was submitted\)/);
    assert.equal(await groupCount(), groups);
    assert.deepEqual(await runCliJson(['onboard', '--file', writeEntry('ok.json', entry), '--dry-run'], { db, env }), { valid: true, problems: [] });
  });

  it('--dry-run without --file is a usage error (exit 2)', async () => {
    const r = await runCli(['onboard', '--dry-run'], { db, env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--file/);
  });
});

describe('payctl onboard without --file', () => {
  for (const args of [['onboard'], ['onboard', '--resume', 'onboarding-draft.json']]) {
    it(`without a terminal it refuses with a hint to use --file (exit 2): ${args.join(' ')}`, async () => {
      const r = await runCli(args, { db, env });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /interactive terminal/);
      assert.match(r.stderr, /--file entry\.json/);
      // The example is named by a path that exists wherever payctl is installed, not relative to it.
      const example = /example:[\s›]+(\S+signup-entry\.json)/.exec(r.stderr)?.[1];
      assert.ok(example && isAbsolute(example) && existsSync(example), r.stderr);
      assert.equal(r.stdout, '');
    });
  }
});

describe('payctl signup-form', () => {
  it('create and list; the demo form is listed', async () => {
    const created = await runCliJson(['signup-form', 'create', '--name', 'Website signups'], { db, env });
    assert.equal(created.name, 'Website signups');
    const list = await runCliJson<{ id: string; name: string }[]>(['signup-form', 'list'], { db, env });
    assert.deepEqual(
      list.map((f) => f.id).sort(),
      [formId, created.id].sort(),
    );
    const human = await runCli(['signup-form', 'list'], { db, env });
    assert.match(human.stdout, /Website signups/);
    assert.match(human.stdout, /Demo signup form/);
  });

  it('an empty name is refused (exit 1)', async () => {
    const r = await runCli(['signup-form', 'create', '--name', '  '], { db, env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /name/);
  });
});

describe('payctl onboard on a terminal', () => {
  it('Ctrl+S saves the draft beside the database, not in the current folder; the last frame ends its line', async () => {
    const { runInPty } = await import('../helpers/pty.js');
    const draft = join(dataDirOf(db), 'onboarding-draft.json');
    const run = await runInPty(['onboard'], {
      db,
      env,
      answer: [
        // One letter first (a prefix of the demo form's name): keys typed before the wizard reads
        // them raw would go through the terminal's line editing, where Ctrl+S stops the output.
        { when: /Signup form/, input: 'D' },
        { when: /D(?:\u001B\[[0-9;]*m)*▌/, input: '\u0013' },
        { when: /Draft saved/, input: '\u0003' },
      ],
    });
    assert.equal(run.code, 0, run.output);
    const out = run.output.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex
    assert.match(out, new RegExp(`Draft saved: ${draft.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`.replace(/\s+/g, '\\s*')));
    assert.ok(existsSync(draft), out);
    assert.ok(!existsSync(join(process.cwd(), 'onboarding-draft.json')), 'nothing in the current folder');
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(draft, 'utf8'))), []);
    // The command's closing line starts a line of its own.
    assert.match(out, /\nLeft the wizard; nothing was submitted/);
  });
});
