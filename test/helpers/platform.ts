// A platform over a fresh temporary database, with the demo data loaded.
import './env.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { seedDemo, type DemoOutput } from '../../src/services/demo.js';

export function tempDbPath(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'payctl-test-')), 'payctl.db');
}

export async function tempPlatform(): Promise<Platform> {
  return openPlatform({ dbPath: tempDbPath() });
}

export async function demoPlatform(): Promise<{ p: Platform; demo: DemoOutput }> {
  const p = await tempPlatform();
  const demo = await seedDemo(p);
  return { p, demo };
}
