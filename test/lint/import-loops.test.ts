// The modules under src/ import each other without loops: a loop ties its files into
// one piece that can only be read, tested and changed together (and, at run time, one of
// them sees the other half-loaded). The graph is read with the TypeScript compiler's
// parser, type-only imports included. The one tie allowed is the store contract's: the
// interfaces in src/store/interfaces/ name each other by type (db.ts's executor and
// store.ts's repositories), which is how a contract is written, not a knot.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../src/lib/paths.js';
import { typescriptFiles } from './sources.js';

const CONTRACT = 'src/store/interfaces/';
/** Loops known and being cut elsewhere; none may be added (the last, reporting ↔ transactions, was cut by src/store/sql/rollup.ts). */
const KNOWN: string[][] = [];

export interface Import {
  /** The module, as a path from the package root. */
  path: string;
  /** `import type`, or every name imported is a type: erased at run time. */
  typeOnly: boolean;
}

/** The relative modules `file` imports or re-exports (static and dynamic). */
export function importsOf(file: string, text: string): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Array<{ spec: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      found.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ spec: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out: Import[] = [];
  for (const { spec, typeOnly } of found.filter((f) => f.spec.startsWith('.'))) {
    const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '');
    const hit = ['.ts', '.tsx', '/index.ts'].map((ext) => target + ext).find((candidate) => existsSync(candidate));
    if (hit) out.push({ path: path.relative(packageRoot, hit), typeOnly });
  }
  return out;
}

/** The strongly connected sets of more than one module (Tarjan), each sorted. */
export function loops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const at = (m: Map<string, number>, k: string): number => m.get(k) ?? Infinity;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(at(low, v), at(low, w)));
      } else if (onStack.has(w)) low.set(v, Math.min(at(low, v), at(index, w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) found.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

test('no import loops in src/ but the store contract’s type-only tie', () => {
  const graph = new Map<string, string[]>();
  for (const from of typescriptFiles('src')) {
    const file = path.join(packageRoot, from);
    const edges = importsOf(file, readFileSync(file, 'utf8')).filter((i) => !(i.typeOnly && from.startsWith(CONTRACT) && i.path.startsWith(CONTRACT)));
    graph.set(from, edges.map((i) => i.path));
  }
  const known = new Set(KNOWN.map((l) => l.join(' ')));
  assert.deepEqual(loops(graph).filter((l) => !known.has(l.join(' '))), []);
});

test('imports are read as the compiler sees them: type-only, re-exports, dynamic', () => {
  const file = path.join(packageRoot, 'src', 'http', 'app.ts');
  const text = "import type { A } from './route.js';\nimport { type B, c } from './body.js';\nexport * from './runtime.js';\nconst m = () => import('./access-log.js');\nimport x from 'node:http';";
  assert.deepEqual(importsOf(file, text), [
    { path: 'src/http/route.ts', typeOnly: true },
    { path: 'src/http/body.ts', typeOnly: false },
    { path: 'src/http/runtime.ts', typeOnly: false },
    { path: 'src/http/access-log.ts', typeOnly: false },
  ]);
});

test('the loop finder finds a loop through three modules and ignores a chain', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
  ]);
  assert.deepEqual(loops(graph), [['a', 'b', 'c']]);
  assert.deepEqual(loops(new Map([['a', ['b']], ['b', []]])), []);
});
