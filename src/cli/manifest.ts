// The oclif manifest (oclif.manifest.json): every command's id, flags and help text, so
// that `payctl` starts by importing only the command it runs. Without it oclif imports
// all command modules (and with them zod, the services and sqlite3) on every start just
// to list them. `npm run build` writes it (bin/build-manifest.js), from @oclif/core's
// own Plugin loader, as `oclif manifest` does, without the large `oclif` package.
// During development a plain `tsc` recompiles commands without rewriting it: bin/run.js
// calls freshenManifest(), which rebuilds a manifest older than the compiled commands,
// so a stale command list is never used.
import { existsSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const MANIFEST_FILE = 'oclif.manifest.json';

/**
 * Remove compiled commands whose source is gone: tsc never deletes an output, and a
 * renamed command (events show → events get) would otherwise stay a second command.
 */
export function pruneCompiledCommands(root: string, dir = path.join(root, 'dist', 'commands')): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const source = path.join(root, path.relative(path.join(root, 'dist'), dir));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) pruneCompiledCommands(root, p);
    else if (e.name.endsWith('.js') && !['.ts', '.tsx'].some((ext) => existsSync(path.join(source, e.name.replace(/\.js$/, ext))))) unlinkSync(p);
  }
}

/** Load every command from dist/commands and write the manifest; returns the command count. */
export async function writeManifest(root: string): Promise<number> {
  // Only in a source checkout (an installed package ships dist/ without the TypeScript).
  if (existsSync(path.join(root, 'commands'))) pruneCompiledCommands(root);
  // Imported here: the staleness check on every start needs only the file system.
  const { Plugin } = await import('@oclif/core');
  const plugin = new Plugin({ root, type: 'core', isRoot: true, ignoreManifest: true, errorOnManifestCreate: true });
  await plugin.load();
  // Write then rename: concurrent starts never read a half-written file.
  const tmp = path.join(root, `${MANIFEST_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(plugin.manifest));
  renameSync(tmp, path.join(root, MANIFEST_FILE));
  return Object.keys(plugin.manifest.commands).length;
}

/** The newest modification time of the `.js` files under `dir` (0: none); the manifest's and the bundle's staleness checks. */
export function newestJs(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestJs(p));
    else if (e.name.endsWith('.js')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** tsc's record of its last compile (tsconfig.json: incremental), written after the files it emitted. */
export const BUILD_INFO = path.join('dist', '.tsbuildinfo');

/**
 * Whether a compile ran after `builtMs` (the manifest's or the bundle's time), for the
 * staleness checks of every start. An installed package has no tsconfig.json: nothing
 * compiles there, nothing to look at. A checkout: one stat of tsc's build info, which
 * every compile (plain `tsc`, watch mode) rewrites last; without one, the newest of the
 * compiled files under `dirs` (a walk of ~400 files, the slow way it was found before).
 */
export function compiledSince(root: string, builtMs: number, dirs: string[]): boolean {
  if (!existsSync(path.join(root, 'tsconfig.json'))) return false;
  try {
    return statSync(path.join(root, BUILD_INFO)).mtimeMs > builtMs;
  } catch {
    return dirs.some((d) => newestJs(path.join(root, d)) > builtMs);
  }
}

/** True when a manifest exists but a compile ran after it. */
export function manifestIsStale(root: string): boolean {
  let built: number;
  try {
    built = statSync(path.join(root, MANIFEST_FILE)).mtimeMs;
  } catch {
    return false; // no manifest: oclif finds the commands itself
  }
  return compiledSince(root, built, [path.join('dist', 'commands'), path.join('dist', 'src', 'cli')]);
}

/** Rebuild a stale manifest (or, if that fails, remove it so oclif scans the commands). */
export async function freshenManifest(root: string): Promise<void> {
  if (!manifestIsStale(root)) return;
  try {
    await writeManifest(root);
  } catch {
    try {
      unlinkSync(path.join(root, MANIFEST_FILE));
    } catch {
      // read-only install: its manifest was built with it
    }
  }
}
