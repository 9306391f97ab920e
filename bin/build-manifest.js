// `npm run build` step: write oclif.manifest.json from the compiled commands (see src/cli/manifest.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeManifest } from '../dist/src/cli/manifest.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const count = await writeManifest(root);
process.stdout.write(`oclif.manifest.json: ${count} commands\n`);
