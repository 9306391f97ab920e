// The fast start of `payctl CMD …`: when the command line names a command of the
// manifest (oclif.manifest.json) and asks for no help, that one command module is
// imported and run with a configuration of payctl's own package only. oclif's own
// start (Config.load of payctl and its three plugins, then a second load inside
// Command.run) is what `payctl --help`, a topic, a mistyped command (the not-found
// plugin's "did you mean"), `autocomplete` and plugin help still go through: for
// those this returns false and bin/run.js hands the command line to oclif's execute().
//
// The command comes from the command bundle (dist/cli-bundle.cjs, src/cli/bundle.ts)
// when it is as new as the compiled files: one file, compiled from V8's code cache kept
// beside it (written after the first run, and again whenever V8 refuses it). Without a
// bundle, or with one older than dist/ (a plain `tsc` since the build), the command's
// own module is imported instead. Nothing else is imported before it is needed.
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { BUNDLE_FILE, IMPORT_NAME } from './bundle.js';
import { compiledSince } from './manifest.js';

type Oclif = typeof import('@oclif/core');
type CommandClass = (new (argv: string[], config: unknown) => object) & { id: string };

interface ManifestCommand {
  id: string;
  relativePath?: string[];
  aliases?: string[];
}
interface Manifest {
  commands: Record<string, ManifestCommand>;
}

/** Flags that oclif answers itself, anywhere on the command line (as its main.run checks them). */
const OCLIF_FLAGS = new Set(['--help', '-h', '--version']);

/** The manifest command that `argv` names (`group list …` → group:list) and the arguments after it. */
export function commandFor(manifest: Manifest, argv: string[]): { command: ManifestCommand; rest: string[] } | undefined {
  if (argv.some((a) => OCLIF_FLAGS.has(a))) return undefined;
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  // A command by its id or one of its aliases (`subscription show` is `subscription get`).
  const named = (id: string): ManifestCommand | undefined => {
    const command = manifest.commands[id] ?? Object.values(manifest.commands).find((c) => c.aliases?.includes(id));
    return command?.relativePath ? command : undefined;
  };
  // `payctl group:list` is the same command as `payctl group list`.
  if (words[0]?.includes(':')) {
    const command = named(words[0]);
    return command ? { command, rest: argv.slice(1) } : undefined;
  }
  // The longest run of words that names a command: `webhook fault add` before `webhook`.
  for (let n = words.length; n > 0; n--) {
    const command = named(words.slice(0, n).join(':'));
    if (command) return { command, rest: argv.slice(n) };
  }
  return undefined;
}

function readManifest(root: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined; // no manifest: oclif finds the commands itself
  }
}

/** The bundle, when there is one at least as new as every compiled command and module. */
export function freshBundle(root: string): string | undefined {
  const file = path.join(root, 'dist', BUNDLE_FILE);
  let built: number;
  try {
    built = statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  return compiledSince(root, built, [path.join('dist', 'commands'), path.join('dist', 'src')]) ? undefined : file;
}

interface Loaded {
  oclif: Pick<Oclif, 'Config' | 'flush' | 'handle'>;
  Cmd: CommandClass;
  /** Write V8's code cache of the bundle when it had none (or a refused one); a no-op otherwise. */
  saveCache(): void;
}

/**
 * The code cache's first line names the bundle it was made from (size and modification
 * time): V8 checks only a source's length before using a cache, and a rebuilt bundle
 * of the same length with another cache would run the wrong code.
 */
function cacheKey(file: string): string {
  const st = statSync(file);
  return `payctl-bundle ${st.size} ${st.mtimeMs}\n`;
}

function readCache(cacheFile: string, key: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cacheFile);
  } catch {
    return undefined; // first run since the build: written after the command
  }
  const head = Buffer.from(key);
  return data.subarray(0, head.length).equals(head) ? data.subarray(head.length) : undefined;
}

/**
 * The bundle's text. It is written ASCII-only (bundle.ts): read as Latin-1 it is a
 * one-byte string, decoded with no UTF-8 pass and half the size in memory (a bundle
 * that is not ASCII, from another build, is decoded as UTF-8).
 */
function bundleText(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Load the bundle (from its code cache when V8 takes it) and the command `id` from it. */
async function fromBundle(file: string, id: string): Promise<Loaded> {
  const cacheFile = `${file}.cache`;
  const key = cacheKey(file);
  const cachedData = readCache(cacheFile, key);
  // The same wrapper as Node's own for a CommonJS file, plus the import() function.
  const source = `(function (exports, require, module, __filename, __dirname, ${IMPORT_NAME}) {${bundleText(file)}\n})`;
  const script = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as { commands: Record<string, () => Promise<{ default: CommandClass }>> } & Loaded['oclif'] };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file), (spec: string) => import(spec));
  const { commands, Config, flush, handle } = module.exports;
  const load = commands[id];
  if (!load) throw new Error(`the command bundle has no command ${id}: run npm run build`);
  const Cmd = (await load()).default;
  const stale = !cachedData || script.cachedDataRejected === true;
  return {
    oclif: { Config, flush, handle },
    Cmd,
    saveCache() {
      if (!stale) return;
      try {
        // Write then rename: concurrent starts never read half a cache.
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.concat([Buffer.from(key), script.createCachedData()]));
        renameSync(tmp, cacheFile);
      } catch {
        // a read-only install: it starts without the cache
      }
    },
  };
}

/** The command's own compiled module and the framework from node_modules (no bundle, or a stale one). */
async function fromModule(root: string, command: ManifestCommand): Promise<Loaded> {
  const [oclif, module] = await Promise.all([
    import('@oclif/core'),
    import(pathToFileURL(path.join(root, ...command.relativePath!)).href) as Promise<{ default: CommandClass }>,
  ]);
  return { oclif, Cmd: module.default, saveCache() {} };
}

/**
 * Run the command `argv` names on the fast path; false when oclif's own start must
 * answer (help, version, a topic, an unknown or misspelled command).
 */
export async function startCommand(root: string, argv: string[]): Promise<boolean> {
  const manifest = readManifest(root);
  const found = manifest && commandFor(manifest, argv);
  if (!found) return false;
  const { command, rest } = found;
  const bundle = process.env.PAYCTL_NO_BUNDLE ? undefined : freshBundle(root);
  // A bundle that cannot be loaded (cut short by a full disk, say) is passed over, not fatal.
  const loaded = (bundle && (await fromBundle(bundle, command.id).catch(() => undefined))) || (await fromModule(root, command));
  const { oclif, Cmd, saveCache } = loaded;
  try {
    const pjson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { oclif: Record<string, unknown> };
    // payctl's own package only: its plugins add commands (help, autocomplete) and a
    // not-found hook, none of which a found command uses; it has no hooks of its own.
    const config = await oclif.Config.load({ root, pjson: { ...pjson, oclif: { ...pjson.oclif, plugins: [] } } as never, userPlugins: false, devPlugins: false });
    Cmd.id = command.id;
    // Command.run(argv, config) would load the configuration a second time; this is its body without that.
    const cmd = new Cmd(rest, config) as { id?: string; _run(): Promise<unknown> };
    cmd.id = command.id;
    await cmd._run();
    saveCache();
    await oclif.flush();
  } catch (err) {
    saveCache();
    await oclif.handle(err as Error);
  }
  return true;
}
