// The onboarding wizard's state machine: a pure reducer over (state, key or outcome).
// Side effects (save the draft, submit the entry, leave) are requested in the state
// (`effect`, numbered so each runs once) and run by the screen's hook, which feeds
// their outcome back as an action. No React here: tested with tables of keystrokes.
import { signupEntrySchema, type SignupEntry } from '../domain/onboarding.js';
import { getPath, setPath, unsetPath, type Draft } from '../domain/onboarding/draft.js';
import {
  MORE,
  MORE_ID,
  questionsFor,
  representativeCount,
  STEP_ORDER,
  stepOfPath,
  type AskContext,
  type Question,
  type StepId,
} from '../domain/onboarding/questions.js';
import { pruneIrrelevant } from '../domain/onboarding/relevance.js';
import { messageFor, problemsAfterAnswer, problemsOf, questionForProblem } from '../domain/onboarding/problems.js';
import { formatValue, matchOption, parseAnswer } from '../domain/onboarding/answers.js';
import { fieldsFromZod } from '../errors.js';
import type { KeyInfo } from './keys.js';

export type SubmitResult = { ok: boolean; message: string };
export type WizardResult =
  | { status: 'submitted'; entry: SignupEntry; message: string }
  | { status: 'cancelled'; draft: Draft };

type EffectRequest =
  | { kind: 'save'; draft: Draft }
  | { kind: 'submit'; entry: SignupEntry }
  | { kind: 'exit'; result: WizardResult };
export type Effect = EffectRequest & { id: number };

export interface Status {
  tone: 'info' | 'error' | 'success';
  text: string;
}

export interface WizardState {
  draft: Draft;
  /** What the questions depend on besides the draft (the signup forms to offer). */
  ask: AskContext;
  phase: 'asking' | 'review' | 'submitting' | 'done';
  /** The id of the question asked (phase 'asking'). */
  cursor: string;
  input: string;
  /** The highlighted option of a list. */
  highlight: number;
  errors: Record<string, string[]>;
  notices: string[];
  status?: Status;
  effect?: Effect;
  effectSeq: number;
}

export type WizardAction =
  | { type: 'key'; input: string; key: KeyInfo }
  | { type: 'saved'; text: string; ok: boolean }
  | { type: 'submitted'; result: SubmitResult };

/** The questions of a state's draft (or of `draft`, about to become it). */
export const questionsOf = (s: Pick<WizardState, 'draft' | 'ask'>, draft = s.draft): Question[] => questionsFor(draft, s.ask);

/** The question being asked, if any. */
export const currentQuestion = (s: WizardState): Question | undefined =>
  s.phase === 'asking' ? questionsOf(s).find((q) => q.id === s.cursor) : undefined;

function withEffect(s: WizardState, effect: EffectRequest): WizardState {
  const id = s.effectSeq + 1;
  return { ...s, effectSeq: id, effect: { ...effect, id } };
}

/** Put the cursor on a question, its current answer in the input. */
function focus(s: WizardState, id: string, draft = s.draft): WizardState {
  const q = questionsOf(s, draft).find((x) => x.id === id);
  if (!q) return { ...s, draft, phase: 'review', cursor: '', input: '', highlight: 0 };
  const shown = formatValue(q, getPath(draft, q.path));
  // A list opens on its answer, else on its default (pending litigation: none).
  const highlight = Math.max(0, (q.options ?? []).indexOf(shown || (q.defaultValue ?? '')));
  const typed = q.kind === 'select' || q.kind === 'bool' || q.kind === 'more' ? '' : shown;
  return { ...s, draft, phase: 'asking', cursor: id, input: typed, highlight };
}

function toReview(s: WizardState, draft: Draft): WizardState {
  return { ...s, draft: pruneIrrelevant(draft), phase: 'review', cursor: '', input: '', highlight: 0 };
}

/** Leaving `step`: check it as a whole, go back to its first problem, or on to `nextId`. */
function finishStep(s: WizardState, step: StepId, draft: Draft, nextId: string | undefined): WizardState {
  const pruned = pruneIrrelevant(draft);
  const qs = questionsOf(s, pruned);
  const errors: Record<string, string[]> = {};
  const notices: string[] = [];
  let first: Question | undefined;
  for (const p of problemsOf(pruned).filter((x) => stepOfPath(x.path) === step)) {
    const q = questionForProblem(p, qs);
    if (!q) {
      notices.push(`${p.path}: ${p.message}`);
      continue;
    }
    (errors[q.id] ??= []).push(messageFor(p, q, pruned));
    if (!first || qs.indexOf(q) < qs.indexOf(first)) first = q;
  }
  const base = { ...s, errors: { ...s.errors, ...errors }, notices };
  if (first) return focus(base, first.id, pruned);
  const target = nextId && qs.some((q) => q.id === nextId) ? nextId : qs.find((q) => STEP_ORDER[q.step] > STEP_ORDER[step])?.id;
  return target ? focus(base, target, pruned) : toReview(base, pruned);
}

function advance(s: WizardState, q: Question, draft: Draft): WizardState {
  const qs = questionsOf(s, draft);
  const i = qs.findIndex((x) => x.id === q.id);
  const next = qs[i + 1];
  if (!next || next.step !== q.step) return finishStep(s, q.step, draft, next?.id);
  return focus({ ...s, notices: [] }, next.id, draft);
}

function chooseNext(s: WizardState, q: Question): WizardState {
  const choice = s.input.trim() === '' ? q.options?.[s.highlight] : matchOption(q.options ?? [], s.input.trim());
  const count = representativeCount(s.draft);
  if (choice === MORE.add) {
    const draft = setPath(s.draft, ['business', 'representatives', count], {});
    return focus({ ...s, notices: [] }, `business.representatives.${count}.first_name`, draft);
  }
  if (choice === MORE.remove) {
    return focus({ ...s, input: '' }, MORE_ID, unsetPath(s.draft, ['business', 'representatives', count - 1]));
  }
  if (choice === MORE.done) return advance(s, q, s.draft);
  return { ...s, errors: { ...s.errors, [q.id]: [`choose one of: ${(q.options ?? []).join(', ')}`] } };
}

function answer(s: WizardState): WizardState {
  const q = questionsOf(s).find((x) => x.id === s.cursor);
  if (!q) return toReview(s, s.draft);
  if (q.kind === 'more') return chooseNext(s, q);

  const parsed = parseAnswer(q, s.input, q.options?.[s.highlight]);
  if (parsed.kind === 'error') return { ...s, errors: { ...s.errors, [q.id]: [parsed.message] } };
  const draft = parsed.kind === 'unset' ? unsetPath(s.draft, q.path) : setPath(s.draft, q.path, parsed.value);
  const { [q.id]: _cleared, ...errors } = s.errors;
  if (parsed.kind === 'unset' && q.optional) return advance({ ...s, errors }, q, draft);

  const problems = problemsAfterAnswer(problemsOf(draft), q, questionsOf(s, draft));
  if (problems.length > 0) return { ...s, draft, errors: { ...errors, [q.id]: problems.map((p) => messageFor(p, q, draft)) } };
  return advance({ ...s, errors }, q, draft);
}

function back(s: WizardState): WizardState {
  const qs = questionsOf(s);
  if (s.phase === 'review') return qs.length ? focus({ ...s, status: undefined }, qs[qs.length - 1]!.id) : s;
  const i = qs.findIndex((x) => x.id === s.cursor);
  return i > 0 ? focus({ ...s, notices: [] }, qs[i - 1]!.id) : s;
}

function submitOrJump(s: WizardState): WizardState {
  const draft = pruneIrrelevant(s.draft);
  const parsed = signupEntrySchema.safeParse(draft);
  if (parsed.success) {
    return withEffect({ ...s, draft, phase: 'submitting', status: { tone: 'info', text: 'Submitting…' } }, { kind: 'submit', entry: parsed.data });
  }
  const qs = questionsOf(s, draft);
  const errors: Record<string, string[]> = {};
  let first: Question | undefined;
  for (const p of fieldsFromZod(parsed.error)) {
    const q = questionForProblem(p, qs);
    if (!q) continue;
    (errors[q.id] ??= []).push(messageFor(p, q, draft));
    first ??= q;
  }
  if (!first) return { ...s, draft, status: { tone: 'error', text: 'The draft has problems no question covers; fix the draft file.' } };
  return focus({ ...s, errors, status: undefined }, first.id, draft);
}

/** A key on a question: answer, move in a list, edit the input. */
function onQuestionKey(s: WizardState, input: string, key: KeyInfo): WizardState {
  const q = questionsOf(s).find((x) => x.id === s.cursor);
  const options = q?.options ?? [];
  const labels = q?.optionLabels ?? [];
  if (key.return) return answer(s);
  if (key.upArrow && options.length) return { ...s, input: '', highlight: (s.highlight - 1 + options.length) % options.length };
  if (key.downArrow && options.length) return { ...s, input: '', highlight: (s.highlight + 1) % options.length };
  if (key.backspace || key.delete) return { ...s, input: [...s.input].slice(0, -1).join('') };
  if (key.ctrl || key.meta || key.tab || input === '') return s;
  const typed = s.input + input.replace(/[\r\n\t]/g, '');
  if (options.length) {
    const t = typed.toLowerCase();
    const hit = options.findIndex((o, i) => o.toLowerCase().startsWith(t) || labels[i]?.toLowerCase().startsWith(t));
    return { ...s, input: typed, highlight: hit >= 0 ? hit : s.highlight };
  }
  return { ...s, input: typed };
}

export function wizardReducer(s: WizardState, action: WizardAction): WizardState {
  if (action.type === 'saved') return { ...s, status: { tone: action.ok ? 'success' : 'error', text: action.text } };
  if (action.type === 'submitted') {
    if (!action.result.ok) return { ...s, phase: 'review', status: { tone: 'error', text: action.result.message } };
    const entry = s.effect?.kind === 'submit' ? s.effect.entry : (signupEntrySchema.parse(s.draft) as SignupEntry);
    return withEffect(
      { ...s, phase: 'done', status: { tone: 'success', text: action.result.message } },
      { kind: 'exit', result: { status: 'submitted', entry, message: action.result.message } },
    );
  }
  const { input, key } = action;
  if (s.phase === 'done') return s;
  if (key.ctrl && input === 's') return withEffect({ ...s, status: { tone: 'info', text: 'Saving the draft…' } }, { kind: 'save', draft: s.draft });
  if (key.ctrl && input === 'c') return withEffect({ ...s, phase: 'done', status: { tone: 'info', text: 'Left the wizard.' } }, { kind: 'exit', result: { status: 'cancelled', draft: s.draft } });
  if (s.phase === 'submitting') return s;
  if (key.escape) return back(s);
  if (s.phase === 'review') return key.return ? submitOrJump(s) : s;
  return onQuestionKey(s, input, key);
}

/** Where a (resumed) draft starts: the first question still without an answer, else review. */
export function initialState(initialDraft: Draft = {}, ask: AskContext = {}): WizardState {
  const draft = structuredClone(initialDraft);
  const s: WizardState = { draft, ask, phase: 'asking', cursor: '', input: '', highlight: 0, errors: {}, notices: [], effectSeq: 0 };
  const open = questionsOf(s).find((q) => q.kind !== 'more' && !q.optional && !isAnswered(q, getPath(draft, q.path)));
  return open ? focus(s, open.id) : toReview(s, draft);
}

/** A closed list's answer counts only when it is still one of the options (a form deleted since the draft was saved). */
const isAnswered = (q: Question, value: unknown) =>
  value !== undefined && (!q.closed || (typeof value === 'string' && (q.options ?? []).includes(value)));
