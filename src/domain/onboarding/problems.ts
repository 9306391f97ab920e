// The signup entry schema's problems, placed on the wizard's questions: every problem of
// a draft (the API's 400 `fields`), the question it belongs to, and the message as shown
// beside that question.
import { fieldsFromZod, type FieldProblem } from '../../errors.js';
import { signupEntrySchema } from './index.js';
import { getPath, isUnder, type Draft } from './draft.js';
import type { Question } from './questions.js';

/** Every problem of the whole draft, with dotted paths (the API's 400 `fields`). */
export function problemsOf(d: Draft): FieldProblem[] {
  const r = signupEntrySchema.safeParse(d);
  return r.success ? [] : fieldsFromZod(r.error);
}

/** The question a problem belongs to: its own field, the first field inside it, or its nearest ancestor. */
export function questionForProblem(problem: FieldProblem, qs: readonly Question[]): Question | undefined {
  const exact = qs.find((q) => q.id === problem.path);
  if (exact) return exact;
  const inside = qs.find((q) => q.kind !== 'more' && isUnder(q.id, problem.path));
  if (inside) return inside;
  return qs
    .filter((q) => isUnder(problem.path, q.id))
    .sort((a, b) => b.id.length - a.id.length)[0];
}

/**
 * The message as shown beside question `q`: prefixed by what it is about when that is not `q`
 * itself. An item of a list is named by the field and the item typed (`payment_methods "cash"`),
 * never by its index alone (`0`), which means nothing to the person answering.
 */
export function messageFor(problem: FieldProblem, q: Question, draft?: Draft): string {
  if (problem.path === q.id) return problem.message;
  const about = isUnder(problem.path, q.id) ? problem.path.slice(q.id.length + 1) : problem.path.split('.').pop();
  if (about !== undefined && /^\d+$/.test(about)) {
    const item = draft === undefined ? undefined : getPath(draft, problem.path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)));
    const field = q.id.split('.').pop();
    return `${field} ${item === undefined ? `item ${Number(about) + 1}` : JSON.stringify(item)}: ${problem.message}`;
  }
  return `${about}: ${problem.message}`;
}

/**
 * The problems to show once `q` is answered: those of its own field, and those of a
 * group it closes (a sum, a calendar date — paths at least three deep) when `q` is the
 * group's last question in `qs`.
 */
export function problemsAfterAnswer(problems: readonly FieldProblem[], q: Question, qs: readonly Question[]): FieldProblem[] {
  return problems.filter((p) => {
    if (isUnder(p.path, q.id)) return true;
    if (!isUnder(q.id, p.path) || p.path.split('.').length < 3) return false;
    const inGroup = qs.filter((x) => isUnder(x.id, p.path));
    return inGroup[inGroup.length - 1]?.id === q.id;
  });
}
