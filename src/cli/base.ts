// The base of every payctl command: the --db flag, one platform per command (closed
// afterwards), and one mapping of errors to output and exit codes: a user error is one
// line (plus one per bad field) and exit 1; a usage error (src/cli/usage.ts, and oclif's
// own parse errors) exits 2; a bug is one line, with the stack only when DEBUG is set.
// Under --json each is one JSON error object on stdout.
import { Command, Flags } from '@oclif/core';
import type { Input, ParserOutput } from '@oclif/core/interfaces';

// oclif's parser output bounds (not exported under these names).
type FlagOutput = { [name: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
type ArgOutput = { [name: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
import { AppError } from '../errors.js';
import { forGroup, openPlatform, type Platform } from '../services/platform.js';
import { requireGroup } from '../services/groups/groups.js';
import { dataDirFrom, dbTargetFrom, DbTargetError, ENV } from '../config/env.js';
import { SchemaTooNewError } from '../store/errors.js';
import { resolveSetting, sourceText } from '../config/profile.js';
import type { ProfileGroupFlag } from './flags/group.js';
import { readBodyFile } from './flags/file.js';
import { isUsageError, usage, USAGE_EXIT } from './usage.js';
import { publicUrlFor } from '../config/server-file.js';
import { holdsBigint, stringifyJson } from '../lib/exact-json.js';

/** Whether argv carries --name (as `--name value` or `--name=value`), before any `--`. */
function hasFlag(argv: string[], name: string): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === `--${name}` || a.startsWith(`--${name}=`)) return true;
  }
  return false;
}

function flagValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/** No --group, no PAYCTL_GROUP and no profile default: say each way to give one. */
function noGroupError(): Error {
  return usage(
    `no group given: pass --group GROUP_ID, or set a default with \`payctl config set group GROUP_ID\` (\`payctl group list\` shows the groups; \`payctl init --demo\` makes a demo group the default)`,
  );
}

export abstract class PayctlCommand extends Command {
  static override enableJsonFlag = true;
  static override baseFlags = {
    db: Flags.string({
      description: 'SQLite database file, or postgres://user:password@host:5432/name [default: ./.payctl/payctl.db]',
      env: ENV.db,
      helpGroup: 'GLOBAL',
    }),
    'data-dir': Flags.string({
      description: 'folder for the profile and access log [default: the database file\'s folder; ./.payctl for a URL]',
      env: ENV.dataDir,
      helpGroup: 'GLOBAL',
    }),
  };

  private opened?: Platform;
  /** The --group of this command, when it has one: its services then run on that group's clock. */
  private groupFlag?: string;
  /** Where a --group not typed came from (PAYCTL_GROUP or the profile file), for messages. */
  private groupOrigin?: string;

  protected override async parse<F extends FlagOutput, B extends FlagOutput, A extends ArgOutput>(
    options?: Input<F, B, A>,
    argv: string[] = this.argv,
  ): Promise<ParserOutput<F, B, A>> {
    // A command with the shared --group flag and no --group gets the resolved default
    // (PAYCTL_GROUP, then the profile) as if typed, so oclif's own checks still apply.
    const def = (options?.flags as Record<string, Partial<ProfileGroupFlag>> | undefined)?.group;
    if (def?.profileGroup && !hasFlag(argv, 'group') && !hasFlag(argv, 'help')) {
      const dataDir = dataDirFrom(dbTargetFrom(flagValue(argv, 'db')), flagValue(argv, 'data-dir'));
      const resolved = resolveSetting('group', { dataDir });
      if (resolved.value) {
        argv = [...argv, '--group', resolved.value];
        this.groupOrigin = sourceText('group', resolved, dataDir);
      }
    }
    const parsed = await super.parse(options, argv).catch((err: unknown) => {
      // oclif's "Missing required flag group" does not say where a group comes from.
      if (def?.profileGroup && err instanceof Error && /Missing required flag group\b/.test(err.message)) throw noGroupError();
      throw err;
    });
    const group = (parsed.flags as { group?: unknown }).group;
    if (typeof group === 'string') this.groupFlag = group;
    return parsed;
  }

  /** The platform, seen from the command's --group (that group's clock) when it names one. */
  protected async platform(dbFlag: string | undefined): Promise<Platform> {
    if (!this.opened) {
      const p = await openPlatform({ db: dbTargetFrom(dbFlag), dataDir: flagValue(this.argv, 'data-dir') });
      // Page URLs (pay pages, invoice pages) are printed with the address the server really serves.
      p.publicUrl = publicUrlFor(p.dataDir, p.db.location, p.env).url;
      this.opened = p;
    }
    if (!this.groupFlag) return this.opened;
    // One check for every command with --group, so an unknown group is named as such
    // rather than surfacing as whatever the command validates first.
    await requireGroup(this.opened.db, this.groupFlag, { named: true }).catch((err: unknown) => {
      if (err instanceof AppError && this.groupOrigin) err.message = `${err.message} (the group set in ${this.groupOrigin})`;
      throw err;
    });
    return forGroup(this.opened, this.groupFlag);
  }

  /** The folder of the profile and access log for this command's --db and --data-dir. */
  protected dataDir(dbFlag: string | undefined): string {
    return dataDirFrom(dbTargetFrom(dbFlag), flagValue(this.argv, 'data-dir'));
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    await this.opened?.close().catch(() => undefined);
    return super.finally(err);
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof DbTargetError) err = new AppError(400, 'validation_error', err.message);
    if (err instanceof AppError) {
      if (this.jsonEnabled()) {
        this.logJson({ ...err.toBody(), status: err.status });
        this.exit(1);
      }
      const lines = [err.message, ...(err.fields ?? []).slice(err.fields?.length === 1 ? 1 : 0).map((f) => `  ${f.path}: ${f.message}`)];
      this.error(lines.join('\n'), { exit: 1 });
    }
    if (err instanceof SchemaTooNewError) this.error(err.message, { exit: 1 });
    if (isUsageError(err) && this.jsonEnabled()) {
      // oclif would print the whole parse state; one line of what is wrong is the answer.
      this.logJson({ error: { type: 'usage_error', message: err.message.replace(/\nSee more help with --help$/, '').replace(/\s*\n\s*/g, ' ') } });
      this.exit(USAGE_EXIT);
    }
    if (err.oclif || process.env[ENV.debug]) return super.catch(err);
    this.error(err.message || String(err), { exit: 1 });
  }

  /** --json output: oclif's, except that a sum beyond 2^53 (a bigint) is written as an exact integer. */
  protected override logJson(json: unknown): void {
    if (!holdsBigint(json)) return super.logJson(json);
    // Not this.log: oclif silences it under --json.
    process.stdout.write(`${stringifyJson(json, 2)}\n`);
  }

  /** A request body from --file (a path, or - for stdin). */
  protected readBodyFile(file: string): Promise<unknown> {
    return readBodyFile(file);
  }
}
