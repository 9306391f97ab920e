/** @jsxRuntime classic */
/** @jsx h */
// The onboarding wizard's pieces of screen: the step header, one question (input line,
// its errors, the list to choose from), and the review of the whole entry. Props only;
// they read Ink from the lazily loaded runtime, like every screen.
import { h, ink } from './runtime.js';
import { maskSensitive } from '../domain/onboarding.js';
import { formatMoney } from '../domain/money.js';
import { isRecord, type Draft } from '../domain/onboarding/draft.js';
import { STEPS, type Question, type StepId } from '../domain/onboarding/questions.js';
import { problemsOf } from '../domain/onboarding/problems.js';
import type { Status } from './onboarding-wizard-reducer.js';
import { scrollStatus } from './scroll.js';

export function StepHeader(props: { current: StepId | 'review' }) {
  const { Box, Text } = ink;
  return (
    <Box>
      <Text bold>payctl onboard  </Text>
      {STEPS.map((st, i) => (
        <Text key={st.id} bold={st.id === props.current} color={st.id === props.current ? 'cyan' : 'gray'}>
          {i > 0 ? ' › ' : ''}
          {st.id === props.current ? `[${st.title}]` : st.title}
        </Text>
      ))}
    </Box>
  );
}

/** A list to choose from: the highlighted option marked with ›, labels shown where the question has them. */
function OptionList(props: { q: Question; highlight: number }) {
  const { Box, Text } = ink;
  const { q, highlight } = props;
  const options = q.options ?? [];
  if (options.length === 0) return q.emptyHint ? <Text color="yellow">{q.emptyHint}</Text> : null;
  return (
    <Box flexDirection="column">
      {options.map((o, i) => (
        <Text key={o} color={i === highlight ? 'cyan' : undefined}>
          {i === highlight ? '  › ' : '    '}
          {q.optionLabels?.[i] ?? o}
        </Text>
      ))}
    </Box>
  );
}

/** What a secret answer shows while typed: every character but the last four masked. */
export const maskTyped = (input: string): string => {
  const chars = [...input];
  return chars.length > 4 ? '•'.repeat(chars.length - 4) + chars.slice(-4).join('') : input;
};

export function QuestionView(props: { q: Question; input: string; highlight: number; errors: string[] | undefined }) {
  const { Box, Text } = ink;
  const { q, input, highlight, errors } = props;
  const placeholder = q.defaultValue !== undefined && input === '' && !q.options ? `(Enter for ${q.defaultValue})` : '';
  const first = errors?.[0];
  return (
    <Box flexDirection="column">
      {q.context ? <Text color="yellow">{q.context}</Text> : null}
      <Text>
        <Text bold>? {q.label}</Text>
        <Text color="gray"> [{q.id}]</Text>
      </Text>
      {q.hint ? <Text color="gray">  {q.hint}</Text> : null}
      <Text>
        <Text color="cyan">{'> '}</Text>
        {q.secret ? maskTyped(input) : input}
        <Text color="gray">{placeholder}▌</Text>
        {first ? <Text color="red">  ✖ {first}</Text> : null}
      </Text>
      {(errors ?? []).slice(1).map((e, i) => (
        <Text key={i} color="red">  ✖ {e}</Text>
      ))}
      {q.options ? <OptionList q={q} highlight={highlight} /> : null}
    </Box>
  );
}

/** One line of the review: an answer, or what is left to fix. */
export type ReviewItem =
  | { kind: 'answer'; label: string; value: string }
  | { kind: 'ready' }
  | { kind: 'problems'; count: number }
  | { kind: 'problem'; text: string };

/**
 * The review's lines: each answer under its question's label (`labels`: question id →
 * label; a path no question asks keeps its path), then the rules still broken.
 */
export function reviewItems(draft: Draft, labels: ReadonlyMap<string, string>): ReviewItem[] {
  const problems = problemsOf(draft);
  const answers = reviewLines(maskSensitive(draft)).map(([path, value]): ReviewItem => ({ kind: 'answer', label: labels.get(path) ?? path, value }));
  if (problems.length === 0) return [...answers, { kind: 'ready' }];
  return [...answers, { kind: 'problems', count: problems.length }, ...problems.map((p): ReviewItem => ({ kind: 'problem', text: `${labels.get(p.path) ?? p.path}: ${p.message}` }))];
}

function ReviewLine(props: { item: ReviewItem }) {
  const { Text } = ink;
  const { item } = props;
  if (item.kind === 'answer')
    return (
      <Text wrap="truncate-end">
        <Text color="gray">{item.label}: </Text>
        {item.value}
      </Text>
    );
  if (item.kind === 'ready') return <Text color="green">All rules are met. Press Enter to submit.</Text>;
  if (item.kind === 'problems') return <Text color="red">{item.count} problem(s) left; Enter goes to the first one:</Text>;
  return (
    <Text color="red" wrap="truncate-end">
      {'  ✖ '}
      {item.text}
    </Text>
  );
}

/** The review, `height` lines of it from `top` (↑/↓ PgUp/PgDn scroll it: the wizard keeps `top`). */
export function ReviewView(props: { items: ReviewItem[]; top: number; height: number }) {
  const { Box, Text } = ink;
  const { items, top, height } = props;
  const more = scrollStatus(top, items.length, height);
  return (
    <Box flexDirection="column">
      <Text bold>Review the signup entry</Text>
      {items.slice(top, top + height).map((item, i) => (
        <ReviewLine key={top + i} item={item} />
      ))}
      {more ? <Text color="gray">{more}</Text> : null}
    </Box>
  );
}

/** The entry as `path: value` lines: lists of scalars joined, amounts as money. */
export function reviewLines(v: unknown, prefix = ''): [string, string][] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [[prefix, '(none)']];
    if (v.every((x) => typeof x !== 'object' || x === null)) return [[prefix, v.join(', ')]];
    return v.flatMap((x, i) => reviewLines(x, `${prefix}.${i}`));
  }
  if (isRecord(v)) return Object.entries(v).flatMap(([k, x]) => reviewLines(x, prefix ? `${prefix}.${k}` : k));
  if (typeof v === 'number' && /_amount$|_size$/.test(prefix)) return [[prefix, formatMoney(v)]];
  return [[prefix, String(v)]];
}

const TONE = { info: 'blue', error: 'red', success: 'green' } as const;

export function StatusLine(props: { status: Status | undefined }) {
  const { Text } = ink;
  return props.status ? <Text color={TONE[props.status.tone]}>{props.status.text}</Text> : null;
}
