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

/** Top to bottom. The folders of one row sit side by side: they may import each other. A
 * new folder inside one (src/http/dashboard/) is part of it. */
export const LAYERS: string[][] = [
  ['commands/'],
  ['src/cli/', 'src/tui/', 'src/render/'],
  ['src/dev/'],
  ['src/http/'],
  ['src/services/'],
  ['src/mail/', 'src/store/', 'src/pdf/'],
  ['src/domain/'],
  ['src/processor/'],
  ['src/lib/', 'src/config/', 'src/errors.ts'],
];

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

/** Every relative import (static, re-export, dynamic) of `file`, with its line. */
export function arrowsOf(file: string, text: string): Arrow[] {
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
  return found
    .filter((f) => f.spec.startsWith('.'))
    .map((f) => ({
      file,
      line: source.getLineAndCharacterOfPosition(f.pos).line + 1,
      to: path.relative(packageRoot, path.resolve(path.dirname(path.join(packageRoot, file)), f.spec)).replace(/\.js$/, '.ts'),
      typeOnly: f.typeOnly,
    }));
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
