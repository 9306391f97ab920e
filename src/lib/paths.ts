// Locations of the files payctl ships (data/, static pages), from the compiled file.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository (package) root: dist/src/lib → ../../.. */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const dataDir = path.join(packageRoot, 'data');
export const dataFile = (...parts: string[]) => path.join(dataDir, ...parts);
