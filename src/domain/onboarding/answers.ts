// What is typed in answer to a wizard question, turned into the JSON value the signup
// entry schema sees (the schema judges it), and a stored value shown back as text.
// Lists accept an exact option or a unique case-insensitive prefix of one.
import { parseMoney } from '../money.js';
import type { Question } from './questions.js';

export type ParsedAnswer = { kind: 'value'; value: unknown } | { kind: 'unset' } | { kind: 'error'; message: string };

/** A stored value as the input line shows it (amounts in units, yes/no, comma lists). */
export function formatValue(q: Question, v: unknown): string {
  if (v === undefined || v === null) return '';
  if (q.kind === 'money' && typeof v === 'number') return (v / 100).toFixed(2);
  if (q.kind === 'bool' && typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return q.kind === 'list' && v.length === 0 ? 'none' : v.join(',');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Match typed text against a list: an exact option, then a unique case-insensitive
 * prefix of an option or of its label (a form's name).
 */
export function matchOption(options: readonly string[], typed: string, labels: readonly string[] = []): string | undefined {
  if (options.includes(typed)) return typed;
  const t = typed.toLowerCase();
  const hits = options.filter((o, i) => o.toLowerCase().startsWith(t) || labels[i]?.toLowerCase().startsWith(t));
  return hits.length === 1 ? hits[0] : undefined;
}

/** Turn what was typed (or the highlighted option, when nothing was typed) into an answer. */
export function parseAnswer(q: Question, raw: string, highlighted: string | undefined): ParsedAnswer {
  const text = raw.trim();
  if (q.kind === 'select' || q.kind === 'bool') {
    const matched = text === '' ? highlighted : matchOption(q.options ?? [], text, q.optionLabels);
    if (q.closed && matched === undefined) {
      return { kind: 'error', message: q.options?.length ? 'choose one of the listed options (↑/↓, Enter)' : (q.emptyHint ?? 'nothing to choose from') };
    }
    const choice = matched ?? text;
    if (q.kind === 'bool') {
      const t = choice?.toLowerCase();
      if (t === 'yes' || t === 'true') return { kind: 'value', value: true };
      if (t === 'no' || t === 'false') return { kind: 'value', value: false };
    }
    return { kind: 'value', value: choice };
  }
  if (text === '') return q.defaultValue !== undefined ? { kind: 'value', value: q.defaultValue } : { kind: 'unset' };
  if (q.kind === 'int') return { kind: 'value', value: /^\d{1,15}$/.test(text) ? Number(text) : text };
  if (q.kind === 'money') {
    try {
      return { kind: 'value', value: parseMoney(text.replace(/^\$/, '').replace(/,/g, '')) };
    } catch {
      return { kind: 'error', message: 'write an amount of money, e.g. 18.50' };
    }
  }
  if (q.kind === 'list') {
    if (text.toLowerCase() === 'none') return { kind: 'value', value: [] };
    return { kind: 'value', value: text.split(/[\s,]+/).filter(Boolean) };
  }
  return { kind: 'value', value: text };
}
