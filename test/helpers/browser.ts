// Headless Chromium for the hosted-page tests, from npm: the @sparticuz/chromium package
// carries a self-contained browser (brotli-packed binary, its NSS libraries, a font), so
// the tests need no system browser; playwright-core drives it.
//
// It is unpacked here rather than by the package's executablePath(), which writes to a
// fixed /tmp/chromium that it trusts once it exists: two test files starting together (or
// one killed while unpacking) would launch a half-written binary. Here a process unpacks
// into a folder of its own and renames it into place whole; the first rename wins.
// The package's recommended flags are for serverless functions and are not used:
// `--single-process` ends the browser with its first closed page, and
// `--disable-web-security` would hide what the pages' headers do.
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const packed = path.join(path.dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '../../bin');
const version = (JSON.parse(readFileSync(path.join(packed, '../package.json'), 'utf8')) as { version: string }).version;

/** Regular files and folders of a brotli-packed tar (all these archives hold). */
function untarBrotli(file: string, into: string): void {
  const tar = brotliDecompressSync(readFileSync(file));
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.subarray(at, at + 100).toString('utf8').replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(tar.subarray(at + 124, at + 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156]!);
    const target = path.join(into, name);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(at + 512, at + 512 + size));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

async function unpacked(): Promise<string> {
  const dir = path.join(os.tmpdir(), `payctl-chromium-${version}`);
  if (existsSync(path.join(dir, 'chromium'))) return dir;
  const staging = mkdtempSync(`${dir}.unpacking-`);
  try {
    await pipeline(createReadStream(path.join(packed, 'chromium.br')), createBrotliDecompress(), createWriteStream(path.join(staging, 'chromium'), { mode: 0o700 }));
    untarBrotli(path.join(packed, 'al2023.tar.br'), staging); // lib/: NSS, NSPR, expat
    untarBrotli(path.join(packed, 'swiftshader.tar.br'), staging);
    untarBrotli(path.join(packed, 'fonts.tar.br'), path.join(staging, 'fonts'));
    writeFileSync(
      path.join(staging, 'fonts', 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${dir}/fonts</dir>\n  <cachedir>${dir}/fonts-cache</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'chromium'))) throw err; // else another process won the rename
  }
  return dir;
}

export async function launchBrowser(): Promise<Browser> {
  const dir = await unpacked();
  return chromium.launch({
    executablePath: path.join(dir, 'chromium'),
    args: ['--no-sandbox', '--no-zygote', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    env: {
      ...process.env,
      LD_LIBRARY_PATH: [path.join(dir, 'lib'), dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: path.join(dir, 'fonts'),
    },
    headless: true,
  });
}
