// The TypeScript files under a folder of the package, as paths from the package root
// (what the lint tests read).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

export function* typescriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(packageRoot, dir), { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* typescriptFiles(p);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield p;
  }
}
