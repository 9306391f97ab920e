// The base of every payctl command: the --db flag, one platform per command (closed
// afterwards), and one mapping of errors to output and exit codes: a user error is one
// line (plus one per bad field) and exit 1; a usage error (src/cli/usage.ts, and oclif's
// own parse errors) exits 2; a bug is one line, with the stack only when DEBUG is set.
// Under --json each is one JSON error object on stdout.
import { Command, Flags } from '@oclif/core';
import type { ZodType } from 'zod';
import type { Input, ParserOutput } from '@oclif/core/interfaces';

// oclif's parser output bounds (not exported under these names).
type FlagOutput = { [name: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
type ArgOutput = { [name: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
import { AppError } from '../errors.js';
import { forGroup, openPlatform, type Platform } from '../services/platform.js';
import { getGroup } from '../services/groups/groups.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';
import { dataDirFrom, dbName, dbTargetFrom, DbTargetError, ENV, EnvError } from '../config/env.js';
import { SchemaTooNewError } from '../store/errors.js';
import { resolveSetting, sourceText } from '../config/profile.js';
import type { ProfileGroupFlag } from './flags/group.js';
import { readBodyFile } from './flags/file.js';
import { isUsageError, usage, USAGE_EXIT } from './usage.js';
import { shortParseError, type CommandShape } from './suggest.js';
import { problemsInFlags } from './flags/fields.js';
import { showWideTables } from '../render/table.js';
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

/**
 * A flag is required in usage when the request schema requires its field (so the usage
 * line and the rules agree), but not when its value comes another way: from --file
 * (the whole body), or from the other flag of an exclusive pair (--amount-cents for
 * --amount). Those flags are made optional for this parse only.
 */
function relaxRequired<T>(options: T, argv: string[]): T {
  const flags = (options as { flags?: Record<string, { required?: boolean; exclusive?: string[] }> } | undefined)?.flags;
  if (!flags) return options;
  const withFile = flags.file !== undefined && hasFlag(argv, 'file');
  let changed: Record<string, unknown> | undefined;
  for (const [name, def] of Object.entries(flags)) {
    if (!def.required || name === 'group' || name === 'file') continue;
    const other = (def.exclusive ?? []).some((x) => x !== 'file' && hasFlag(argv, x));
    if (!withFile && !other) continue;
    changed ??= { ...flags };
    changed[name] = { ...def, required: false };
  }
  if (!changed) return options;
  // `options` is the command class: its inherited statics (baseFlags, enableJsonFlag, args…) are read too.
  const copy: Record<string, unknown> = {};
  for (let o: object | null = options as object; o && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) if (!(key in copy) && key !== 'prototype') copy[key] = (options as Record<string, unknown>)[key];
  }
  return { ...copy, flags: changed } as T;
}

/** No --group, no PAYCTL_GROUP and no profile default: say each way to give one, and which database has none. */
function noGroupError(db: string): Error {
  return usage(
    `no group given: pass --group GROUP_ID, or set a default with \`payctl config set group GROUP_ID\` (\`payctl group list\` shows the groups; \`payctl init --demo\` makes a demo group the default); database: ${db}`,
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
    wide: Flags.boolean({
      description: 'tables: every column at full width (default: fit the terminal, least important columns hidden)',
      helpGroup: 'GLOBAL',
    }),
    'data-dir': Flags.string({
      description: 'folder for the profile and access log [default: the database file\'s folder; ./.payctl for a URL]',
      env: ENV.dataDir,
      helpGroup: 'GLOBAL',
    }),
  };

  /**
   * The request schema of the body this command builds from its flags (when it builds
   * one): a flag whose field the schema requires is `required` (checked by a test), and
   * errors on its fields name the flag (src/cli/flags/fields.ts).
   */
  static bodySchema?: ZodType;

  private opened?: Platform;
  /** The parsed flags, to report a refused body in the flags that built it. */
  private given?: Record<string, unknown>;
  /** The --group of this command, when it has one: its services then run on that group's clock. */
  private groupFlag?: string;
  /** Where a --group not typed came from (PAYCTL_GROUP or the profile file), for messages. */
  private groupOrigin?: string;
  /** The default --group (resolved, not typed), noted in the usage line. */
  private groupDefault?: string;

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
        this.groupDefault = resolved.value;
      }
    }
    const parsed = await super.parse(relaxRequired(options, argv), argv);
    // Optional for oclif (a default may supply it), needed here: say each way to give one.
    if (def?.profileGroup === 'required' && (parsed.flags as { group?: unknown }).group === undefined) throw noGroupError(dbName(dbTargetFrom(flagValue(argv, 'db'))));
    this.given = parsed.flags as Record<string, unknown>;
    if ((parsed.flags as { wide?: boolean }).wide) showWideTables(true);
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
    await execute(getGroup, this.opened, contextFor(this.opened, undefined), { group_id: this.groupFlag, named: true }).catch((err: unknown) => {
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
    if (err instanceof DbTargetError || err instanceof EnvError) err = new AppError(400, 'validation_error', err.message);
    if (err instanceof AppError) {
      if (this.jsonEnabled()) {
        this.logJson({ ...err.toBody(), status: err.status });
        this.exit(1);
      }
      this.error(this.userErrorText(err), { exit: 1 });
    }
    if (err instanceof SchemaTooNewError) this.error(err.message, { exit: 1 });
    // An unknown flag or a missing argument: what is wrong and the usage line, not the whole help.
    const short = shortParseError(err, this.shape());
    if (short) err = short;
    if (isUsageError(err) && this.jsonEnabled()) {
      // oclif would print the whole parse state; one line of what is wrong is the answer.
      const message = (err as { jsonMessage?: string }).jsonMessage ?? err.message;
      this.logJson({ error: { type: 'usage_error', message: message.replace(/\nSee more help with --help$/, '').replace(/\s*\n\s*/g, ' ') } });
      this.exit(USAGE_EXIT);
    }
    if (err.oclif || process.env[ENV.debug]) return super.catch(err);
    this.error(err.message || String(err), { exit: 1 });
  }

  /**
   * A user error as printed: its message, then one line per bad field. A body built from
   * flags is reported in those flags (src/cli/flags/fields.ts); a --file body in the API's names.
   */
  private userErrorText(err: AppError): string {
    const fields = err.fields ?? [];
    const fromFlags = this.given !== undefined && this.given.file === undefined;
    const problems = fromFlags
      ? problemsInFlags(fields, (this.ctor as typeof PayctlCommand).flags ?? {}, this.given!)
      : fields.map((f) => ({ label: f.path, message: f.message }));
    if (problems.length === 0) return err.message;
    // The message of a validation error is its first field and a count: say it in the flags too.
    const first = fields[0]!;
    const summarised = err.message.startsWith(`${first.path}: ${first.message}`);
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    const head = summarised ? `${problems[0]!.label}: ${problems[0]!.message}${more}` : err.message;
    const list = summarised && problems.length === 1 ? [] : problems.map((p) => `  ${p.label}: ${p.message}`);
    return [head, ...list].join('\n');
  }

  /** The command's id, flags and arguments, for usage lines and suggestions. */
  private shape(): CommandShape {
    const ctor = this.ctor as typeof PayctlCommand;
    return {
      id: this.id ?? '',
      bin: this.config.bin,
      flags: { ...(ctor.flags ?? {}), ...(ctor.baseFlags ?? {}), ...(ctor.enableJsonFlag ? { json: {} } : {}) },
      args: ctor.args ?? {},
      ...(this.groupDefault ? { defaults: { group: `${this.groupDefault} (${this.groupOrigin === ENV.group ? ENV.group : "the profile's"})` } } : {}),
    };
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
