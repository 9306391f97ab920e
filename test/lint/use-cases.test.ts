// Every entry is a use case (docs/architecture.md, "Every entry is a use case"): commands
// (commands/, src/cli/) and routes (src/http/routes/, the dashboard's pages, the metrics
// scrape) take from src/services only the use cases (`export const x = useCase({…})`, or
// a function that makes one) and the door every adapter passes: running one
// (use-case.ts), the context it runs in (context.ts: `contextFor`), the platform it runs
// on (platform.ts: `openPlatform`, `forGroup`). Types are free (a use case's answer has a
// type). Anything else an entry takes from a service is a second way in: it fails, named
// by file, line and the names it imports. Imports (static, and `import()` with the names it
// destructures) are read with the TypeScript parser, as the layers test reads them.
// Nor does an entry reach past the use cases into a store: its repositories (`.repos`),
// its SQL and its writes (`p.db.get`, `.db.all`, `.db.run`, `.db.write`, `ctx.store.write`,
// …) fail named by file, line and the expression. What a store says of itself (where it
// is, its schema version, its counters, the state servers share) is not its data.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../src/lib/paths.js';
import { typescriptFiles } from './sources.js';

/** The entries: what an operator or a client calls. */
const ENTRIES = ['commands/', 'src/cli/', 'src/tui/', 'src/http/routes/', 'src/http/dashboard/', 'src/http/metrics.ts'];

/** The door every adapter passes, by module: what it may take besides the use cases. */
const DOOR: Record<string, string[]> = {
  'src/services/use-case.ts': ['execute', 'executeRaw', 'withParams'],
  'src/services/context.ts': ['contextFor'],
  'src/services/platform.ts': ['openPlatform', 'forGroup'],
  // The process's own counters (in memory, no store, no rule), which the metrics scrape reads.
  'src/services/telemetry.ts': ['telemetry'],
};

/** Entries that run no use case, and why. */
const ASIDE: Record<string, string> = {
  // It copies one database into another, outside any platform: a use case runs on one.
  'commands/db/copy.ts': 'src/services/db/copy.ts',
};

/** A store's data: what an executor reads and a write runs (src/store/interfaces/db.ts). */
const STORE_DATA = new Set(['all', 'get', 'run', 'write', 'getById', 'getShared', 'deferInsert', 'deferChange', 'deferCheck', 'accumulate', 'afterCommit']);
/** The names a store goes by in an entry: the platform's `db`, a context's `store`, a write's `tx`. */
const STORE_HANDLES = new Set(['db', 'store', 'tx']);

/** Entries that reach into a store themselves, and why: none today. */
const STORE_ASIDE: Record<string, string> = {};

export interface Taken {
  file: string;
  line: number;
  module: string;
  /** The value names taken; `*` for a whole module (a namespace, an import() not destructured). */
  names: string[];
}

const isEntry = (file: string): boolean => ENTRIES.some((e) => (e.endsWith('/') ? file.startsWith(e) : file === e));

function resolve(file: string, spec: string): string {
  return path.relative(packageRoot, path.resolve(path.dirname(path.join(packageRoot, file)), spec)).replace(/\.js$/, '.ts');
}

/** The value imports of `file` from src/services (type-only names left out), each with its line. */
export function takenFromServices(file: string, text: string): Taken[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Taken[] = [];
  const add = (node: ts.Node, spec: string, names: string[]): void => {
    const module = resolve(file, spec);
    if (!spec.startsWith('.') || !module.startsWith('src/services/') || names.length === 0) return;
    out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, module, names });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      if (c && !c.isTypeOnly) {
        const names: string[] = c.name ? ['default'] : [];
        if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) names.push('*');
        else if (c.namedBindings) names.push(...c.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text));
        add(node, node.moduleSpecifier.text, names);
      }
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text) : ['*'];
      add(node, node.moduleSpecifier.text, names);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node, node.arguments[0].text, destructured(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The names `const { a, b } = await import(…)` takes (also one import of several in
 * `const [{ a }, { b }] = await Promise.all([import(…), import(…)])`); `*` where the module
 * is kept whole.
 */
function destructured(call: ts.CallExpression): string[] {
  const up = (n: ts.Node): ts.Node => (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n) ? up(n.parent) : n);
  let binding: ts.BindingName | undefined;
  const node = up(call.parent);
  if (ts.isVariableDeclaration(node)) binding = node.name;
  else if (ts.isArrayLiteralExpression(node) && ts.isCallExpression(node.parent)) {
    const all = up(node.parent.parent);
    const at = node.elements.indexOf(call);
    if (ts.isVariableDeclaration(all) && ts.isArrayBindingPattern(all.name)) {
      const element = all.name.elements[at];
      if (element && ts.isBindingElement(element)) binding = element.name;
    }
  }
  if (!binding || !ts.isObjectBindingPattern(binding)) return ['*'];
  return binding.elements.map((e) => (e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName : (e.name as ts.Identifier)).text);
}

/** The use cases a services module exports: `export const x = useCase(…)`, or `= (…) => useCase(…)`. */
export function useCasesOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const isUseCase = (e: ts.Expression | ts.ConciseBody | undefined): boolean => {
    while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
    if (!e) return false;
    if (ts.isArrowFunction(e)) return isUseCase(e.body);
    return ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'useCase';
  };
  return source.statements.flatMap((s) =>
    ts.isVariableStatement(s) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ? s.declarationList.declarations.filter((d) => ts.isIdentifier(d.name) && isUseCase(d.initializer)).map((d) => (d.name as ts.Identifier).text)
      : [],
  );
}

/** What the entries take from services that is neither a use case nor the door, as `file:line: module: names` lines. */
export function sideDoors(files: Iterable<string>, read: (file: string) => string): string[] {
  const useCases = new Map<string, Set<string>>();
  const allowedIn = (module: string): Set<string> => {
    let names = useCases.get(module);
    if (!names) {
      let text = '';
      try {
        text = read(module);
      } catch {
        // A module that is not there: nothing of it is a use case.
      }
      names = new Set([...useCasesOf(module, text), ...(DOOR[module] ?? [])]);
      useCases.set(module, names);
    }
    return names;
  };
  const out: string[] = [];
  for (const file of files) {
    if (!isEntry(file)) continue;
    for (const t of takenFromServices(file, read(file))) {
      if (ASIDE[file] === t.module) continue;
      const allowed = allowedIn(t.module);
      const bad = t.names.filter((n) => !allowed.has(n));
      if (bad.length) out.push(`${t.file}:${t.line}: ${t.module}: ${bad.join(', ')}`);
    }
  }
  return out;
}

/**
 * Where `file` reaches into a store, as `file:line: expression` lines: any `.repos`, and the
 * store's reads and writes (STORE_DATA) on a handle named `db`, `store` or `tx`.
 */
export function storeAccessOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const handle = (e: ts.Expression): boolean =>
    (ts.isIdentifier(e) && STORE_HANDLES.has(e.text)) || (ts.isPropertyAccessExpression(e) && STORE_HANDLES.has(e.name.text));
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (name === 'repos' || (STORE_DATA.has(name) && handle(node.expression))) {
        out.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every entry's reach into a store (STORE_ASIDE's files aside). */
export function storeAccess(files: Iterable<string>, read: (file: string) => string): string[] {
  return [...files].filter((f) => isEntry(f) && !(f in STORE_ASIDE)).flatMap((f) => storeAccessOf(f, read(f)));
}

test('commands and routes take from src/services only use cases (and the door: execute, contextFor, the platform)', () => {
  const files = [...typescriptFiles('commands'), ...typescriptFiles('src')];
  const found = sideDoors(files, (f) => readFileSync(path.join(packageRoot, f), 'utf8'));
  assert.deepEqual(found, [], `entries that call services other than through a use case (docs/architecture.md, "Every entry is a use case"):\n${found.join('\n')}`);
});

test('a side door is named by file, line and the names taken; use cases, the door and types pass', () => {
  const files: Record<string, string> = {
    'src/services/things.ts': [
      "import { useCase } from './use-case.js';",
      'export const getThing = useCase({ input: s, run: async () => 1 });',
      'export const makeThing = (seed: Seed) => useCase({ input: s, run: async () => seed });',
      'export async function innerThing() {}',
      'export const LIMIT = 3;',
    ].join('\n'),
    'commands/thing/get.ts': [
      "import { getThing, makeThing, type Thing } from '../../src/services/things.js';",
      "import { execute } from '../../src/services/use-case.js';",
      "import type { Platform } from '../../src/services/platform.js';",
      "import { innerThing, LIMIT } from '../../src/services/things.js';",
    ].join('\n'),
    'src/http/routes/things.ts': [
      "import { contextFor, actFor } from '../../services/context.js';",
      "const { getThing, innerThing: inner } = await import('../../services/things.js');",
      "const whole = await import('../../services/things.js');",
      "const [{ execute }, { getThing: g, LIMIT }] = await Promise.all([import('../../services/use-case.js'), import('../../services/things.js')]);",
      "import { listThings } from '../../domain/things.js';",
    ].join('\n'),
    'src/dev/seed.ts': "import { innerThing } from '../services/things.js';",
  };
  const read = (f: string): string => {
    if (!(f in files)) throw new Error(`no ${f}`);
    return files[f];
  };
  assert.deepEqual(sideDoors(Object.keys(files), read), [
    'commands/thing/get.ts:4: src/services/things.ts: innerThing, LIMIT',
    'src/http/routes/things.ts:1: src/services/context.ts: actFor',
    'src/http/routes/things.ts:2: src/services/things.ts: innerThing',
    'src/http/routes/things.ts:3: src/services/things.ts: *',
    'src/http/routes/things.ts:4: src/services/things.ts: LIMIT',
  ]);
  assert.deepEqual(useCasesOf('src/services/things.ts', files['src/services/things.ts']), ['getThing', 'makeThing']);
});

test('commands, the terminal screens and routes reach no store but through a use case', () => {
  const files = [...typescriptFiles('commands'), ...typescriptFiles('src')];
  const found = storeAccess(files, (f) => readFileSync(path.join(packageRoot, f), 'utf8'));
  assert.deepEqual(found, [], `entries that read or write a store themselves (docs/architecture.md, "Every entry is a use case"):\n${found.join('\n')}`);
  const stale = Object.keys(STORE_ASIDE).filter((f) => !files.includes(f) || storeAccessOf(f, readFileSync(path.join(packageRoot, f), 'utf8')).length === 0);
  assert.deepEqual(stale, [], 'exceptions that no longer reach into a store');
});

test('a reach into a store is named by file, line and expression; what a store says of itself passes', () => {
  const files: Record<string, string> = {
    'src/cli/filters.ts': [
      'const text = await p.db.repos.settings.get(p.db, key);',
      'await p.db.write((tx) => tx.repos.settings.put(tx, key, value));',
      "const rows = await p.platform.db.all('SELECT 1');",
      'await ctx.store.write(async (tx) => { await tx.run(sql); });',
      'const row = await db.get(sql);',
    ].join('\n'),
    'src/http/routes/things.ts': [
      'const where = p.db.location + p.db.schemaVersion;',
      'const stats = p.db.stats();',
      'const shared = p.db.shared;',
      'const v = settings.get(name);',
      'const f = flags.db;',
    ].join('\n'),
    'src/http/pipeline/fresh.ts': 'const v = await p.db.repos.versions.configAndClock(p.db);',
    'src/tui/screen.tsx': 'const x = <Box>{String(p.db.get)}</Box>;',
  };
  assert.deepEqual(storeAccess(Object.keys(files), (f) => files[f]), [
    'src/cli/filters.ts:1: p.db.repos',
    'src/cli/filters.ts:2: p.db.write',
    'src/cli/filters.ts:2: tx.repos',
    "src/cli/filters.ts:3: p.platform.db.all",
    'src/cli/filters.ts:4: ctx.store.write',
    'src/cli/filters.ts:4: tx.run',
    'src/cli/filters.ts:5: db.get',
    'src/tui/screen.tsx:1: p.db.get',
  ]);
});
