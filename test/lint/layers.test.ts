// The layers point down (docs/architecture.md, "The rooms stay apart"): a folder imports
// only the folders below it, type-only imports included, so each layer can be read and
// tested with only what is under it. The one tie allowed is the store contract's own
// (its interfaces name each other by type, inside one folder). Imports are read with the
// same parser as the import-loop test.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../src/lib/paths.js';
import { typescriptFiles } from './sources.js';

/**
 * The layer order as docs/architecture.md states it ("The rooms stay apart": the `text`
 * block after "The layers point down"), so the page and this test cannot drift: a row a
 * line, top to bottom, its folders (and files) side by side; words in parentheses are the
 * page's notes.
 */
export function layersFrom(doc: string): string[][] {
  const m = /The layers point down\.[^]*?```text\n([^]*?)```/.exec(doc);
  assert.ok(m, 'docs/architecture.md states the layers in a ```text block after "The layers point down."');
  const rows = m[1]!
    .split('\n')
    .map((line) => line.replace(/\([^)]*\)/g, '').trim())
    .filter((line) => line.length > 0)
    .map((line) => line.split(/\s+/));
  for (const row of rows) for (const folder of row) assert.match(folder, /^(commands|src)\/([\w-]+\/|[\w-]+\.ts)?$/, `a layer of docs/architecture.md: ${folder}`);
  return rows;
}

/** Top to bottom. The folders of one row sit side by side: they may import each other. A
 * new folder inside one (src/http/dashboard/) is part of it. */
export const LAYERS: string[][] = layersFrom(readFileSync(path.join(packageRoot, 'docs/architecture.md'), 'utf8'));

/** Client-side packages (they talk to a server over HTTP): they may import only these. */
const CLIENT_SIDE: Record<string, string[]> = {
  'src/testing/': ['src/client/', 'src/lib/', 'src/config/'],
  'src/client/': ['src/lib/', 'src/config/'],
};
/** The layers that act as a server's clients, the only ones that may use the packages above
 * (the scenario runner's webhook collector is payctl/testing's). */
const CLIENTS = ['commands/', 'src/cli/', 'src/tui/', 'src/render/', 'src/dev/'];

/** The folder a file belongs to (a layer's or a client-side package's), or undefined. */
export function placeOf(file: string): string | undefined {
  return [...LAYERS.flat(), ...Object.keys(CLIENT_SIDE)].find((folder) => (folder.endsWith('/') ? file.startsWith(folder) : file === folder));
}

function rowOf(folder: string): number {
  return LAYERS.findIndex((row) => row.includes(folder));
}

/** Whether a module in folder `from` may import one in folder `to`. */
export function allowed(from: string, to: string): boolean {
  if (from === to) return true;
  if (CLIENT_SIDE[from]) return CLIENT_SIDE[from].includes(to);
  if (CLIENT_SIDE[to]) return CLIENTS.includes(from);
  return rowOf(to) >= rowOf(from);
}

export interface Arrow {
  file: string;
  line: number;
  to: string;
  typeOnly: boolean;
}

/** Every import (static, re-export, dynamic) of `file`: its specifier, line and whether it is type-only. */
export function importsOf(file: string, text: string): Array<{ spec: string; line: number; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ spec: string; typeOnly: boolean; pos: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      found.push({ spec: node.moduleSpecifier.text, typeOnly, pos: node.getStart(source) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, pos: node.getStart(source) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ spec: node.arguments[0].text, typeOnly: false, pos: node.getStart(source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.map((f) => ({ spec: f.spec, line: source.getLineAndCharacterOfPosition(f.pos).line + 1, typeOnly: f.typeOnly }));
}

/** Every relative import (static, re-export, dynamic) of `file`, with its line. */
export function arrowsOf(file: string, text: string): Arrow[] {
  return importsOf(file, text)
    .filter((f) => f.spec.startsWith('.'))
    .map((f) => ({
      file,
      line: f.line,
      to: path.relative(packageRoot, path.resolve(path.dirname(path.join(packageRoot, file)), f.spec)).replace(/\.js$/, '.ts'),
      typeOnly: f.typeOnly,
    }));
}

/**
 * Modules that do I/O (files, network, processes, a database, mail, a server): src/domain
 * holds pure rules (docs/architecture.md: "no I/O"), so it imports none of them, type-only
 * imports included. `node:` and bare names alike; a subpath (`fs/promises`) counts as its module.
 */
export const IO_MODULES = new Set([
  'fs', 'net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'child_process', 'cluster', 'worker_threads', 'readline', 'inspector', 'repl',
  'sqlite3', 'pg', 'pg-cursor', 'nodemailer', 'polka', 'better-sse', 'eventsource', 'openapi-fetch', 'pdfkit', '@resvg/resvg-js',
]);

/** The I/O modules `file` imports, as `file:line: module` lines. */
export function ioImports(file: string, text: string): string[] {
  return importsOf(file, text)
    .filter((f) => !f.spec.startsWith('.'))
    .filter((f) => {
      const bare = f.spec.replace(/^node:/, '');
      const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
      return IO_MODULES.has(name);
    })
    .map((f) => `${file}:${f.line}: ${f.spec}${f.typeOnly ? ' (type-only)' : ''}`);
}

/** The imports that run up the layers, as `file:line: from → to` lines. */
export function upward(files: Iterable<string>, read: (file: string) => string): string[] {
  const out: string[] = [];
  for (const file of files) {
    const from = placeOf(file);
    if (!from) continue;
    for (const arrow of arrowsOf(file, read(file))) {
      const to = placeOf(arrow.to);
      if (!to || allowed(from, to)) continue;
      out.push(`${file}:${arrow.line}: ${from} → ${to} (${arrow.to}${arrow.typeOnly ? ', type-only' : ''})`);
    }
  }
  return out;
}

test('every import in commands/ and src/ points down the layers', () => {
  const files = [...typescriptFiles('commands'), ...typescriptFiles('src')];
  const found = upward(files, (f) => readFileSync(path.join(packageRoot, f), 'utf8'));
  assert.deepEqual(found, [], `imports that run up the layers (docs/architecture.md, "The rooms stay apart"):\n${found.join('\n')}`);
});

test('an upward import is named by file, line and arrow; type-only ones count; the contract may name itself', () => {
  const text = "import { x } from '../http/route.js';\nimport type { Y } from '../../render/format.js';\nimport { z } from '../lib/ids.js';";
  const files: Record<string, string> = {
    'src/services/a.ts': "import type { Tx } from '../store/interfaces/db.js';\n" + text.split('\n')[2],
    'src/services/events/b.ts': "import { ok } from '../../store/errors.js';\n" + text.split('\n')[1],
    'src/store/interfaces/db.ts': "import type { Repositories } from './store.js';",
    'src/testing/c.ts': "import { z } from '../lib/ids.js';\nimport { s } from '../services/platform.js';",
    'src/lib/d.ts': "import { StoreUnavailable } from '../store/errors.js';",
    'src/http/dashboard/e.ts': "import { x } from '../route.js';\nimport { y } from '../../services/platform.js';",
  };
  assert.deepEqual(upward(Object.keys(files), (f) => files[f]), [
    'src/services/events/b.ts:2: src/services/ → src/render/ (src/render/format.ts, type-only)',
    'src/testing/c.ts:2: src/testing/ → src/services/ (src/services/platform.ts)',
    'src/lib/d.ts:1: src/lib/ → src/store/ (src/store/errors.ts)',
  ]);
  assert.equal(allowed('src/mail/', 'src/store/'), true, 'folders of one row may import each other');
  assert.equal(allowed('src/services/', 'src/testing/'), false, 'only the client layers import the client-side packages');
  assert.equal(allowed('src/dev/', 'src/testing/'), true);
  assert.equal(allowed('src/testing/', 'src/client/'), true);
});

test('the layers are read from docs/architecture.md', () => {
  assert.deepEqual(LAYERS[0], ['commands/']);
  assert.ok(LAYERS.some((row) => row.includes('src/domain/')), 'src/domain/ is a layer');
  assert.deepEqual(LAYERS.at(-1), ['src/lib/', 'src/config/', 'src/errors.ts']);
  const doc = 'The layers point down. Top to bottom:\n\n```text\ncommands/\nsrc/http/   (a note)\nsrc/lib/  src/errors.ts\n```\n';
  assert.deepEqual(layersFrom(doc), [['commands/'], ['src/http/'], ['src/lib/', 'src/errors.ts']]);
  assert.throws(() => layersFrom('no layers here'));
  assert.throws(() => layersFrom('The layers point down.\n```text\ncommands/ and more\n```'));
});

test('src/domain imports no I/O module', () => {
  const found = [...typescriptFiles('src/domain')].flatMap((f) => ioImports(f, readFileSync(path.join(packageRoot, f), 'utf8')));
  assert.deepEqual(found, [], `I/O in src/domain (docs/architecture.md: domain does no I/O):\n${found.join('\n')}`);
});

test('an I/O import is named by file and line; pure modules pass', () => {
  const text = [
    "import { readFileSync } from 'node:fs';",
    "import { z } from 'zod';",
    "import { createHash } from 'node:crypto';",
    "import type { Server } from 'http';",
    "const { readFile } = await import('node:fs/promises');",
    "import { Pool } from 'pg';",
    "import { x } from './local.js';",
    "export { Database } from 'sqlite3';",
  ].join('\n');
  assert.deepEqual(ioImports('src/domain/x.ts', text), [
    'src/domain/x.ts:1: node:fs',
    'src/domain/x.ts:4: http (type-only)',
    'src/domain/x.ts:5: node:fs/promises',
    'src/domain/x.ts:6: pg',
    'src/domain/x.ts:8: sqlite3',
  ]);
});
