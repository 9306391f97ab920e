// The command bundle (dist/cli-bundle.cjs): every command, the framework and the
// modules they import, in one CommonJS file, so that a start reads one file instead of
// ~300 and, with V8's code cache beside it (src/cli/fast-start.ts), compiles almost
// nothing. Built by `npm run build` (bin/build-bundle.js) from the compiled dist/ with
// esbuild; each command's modules are evaluated only when that command runs.
//
// What stays outside, loaded from node_modules as before: native addons (sqlite3,
// @resvg/resvg-js), the packages only some commands load on demand (the PostgreSQL
// driver, Ink and React, pdfkit, nodemailer, the SSE and HTTP server packages…) and
// anything that reads its own files at run time. Only the framework, zod and the small
// packages they pull in are bundled (BUNDLED below, and what those import).
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const BUNDLE_FILE = 'cli-bundle.cjs';

/** Packages bundled (with their own dependencies); every other package stays external. */
const BUNDLED = new Set(['@oclif/core', 'zod', 'cli-table3', 'string-width', 'uuid']);

/** Never bundled, even when a bundled package asks: oclif looks for a TypeScript toolchain it never needs here. */
const NEVER = new Set(['typescript', 'ts-node', 'tsx']);

/** The function import.meta.url of a compiled module becomes: its own file's URL, from the bundle's folder. */
const URL_NAME = '__payctlModuleUrl';

/** The name `import()` takes inside the bundle: a function of the loader (see fast-start.ts). */
export const IMPORT_NAME = '__payctlImport';

function commandFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return commandFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

const packageName = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

/** Build dist/cli-bundle.cjs; returns its size in bytes, or undefined when esbuild is not installed. */
export async function writeBundle(root: string): Promise<number | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined; // an install without dev dependencies: commands start unbundled
  }
  const dist = path.join(root, 'dist');
  const manifest = JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { relativePath?: string[] }> };
  const files = new Set(commandFiles(path.join(dist, 'commands')));
  const lines = Object.entries(manifest.commands)
    .filter(([, c]) => c.relativePath && files.has(path.join(root, ...c.relativePath)))
    .map(([id, c]) => `  ${JSON.stringify(id)}: () => import(${JSON.stringify(`./${c.relativePath!.slice(1).join('/')}`)}),`);
  const entry = [`export { Config, flush, handle } from '@oclif/core';`, `export const commands = {`, ...lines, `};`].join('\n');
  const out = path.join(dist, BUNDLE_FILE);
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: dist, sourcefile: 'cli-bundle-entry.js', loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    outfile: out,
    logLevel: 'error',
    metafile: true,
    // No comments or indentation, and every character ASCII (esbuild escapes the rest):
    // the start reads the file as a one-byte string (fast-start.ts), half the memory of
    // the two-byte string one non-ASCII character in a comment made of all 2.9 MB.
    minifyWhitespace: true,
    charset: 'ascii',
    // Defined once at the top, with the bundle's own require: a module may name a local `require` of its own.
    banner: { js: `var ${URL_NAME} = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;` },
    plugins: [
      {
        name: 'payctl-externals',
        setup(build) {
          // A package our code imports is bundled only when listed; what a bundled package imports is bundled too.
          build.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('node:')) return { path: args.path, external: true };
            if (NEVER.has(packageName(args.path))) return { path: args.path, external: true };
            const fromPackage = args.importer.includes(`${path.sep}node_modules${path.sep}`);
            if (fromPackage || BUNDLED.has(packageName(args.path))) return undefined;
            return { path: args.path, external: true };
          });
          // import.meta.url of a compiled module: its own file, as before bundling (paths.ts finds the package root from it).
          build.onLoad({ filter: /\.js$/ }, (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const rel = path.relative(dist, args.path).split(path.sep).join('/');
            return { contents: text.replaceAll('import.meta.url', `${URL_NAME}(${JSON.stringify(rel)})`), loader: 'js' };
          });
        },
      },
    ],
  });
  // import() of a module outside the bundle goes through the loader's function: V8
  // loses a script's dynamic-import host when it is compiled from a code cache.
  const code = result.outputFiles[0]!.text
    .replace(/(?<![\w$."'`])import\(/g, `${IMPORT_NAME}(`)
    // The characters esbuild leaves raw (inside a package's regular expressions): as
    // escapes, equal there as in strings, so that the whole file is ASCII.
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, out);
  if (process.env.PAYCTL_BUNDLE_META) writeFileSync(process.env.PAYCTL_BUNDLE_META, JSON.stringify(result.metafile));
  return code.length;
}
