// Reading a scenario file (YAML, or JSON, which YAML reads too) into a checked Scenario,
// with the line and column of every problem, all of them at once, before anything runs:
// syntax errors (the yaml library's own positions), shape errors (the domain schema's
// issues, placed at the node their path names) and references to names no earlier step
// saves or to environment variables that are not set. The line of each step is kept for
// the run's output ("step 4, line 17").
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import {
  BUILT_IN_SCOPES,
  envNames,
  kindOf,
  referencedNames,
  scenarioSchema,
  STEP_KINDS,
  STEP_SCHEMAS,
  type Scenario,
  type Step,
} from '../domain/scenarios.js';

export interface ScenarioProblem {
  line: number;
  column: number;
  /** The dotted path of the value (steps.3.body.amount), empty for the file. */
  path: string;
  message: string;
}

export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ScenarioProblem[],
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${file}:${p.line}:${p.column} ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n')}`);
  }
}

export interface LoadedScenario {
  scenario: Scenario;
  /** The line of each step, by its path (`steps.2`, `steps.4.steps.0`). */
  lines: Map<string, number>;
}

type Path = Array<string | number>;

/** The node at `path`, or the deepest node on the way there. */
function nodeAt(doc: Document, path: Path): Node | undefined {
  let node: unknown = doc.contents;
  for (const part of path) {
    const next = (node as { get?: (k: unknown, keep: boolean) => unknown } | undefined)?.get?.(part, true);
    if (next === undefined || next === null) break;
    node = next;
  }
  return node as Node | undefined;
}

/** The key node of `key` in the map at `path` (where an unknown key is reported). */
function keyNode(doc: Document, path: Path, key: string): Node | undefined {
  const map = nodeAt(doc, path);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}

export function parseScenario(text: string, file = 'scenario'): LoadedScenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const at = (node: Node | undefined): { line: number; column: number } => {
    const offset = node?.range?.[0] ?? 0;
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    throw new ScenarioFileError(
      file,
      doc.errors.map((e) => ({ line: e.linePos?.[0].line ?? 1, column: e.linePos?.[0].col ?? 1, path: '', message: e.message.split('\n')[0]! })),
    );
  }
  const data: unknown = doc.toJS();
  const problems: ScenarioProblem[] = [];
  const add = (path: Path, message: string, node = nodeAt(doc, path)) => problems.push({ ...at(node), path: path.join('.'), message });
  const addIssues = (issues: z.core.$ZodIssue[], base: Path) => {
    for (const issue of issues) {
      const path = [...base, ...(issue.path as Path)];
      if (issue.code === 'unrecognized_keys') {
        for (const k of issue.keys) add([...path, k], `is not a field here${hintFor(k)}`, keyNode(doc, path, k));
      } else add(path, issue.message);
    }
  };

  // The file's own fields first, steps checked one by one against their kind's schema.
  const top = scenarioSchema.safeParse({ ...(isObject(data) ? data : {}), steps: [{ clock: { advance: '1s' } }] });
  if (!isObject(data)) add([], 'must be a mapping with name and steps');
  else if (!top.success) addIssues(top.error.issues.filter((i) => i.path[0] !== 'steps'), []);
  const steps = isObject(data) ? data.steps : undefined;
  const lines = new Map<string, number>();
  const saved = new Set<string>();
  if (isObject(data)) {
    if (!Array.isArray(steps) || steps.length === 0) add(['steps'], 'must be a list of at least one step');
    else checkSteps(steps, ['steps']);
  }

  function checkSteps(list: unknown[], base: Path): void {
    list.forEach((step, i) => {
      const path = [...base, i];
      lines.set(path.join('.'), at(nodeAt(doc, path)).line);
      if (!isObject(step)) return add(path, `must be a step: a mapping with one of ${STEP_KINDS.join(', ')}`);
      const kinds = STEP_KINDS.filter((k) => k in step);
      if (kinds.length !== 1) {
        const hint = Object.keys(step).map(hintFor).find(Boolean) ?? '';
        return add(path, kinds.length === 0 ? `must have one of ${STEP_KINDS.join(', ')}${hint}` : `has ${kinds.join(' and ')}: one kind per step`);
      }
      const kind = kindOf(step)!;
      if (kind === 'repeat') {
        const { steps: inner, ...rest } = step;
        const r = STEP_SCHEMAS.repeat.safeParse({ ...rest, steps: [{ clock: { advance: '1s' } }] });
        if (!r.success) addIssues(r.error.issues, path);
        if (!Array.isArray(inner) || inner.length === 0) add([...path, 'steps'], 'must be a list of at least one step');
        else checkSteps(inner, [...path, 'steps']);
        return;
      }
      const r = STEP_SCHEMAS[kind].safeParse(step);
      if (!r.success) addIssues(r.error.issues, path);
      for (const name of referencedNames(step)) {
        if (!(BUILT_IN_SCOPES as readonly string[]).includes(name) && !saved.has(name)) {
          add(path, `refers to \${${name}…}, which no step before it saves (save: ${name})`);
        }
      }
      if (kind === 'request' && typeof step.save === 'string') saved.add(step.save);
    });
  }
  if (problems.length > 0) throw new ScenarioFileError(file, problems);
  const parsed = scenarioSchema.parse(data);
  return { scenario: parsed, lines };
}

/** Environment variables a scenario refers to that `env` lacks (checked before the run). */
export function missingEnv(loaded: LoadedScenario, env: NodeJS.ProcessEnv): string[] {
  return [...new Set(envNames(loaded.scenario.steps))].filter((n) => env[n] === undefined);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const hintFor = (key: string): string => {
  const near = STEP_KINDS.find((k) => k !== key && (k.startsWith(key) || key.startsWith(k) || k.replace('_', '') === key.replace('_', '')));
  return near ? ` (did you mean ${near}?)` : '';
};

export type { Step };
