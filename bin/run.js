#!/usr/bin/env node
// The payctl binary: oclif loads the compiled commands from dist/commands, listed in
// oclif.manifest.json (written by `npm run build`; rebuilt here if a later compile made
// it stale, see src/cli/manifest.ts). Start-up is kept short:
// - `--version` is answered without loading the CLI framework (the line oclif prints);
// - a command named on the command line is imported alone and run with payctl's own
//   configuration, without oclif's plugin loading (src/cli/fast-start.ts);
// - oclif's check of its own Node engine range is skipped (it loads semver, ~50
//   modules, on every start): package.json's engines already require Node 20, above
//   what @oclif/core needs.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);

if (process.argv[2] === '--version') {
  const { name, version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const wsl = process.platform === 'linux' && os.release().toLowerCase().includes('microsoft');
  const arch = process.arch === 'ia32' ? 'x86' : process.arch;
  process.stdout.write(`${name}/${version} ${wsl ? 'wsl' : process.platform}-${arch} node-${process.version}\n`);
} else {
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1';
  const { freshenManifest } = await import('../dist/src/cli/manifest.js');
  await freshenManifest(fileURLToPath(root));
  // A command of the manifest runs on the fast path (src/cli/fast-start.ts); help, topics,
  // unknown commands and the plugins' commands go through oclif's own start.
  const { startCommand } = await import('../dist/src/cli/fast-start.js');
  if (!(await startCommand(fileURLToPath(root), process.argv.slice(2)))) {
    const { execute } = await import('@oclif/core');
    await execute({ dir: import.meta.url });
  }
}
