import '../helpers/env.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { demoPlatform } from '../helpers/platform.js';
import { loadDraft, saveDraft, withoutSensitive, wizardSession } from '../../src/cli/onboard-session.js';
import { renderOnboardingWizard } from '../../src/tui/onboarding-wizard.js';
import { signupEntrySchema } from '../../src/domain/onboarding.js';
import { getSignupEntry } from '../../src/services/onboarding/onboarding.js';
import { groupRepo } from '../../src/store/sql/repositories/groups.js';
import type { Platform } from '../../src/services/platform.js';
import type { DemoOutput } from '../../src/dev/demo.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
const load = (name: string): Json => JSON.parse(readFileSync(join(repoRoot(), 'data', 'examples', name), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'payctl-draft-'));

/** Output of a stream, and a wait for text in it: resolved by the write that brings it (no polling). */
function watched(stream: NodeJS.EventEmitter): { text: () => string; until: (needle: string) => Promise<void> } {
  let output = '';
  const waits: Array<{ needle: string; resolve: () => void }> = [];
  stream.on('data', (c: Buffer) => {
    output += c.toString();
    for (const w of waits.splice(0)) (output.includes(w.needle) ? w.resolve() : waits.push(w));
  });
  return {
    text: () => output,
    until: (needle) => (output.includes(needle) ? Promise.resolve() : new Promise((resolve) => waits.push({ needle, resolve }))),
  };
}

describe('wizard drafts on disk', () => {
  it('never hold ssn, itin or ein, and are readable by their owner only', async () => {
    const entry = load('signup-entry.json');
    const file = join(dir, 'draft.json');
    const shown = await saveDraft(file, entry);
    assert.match(shown, /ssn, itin and ein are not saved/);
    const text = readFileSync(file, 'utf8');
    for (const s of ['12-3456789', '123-45-6789', '912-70-1234', '"ssn"', '"itin"', '"ein"']) assert.ok(!text.includes(s), `draft holds ${s}`);
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    const back = await loadDraft(file);
    assert.deepEqual(back, withoutSensitive(entry));
    assert.equal((back as Json).business.representatives[1].first_name, 'Tomás');
  });

  it('loadDraft refuses a missing file, bad JSON and a non-object', async () => {
    await assert.rejects(loadDraft(join(dir, 'nope.json')), /cannot read the draft/);
    writeFileSync(join(dir, 'bad.json'), '{');
    await assert.rejects(loadDraft(join(dir, 'bad.json')), /not valid JSON/);
    writeFileSync(join(dir, 'list.json'), '[]');
    await assert.rejects(loadDraft(join(dir, 'list.json')), /JSON object/);
  });
});

describe('the wizard session submits through the onboarding service', () => {
  let p: Platform;
  let demo: DemoOutput;
  before(async () => {
    ({ p, demo } = await demoPlatform({ env: {} }));
  });
  after(() => p.close());

  it('a resumed complete draft: Enter on review creates the entry and its pending_review account', async () => {
    const draft = load('signup-entry-sole-prop.json');
    draft.signup_form_id = demo.signup_form_id;
    const session = wizardSession(p, join(dir, 'w.json'));
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40 });
    const out = watched(stdout);
    const outcome = renderOnboardingWizard({
      initialDraft: draft,
      onSubmit: session.onSubmit,
      onSaveDraft: session.onSaveDraft,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
    });
    await out.until('Review the signup entry');
    stdin.write('\u001B[F'); // End: the review is taller than the terminal
    await out.until('All rules are met');
    stdin.write('\u0013'); // Ctrl+S
    await out.until('Draft saved');
    assert.ok(existsSync(join(dir, 'w.json')));
    assert.ok(!readFileSync(join(dir, 'w.json'), 'utf8').includes('987-65-4321'));
    stdin.write('\r');
    const result = await outcome;
    assert.equal(result.status, 'submitted');
    const created = session.created();
    assert.ok(created);
    assert.equal(created.status, 201);
    // The outcome is the command's to print (once); the wizard hands it back.
    assert.match((result as Extract<typeof result, { status: 'submitted' }>).message, /Created signup entry/);
    const stored = await getSignupEntry(p, created.body.id);
    assert.equal(stored?.entry.business.ssn, '•••••4321');
    assert.equal((await groupRepo.find(p.db, created.body.group_id))?.status, 'pending_review');
  });

  it('an unknown signup form is reported to the wizard, not thrown', async () => {
    const entry = signupEntrySchema.parse(load('signup-entry-sole-prop.json'));
    const session = wizardSession(p, join(dir, 'x.json'));
    const r = await session.onSubmit(entry);
    assert.equal(r.ok, false);
    assert.match(r.message, /signup_form_id: is not a signup form/);
    assert.equal(session.created(), undefined);
  });
});
