#!/usr/bin/env node
// The payctl binary: oclif loads the compiled commands from dist/commands, listed in
// oclif.manifest.json (written by `npm run build`; rebuilt here if a later compile made
// it stale, see src/cli/manifest.ts).
import { execute } from '@oclif/core';
import { freshenManifest } from '../dist/src/cli/manifest.js';

await freshenManifest(new URL('..', import.meta.url).pathname);
await execute({ dir: import.meta.url });
