// Shell completion (@oclif/plugin-autocomplete) and "did you mean" (src/cli/not-found.ts),
// through the real binary. The bash script is loaded into bash and asked to complete;
// zsh and PowerShell are not on the machine, so their scripts are checked for the
// commands and flags they must offer.
import '../helpers/env.js';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { runCli } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { tempDbPath } from '../helpers/platform.js';

let cache: string;
let dir: string;
before(async () => {
  cache = mkdtempSync(path.join(tmpdir(), 'payctl-ac-'));
  const r = await runCli(['autocomplete', '--refresh-cache'], { env: { XDG_CACHE_HOME: cache } });
  assert.equal(r.code, 0, r.stderr);
  dir = path.join(cache, 'payctl', 'autocomplete');
});

const complete = (words: string[]) =>
  execFileSync(
    'bash',
    ['-c', `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _payctl_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', path.join(dir, 'functions', 'bash', 'payctl.bash')],
    { encoding: 'utf8' },
  ).trim().split('\n');

test('bash: the generated script completes commands, subcommands and flags', () => {
  assert.deepEqual(complete(['payctl', 'rep']), ['report']);
  assert.deepEqual(complete(['payctl', 'config', 's']), ['set']);
  assert.deepEqual(complete(['payctl', 'report', '--sum']), ['--summary']);
  assert.ok(complete(['payctl', 'report', '--c']).includes('--chart'));
});

test('zsh and PowerShell scripts are generated with every command', () => {
  const zsh = readFileSync(path.join(dir, 'functions', 'zsh', '_payctl'), 'utf8');
  assert.match(zsh, /#compdef payctl/);
  for (const c of ['report', 'config', 'transaction']) assert.match(zsh, new RegExp(`"${c}`), c);
  assert.match(zsh, /--summary/);
  const ps = readFileSync(path.join(dir, 'functions', 'powershell', 'payctl.ps1'), 'utf8');
  assert.match(ps, /Register-ArgumentCompleter/);
  assert.match(ps, /"report"/);
  assert.match(ps, /summary/);
});

test('payctl autocomplete <shell> prints the setup for bash, zsh and powershell', async () => {
  for (const shell of ['bash', 'zsh', 'powershell']) {
    const r = await runCli(['autocomplete', shell], { env: { XDG_CACHE_HOME: cache } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`payctl autocomplete script ${shell}`), shell);
  }
  const script = await runCli(['autocomplete', 'script', 'bash'], { env: { XDG_CACHE_HOME: cache } });
  assert.match(script.stdout, /PAYCTL_AC_BASH_SETUP_PATH=.*bash_setup/);
});

test('a mistyped command: "did you mean" on a terminal (and runs it on yes); exit 127 with a pointer to help when piped', async () => {
  const db = tempDbPath();
  await runCli(['init', '--demo'], { db });
  const tty = await runInPty(['grup', 'list'], { db, answer: { when: /\(Y\/n\)/, input: 'y\r' } });
  assert.match(tty.output, /grup list is not a payctl command/);
  assert.match(tty.output, /Did you mean group list\?/);
  assert.match(tty.output, /Demo Merchant/, 'the suggested command ran');
  const piped = await runCli(['reprot'], { db });
  assert.equal(piped.code, 127);
  const line = piped.stderr.replace(/\s*›\s*/g, ' ');
  assert.match(line, /reprot is not a payctl command: did you mean report\?/);
  assert.match(line, /Run payctl help for a list of available commands/);
});

test('a mistyped command without a terminal still gets "did you mean"; yes on a terminal runs it with its own short errors', async () => {
  const db = tempDbPath();
  await runCli(['init', '--demo'], { db });
  const piped = await runCli(['sael', '--amount', '1'], { db });
  assert.equal(piped.code, 127);
  assert.match(piped.stderr.replace(/\s*›\s*/g, ' '), /sael is not a payctl command: did you mean sale\? Run payctl help/);
  const words = await runCli(['subscrption', 'shwo', '00000000-0000-0000-0000-000000000000'], { db });
  assert.match(words.stderr, /did you mean subscription show\?/);
  const nothing = await runCli(['zzzzzzzz'], { db });
  assert.equal(nothing.code, 127);
  assert.doesNotMatch(nothing.stderr, /did you mean/);
  // Colour on (as on a person's terminal): oclif dims flag names in its parse errors.
  const tty = await runInPty(['sael'], { db, unset: ['NO_COLOR', 'FORCE_COLOR'], answer: { when: /\(Y\/n\)/, input: 'y\r' } });
  const text = stripVTControlCharacters(tty.output).replace(/\s*›\s*/g, ' ');
  assert.match(text, /Did you mean sale\?/);
  assert.match(text, /missing required flags: --amount \(or --amount-cents\), --email/);
  assert.doesNotMatch(text, /Missing required flag/, "not oclif's raw text");
});
