// Reading a scenario file (YAML, or JSON, which YAML reads too) into a checked Scenario,
// with the line and column of every problem, all of them at once, before anything runs:
// syntax errors (the yaml library's own positions), shape errors (the domain schema's
// issues, placed at the node their path names) and references to names no earlier step
// saves, to environment variables the run may not read (only those named with --env or
// carrying the PAYCTL_SCENARIO_ prefix: a file is not trusted with the caller's whole
// environment, whose admin token it could send anywhere), and repeats whose product or
// total exceeds the bounds. Unknown keys get the nearest known one ("did you mean"). The
// line of each step is kept for the run's output ("step 4, line 17").
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { z } from 'zod';
import { closest } from '../lib/closest.js';
import {
  BUILT_IN_SCOPES,
  ENV_PREFIX,
  envAllowed,
  envNames,
  envRefs,
  kindOf,
  MAX_REPEAT_PRODUCT,
  MAX_STEP_RUNS,
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

export interface ParseOptions {
  /** Environment variables the file may read besides the PAYCTL_SCENARIO_ ones (`--env NAME`). */
  allowEnv?: readonly string[];
}

export function parseScenario(text: string, file = 'scenario', options: ParseOptions = {}): LoadedScenario {
  const allowEnv = options.allowEnv ?? [];
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
        const known = keysAt(base.length === 0 ? scenarioSchema : STEP_SCHEMAS[kindOf(readAt(data, base) as object) ?? 'request'], issue.path as Path);
        for (const k of issue.keys) add([...path, k], `is not a field here${hintFor(k, known)}`, keyNode(doc, path, k));
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
  // Steps the file runs in all (repeats counted out), reported once where it passes the bound.
  let runs = 0;
  let tooMany = false;
  if (isObject(data)) {
    if (!Array.isArray(steps) || steps.length === 0) add(['steps'], 'must be a list of at least one step');
    else checkSteps(steps, ['steps'], 1);
  }

  function checkSteps(list: unknown[], base: Path, times: number): void {
    list.forEach((step, i) => {
      const path = [...base, i];
      lines.set(path.join('.'), at(nodeAt(doc, path)).line);
      if (!isObject(step)) return add(path, `must be a step: a mapping with one of ${STEP_KINDS.join(', ')}`);
      const kinds = STEP_KINDS.filter((k) => k in step);
      if (kinds.length !== 1) {
        const hint = Object.keys(step).map((k) => hintFor(k, STEP_KINDS)).find(Boolean) ?? '';
        return add(path, kinds.length === 0 ? `must have one of ${STEP_KINDS.join(', ')}${hint}` : `has ${kinds.join(' and ')}: one kind per step`);
      }
      const kind = kindOf(step)!;
      if (kind === 'repeat') {
        const { steps: inner, ...rest } = step;
        const r = STEP_SCHEMAS.repeat.safeParse({ ...rest, steps: [{ clock: { advance: '1s' } }] });
        if (!r.success) addIssues(r.error.issues, path);
        const product = times * (r.success ? (step.repeat as number) : 1);
        if (product > MAX_REPEAT_PRODUCT) {
          return add([...path, 'repeat'], `runs its steps ${product} times with the repeats around it; nested repeats run at most ${MAX_REPEAT_PRODUCT} times in product`);
        }
        if (!Array.isArray(inner) || inner.length === 0) add([...path, 'steps'], 'must be a list of at least one step');
        else checkSteps(inner, [...path, 'steps'], product);
        return;
      }
      runs += times;
      if (runs > MAX_STEP_RUNS && !tooMany) {
        tooMany = true;
        add(path, `makes the file run more than ${MAX_STEP_RUNS} steps (repeats counted out); a file runs at most ${MAX_STEP_RUNS}`);
      }
      const r = STEP_SCHEMAS[kind].safeParse(step);
      if (!r.success) addIssues(r.error.issues, path);
      for (const name of referencedNames(step)) {
        if (!(BUILT_IN_SCOPES as readonly string[]).includes(name) && !saved.has(name)) {
          add(path, `refers to \${${name}…}, which no step before it saves (save: ${name})`);
        }
      }
      for (const ref of new Set(envRefs(step))) {
        const name = ref.slice(1);
        if (!/^\.[^.]+$/.test(ref)) add(path, `refers to \${env${ref}}: an environment variable is read by its name alone, \${env.NAME}`);
        else if (!envAllowed(name, allowEnv)) {
          add(path, `refers to \${env.${name}}, which this run may not read: pass --env ${name} to allow it, or name the variable ${ENV_PREFIX}${name}`);
        }
      }
      if (kind === 'request' && typeof step.save === 'string') saved.add(step.save);
    });
  }
  if (problems.length > 0) throw new ScenarioFileError(file, problems);
  const parsed = scenarioSchema.parse(data);
  return { scenario: parsed, lines };
}

/** Environment variables a scenario refers to that `env` lacks (checked before the run; the names were allowed by parseScenario). */
export function missingEnv(loaded: LoadedScenario, env: NodeJS.ProcessEnv): string[] {
  return [...new Set(envNames(loaded.scenario.steps))].filter((n) => env[n] === undefined);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const hintFor = (key: string, known: readonly string[]): string => {
  const near = closest(key, known.filter((k) => k !== key)) ?? known.find((k) => k !== key && key.startsWith(k));
  return near ? ` (did you mean ${near}?)` : '';
};

const readAt = (data: unknown, path: Path): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], data);

/** The field names of the object `schema` has at `path` (through optionals, arrays and unions), for "did you mean". */
function keysAt(schema: z.ZodType, path: Path): string[] {
  let s: z.ZodType | undefined = schema;
  const unwrap = (t: z.ZodType): z.ZodType => (t instanceof z.ZodOptional || t instanceof z.ZodNullable ? unwrap(t.unwrap() as z.ZodType) : t);
  for (const part of path) {
    s = s && unwrap(s);
    if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else if (s instanceof z.ZodObject) s = s.shape[String(part)] as z.ZodType | undefined;
    else return [];
  }
  s = s && unwrap(s);
  if (s instanceof z.ZodObject) return Object.keys(s.shape);
  if (s instanceof z.ZodUnion) return [...new Set((s.options as z.ZodType[]).flatMap((o) => keysAt(o, [])))];
  return [];
}

export type { Step };
