// The profile: settings stored beside the database (config.json in the database's
// folder, so each database keeps its own default group and server) and how each
// setting is resolved. One order for every setting, shown by `payctl config list`:
//   1. the command's flag (--group)
//   2. the environment (PAYCTL_GROUP, PAYCTL_API_URL)
//   3. the profile (`payctl config set group G`)
//   4. the built-in default (none for group; http://127.0.0.1:4000 for api-url)
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors.js';
import { ENV, type Env } from './env.js';

export const PROFILE_FILE = 'config.json';

export interface SettingSpec {
  env: string;
  description: string;
  default?: string;
  /** Why a value is refused, or undefined when it is fine. */
  check(value: string): string | undefined;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SETTINGS = {
  group: {
    env: ENV.group,
    description: 'the group commands act on when --group is not given',
    check: (v: string) => (UUID_RE.test(v) ? undefined : `${JSON.stringify(v)} is not a group id (a UUID)`),
  },
  'api-url': {
    env: ENV.apiUrl,
    description: 'the payctl server commands talk to over HTTP',
    default: 'http://127.0.0.1:4000',
    check(v: string) {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : `${JSON.stringify(v)} is not an http or https URL`;
      } catch {
        return `${JSON.stringify(v)} is not a URL (write http://host:port)`;
      }
    },
  },
} satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
export type Profile = Partial<Record<SettingName, string>>;
export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'unset';

/** The profile of a data directory (config/env.ts dataDirFrom: the SQLite file's folder by default). */
export const profilePath = (dataDir: string) => path.join(dataDir, PROFILE_FILE);

export function readProfile(dataDir: string): Profile {
  const file = profilePath(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(SETTING_NAMES.filter((k) => typeof data[k] === 'string').map((k) => [k, data[k]])) as Profile;
  } catch {
    throw new AppError(400, 'validation_error', `${file} is not valid JSON: fix or remove it`);
  }
}

/** Write the whole profile (to a temporary file, then renamed: never half-written). */
export function writeProfile(dataDir: string, profile: Profile): string {
  const file = profilePath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(profile, null, 2)}\n`);
  renameSync(tmp, file);
  return file;
}

export function checkSetting(name: string, value: string): SettingName {
  if (!(name in SETTINGS)) {
    throw new AppError(400, 'validation_error', `${name} is not a setting; use one of: ${SETTING_NAMES.join(', ')}`);
  }
  const why = SETTINGS[name as SettingName].check(value);
  if (why) throw new AppError(400, 'validation_error', `${name}: ${why}`);
  return name as SettingName;
}

export interface Resolved {
  value: string | undefined;
  source: SettingSource;
}

/** A setting by the order above. */
export function resolveSetting(name: SettingName, opts: { flag?: string; dataDir: string; env?: Env; profile?: Profile }): Resolved {
  if (opts.flag !== undefined) return { value: opts.flag, source: 'flag' };
  const spec: SettingSpec = SETTINGS[name];
  const fromEnv = (opts.env ?? process.env)[spec.env];
  if (fromEnv) return { value: fromEnv, source: 'env' };
  const saved = (opts.profile ?? readProfile(opts.dataDir))[name];
  if (saved) return { value: saved, source: 'profile' };
  return spec.default ? { value: spec.default, source: 'default' } : { value: undefined, source: 'unset' };
}

/** Where a resolved setting came from, for messages ("from PAYCTL_GROUP"). */
export function sourceText(name: SettingName, r: Resolved, dataDir: string): string {
  switch (r.source) {
    case 'flag':
      return `--${name}`;
    case 'env':
      return SETTINGS[name].env;
    case 'profile':
      return profilePath(dataDir);
    default:
      return r.source;
  }
}

/**
 * Make `groupId` the profile's default group when the profile names none (or names a
 * group this database does not have, e.g. after the database was deleted), so the first
 * group a newcomer makes (`init --demo`, the first `group create`) is the one every
 * later command acts on. Returns the profile file when it wrote it.
 */
export async function adoptDefaultGroup(
  dataDir: string,
  groupId: string,
  groupExists: (id: string) => Promise<boolean>,
): Promise<string | undefined> {
  const profile = readProfile(dataDir);
  if (profile.group && (profile.group === groupId || (await groupExists(profile.group)))) return undefined;
  return writeProfile(dataDir, { ...profile, group: groupId });
}
