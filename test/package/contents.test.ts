// What `npm pack` ships and what an install of it costs, read from npm itself
// (`npm pack --dry-run --json`, no scripts run) and from the lock file: the docs the README
// links to and the licence are in the tarball, compiled tests are not, and the run-time
// dependencies stay under the size a newcomer should download.
import '../helpers/env.js';
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

/** Bound on the installed run-time dependencies (~183 MiB while Noto Sans SC was a package of nine weights). */
const RUNTIME_DEPENDENCIES_MIB = 120;

let shipped: Set<string>;
before(() => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  shipped = new Set(pack!.files.map((f) => f.path));
});

/** Relative link targets of a Markdown file, as paths from the package root (anchors dropped). */
function links(file: string): string[] {
  const text = readFileSync(path.join(packageRoot, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(file), target)).replace(/\/$/, ''));
}

describe('npm pack', () => {
  it('ships the licence that package.json names, and every page of docs/', () => {
    assert.ok(shipped.has('LICENSE'));
    const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { license: string };
    assert.equal(pkg.license, 'MIT');
    assert.match(readFileSync(path.join(packageRoot, 'LICENSE'), 'utf8'), /^MIT License/);
    // A folder of docs/ (images, benchmarks) is shipped when its files are.
    for (const page of readdirSync(path.join(packageRoot, 'docs'))) assert.ok(shipped.has(`docs/${page}`) || [...shipped].some((f) => f.startsWith(`docs/${page}/`)), `docs/${page} is not shipped`);
  });

  it('ships no tests, compiled or not', () => {
    const tests = [...shipped].filter((f) => f.startsWith('dist/test/') || f.startsWith('test/') || /\.test\.[cm]?[jt]sx?$/.test(f));
    assert.deepEqual(tests, []);
  });

  it('every file the README and docs/ link to is in the tarball', () => {
    const files = ['README.md', ...readdirSync(path.join(packageRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken = files.flatMap((file) =>
      links(file)
        // The test examples are read in the repository (docs/sandboxes.md says so); tests are not shipped.
        .filter((target) => !target.startsWith('test/'))
        .filter((target) => !shipped.has(target) && ![...shipped].some((f) => f.startsWith(`${target}/`)))
        .map((target) => `${file} → ${target}`),
    );
    assert.deepEqual(broken, []);
  });

  it('ships the example the onboarding hint names and the fonts the invoice PDF embeds', () => {
    for (const f of ['data/examples/signup-entry.json', 'data/fonts/NotoSansSC_400Regular.ttf', 'data/fonts/NotoSansSC_700Bold.ttf', 'data/fonts/OFL.txt']) {
      assert.ok(shipped.has(f), `${f} is not shipped`);
    }
  });
});

describe('installed size', () => {
  /** Bytes of a package's own files (its nested node_modules are entries of their own in the lock file). */
  function ownBytes(dir: string): number {
    let total = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) total += e.name === 'node_modules' ? 0 : ownBytes(p);
      else if (e.isFile()) total += statSync(p).size;
    }
    return total;
  }

  it(`the run-time dependencies of the lock file take at most ${RUNTIME_DEPENDENCIES_MIB} MiB installed`, () => {
    const lock = JSON.parse(readFileSync(path.join(packageRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; link?: boolean }> };
    let bytes = 0;
    for (const [key, entry] of Object.entries(lock.packages)) {
      if (key === '' || entry.dev || entry.link) continue;
      const dir = path.join(packageRoot, key);
      // Optional packages of other platforms are in the lock file and not installed.
      if (existsSync(dir)) bytes += ownBytes(dir);
    }
    const mib = bytes / 2 ** 20;
    assert.ok(mib <= RUNTIME_DEPENDENCIES_MIB, `${mib.toFixed(1)} MiB of run-time dependencies`);
    assert.ok(!('node_modules/@expo-google-fonts/noto-sans-sc' in lock.packages), 'Noto Sans SC ships in data/fonts/, not as a package');
  });
});
