// `npm run build` step: write dist/cli-bundle.cjs, every command in one file (see src/cli/bundle.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBundle } from '../dist/src/cli/bundle.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bytes = await writeBundle(root);
process.stdout.write(bytes === undefined ? 'dist/cli-bundle.cjs: skipped (esbuild is not installed; commands start unbundled)\n' : `dist/cli-bundle.cjs: ${(bytes / 1e6).toFixed(1)} MB\n`);
