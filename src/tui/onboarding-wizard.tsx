/** @jsxRuntime classic */
/** @jsx h */
// `payctl onboard`: an Ink wizard that builds a signup entry (spec 15) question by
// question. It asks only what the conditional rules make relevant, and checks every
// answer with the one request schema (`signupEntrySchema`) over the whole draft, showing
// the problems whose path belongs to the question beside it. The signup form is chosen
// from the database's forms (`signupForms`).
//
// The parts: the question model in src/domain (onboarding-questions: what is asked and
// when; onboarding-relevance: answers that no longer apply; onboarding-answers: typed
// text → value; onboarding-problems: schema problems → questions; onboarding-draft:
// paths), the state machine in onboarding-wizard-reducer.ts, the pieces of screen in
// onboarding-wizard-views.tsx. This module holds the hook that runs the reducer's
// effects, the screen, and the entry points.
//
// Keys: Enter answers, Esc goes back one question, ↑/↓ choose in a list (or type the
// value), Ctrl+S saves the draft (onSaveDraft), Ctrl+C leaves (the draft is returned).
//
// Ink and React are loaded lazily (`loadOnboardingWizard`, `renderOnboardingWizard`) so
// a command importing this module stays light: JSX here compiles to calls of the local
// `h`, and the `react` import below is used for types only (TypeScript drops it).
import * as ReactTypes from 'react';
import { h, ink, loadRuntime, React, runScreen, type ScreenIo } from './runtime.js';
import { useKeys, useRefState, type KeyInfo } from './keys.js';
import type { SignupEntry } from '../domain/onboarding.js';
import type { Draft } from '../domain/onboarding/draft.js';
import type { FormChoice } from '../domain/onboarding/questions.js';
import { currentQuestion, initialState, wizardReducer, type SubmitResult, type WizardResult } from './onboarding-wizard-reducer.js';
import { QuestionView, reviewItems, ReviewView, StatusLine, StepHeader } from './onboarding-wizard-views.js';
import { questionsFor } from '../domain/onboarding/questions.js';
import { clampTop, scrollKey } from './scroll.js';

export type { Draft, FormChoice, KeyInfo, SubmitResult, WizardResult };

export interface OnboardingWizardProps {
  /** A saved draft to resume. */
  initialDraft?: Draft;
  /** The signup forms to choose from (the database's); without it the form id is typed. */
  signupForms?: readonly FormChoice[];
  /** Send the entry (already valid against signupEntrySchema). */
  onSubmit: (entry: SignupEntry) => Promise<SubmitResult>;
  /** Store the draft; the returned text (e.g. the file path) is shown. */
  onSaveDraft: (draft: Draft) => Promise<string>;
  /** Called once when the wizard is finished: submitted, or left with Ctrl+C. */
  onExit?: (result: WizardResult) => void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The reducer, fed with keys, and the effects it requests run against the props' callbacks. */
function useOnboardingWizard(props: OnboardingWizardProps) {
  const [state, dispatch] = React.useReducer(wizardReducer, undefined, () =>
    initialState(props.initialDraft, props.signupForms ? { signupForms: props.signupForms } : {}),
  );
  const propsRef = React.useRef(props);
  propsRef.current = props;

  // The review is taller than most terminals: ↑/↓ PgUp/PgDn scroll it (the reducer ignores them there).
  const { stdout } = ink.useStdout();
  const reviewHeight = Math.max(5, (stdout?.rows || 24) - 6 - state.notices.length);
  const labels = React.useMemo(() => reviewLabels(state.draft, state.ask), [state.draft, state.ask]);
  const items = state.phase === 'review' || state.phase === 'submitting' ? reviewItems(state.draft, labels) : [];
  const [reviewTop, setReviewTop, reviewTopRef] = useRefState(0);
  // A new review (after going back to a question) starts at its top.
  React.useEffect(() => {
    if (state.phase === 'asking') setReviewTop(0);
  }, [state.phase, setReviewTop]);
  const top = clampTop(reviewTop, items.length, reviewHeight);
  const itemCount = React.useRef(0);
  itemCount.current = items.length;
  const phase = React.useRef(state.phase);
  phase.current = state.phase;

  useKeys((input: string, key: KeyInfo) => {
    if (phase.current === 'review') {
      // From the ref: a second arrow key of the same read moves on from the first.
      const moved = scrollKey(clampTop(reviewTopRef.current, itemCount.current, reviewHeight), itemCount.current, reviewHeight, input, key);
      if (moved !== undefined) {
        setReviewTop(moved);
        return;
      }
    }
    dispatch({ type: 'key', input, key });
  });

  const effect = state.effect;
  React.useEffect(() => {
    if (!effect) return;
    const p = propsRef.current;
    if (effect.kind === 'save') {
      p.onSaveDraft(effect.draft).then(
        (where) => dispatch({ type: 'saved', ok: true, text: `Draft saved: ${where}` }),
        (err: unknown) => dispatch({ type: 'saved', ok: false, text: `Could not save the draft: ${errorText(err)}` }),
      );
    } else if (effect.kind === 'submit') {
      p.onSubmit(effect.entry).then(
        (result) => dispatch({ type: 'submitted', result }),
        (err: unknown) => dispatch({ type: 'submitted', result: { ok: false, message: `Could not submit: ${errorText(err)}` } }),
      );
    } else {
      p.onExit?.(effect.result);
    }
  }, [effect?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  return { state, question: currentQuestion(state), review: { items, top, height: reviewHeight } };
}

/** What the review calls each answer: its question's label, under its heading (Representative 2: First name). */
function reviewLabels(draft: Draft, ask: Parameters<typeof questionsFor>[1]): Map<string, string> {
  // The asking hints in parentheses ("(optional, at most 36 characters)") are not repeated here.
  const short = (label: string) => label.replace(/\s*\([^)]*\)/g, '');
  return new Map(questionsFor(draft, ask).map((q) => [q.id, q.context ? `${q.context}: ${short(q.label)}` : short(q.label)]));
}

function OnboardingWizard(props: OnboardingWizardProps) {
  const { Box, Text } = ink;
  const { state, question, review } = useOnboardingWizard(props);
  return (
    <Box flexDirection="column">
      <StepHeader current={question ? question.step : 'review'} />
      {state.notices.map((n, i) => (
        <Text key={i} color="yellow">! {n}</Text>
      ))}
      {question ? (
        <QuestionView q={question} input={state.input} highlight={state.highlight} errors={state.errors[question.id]} />
      ) : state.phase !== 'done' ? (
        <ReviewView {...review} />
      ) : null}
      {/* Once done, the command prints the outcome under the screen: the last frame does not repeat it. */}
      {state.phase !== 'done' ? <StatusLine status={state.status} /> : null}
      {state.phase !== 'done' ? (
        <Text color="gray">Enter: answer · Esc: back · ↑/↓: choose · Ctrl+S: save draft · Ctrl+C: quit</Text>
      ) : null}
    </Box>
  );
}

/** Load Ink and React, then hand back the wizard component (for rendering or tests). */
export async function loadOnboardingWizard(): Promise<(props: OnboardingWizardProps) => ReactTypes.ReactElement> {
  await loadRuntime();
  return OnboardingWizard;
}

export interface RenderOnboardingWizardOptions extends Omit<OnboardingWizardProps, 'onExit'>, ScreenIo {}

/** Run the wizard in the terminal until the entry is submitted or the user leaves (a ScreenError if it fails). */
export async function renderOnboardingWizard(options: RenderOnboardingWizardOptions): Promise<WizardResult> {
  const { stdin, stdout, ...props } = options;
  let result: WizardResult | undefined;
  await runScreen(
    'onboarding wizard',
    (close) => (
      <OnboardingWizard
        {...props}
        onExit={(r) => {
          result = r;
          // close() lets the last frame (the outcome) render before leaving.
          close();
        }}
      />
    ),
    { ...(stdin ? { stdin } : {}), ...(stdout ? { stdout } : {}) },
  );
  return result ?? { status: 'cancelled', draft: props.initialDraft ?? {} };
}
