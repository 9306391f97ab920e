// A scenario run for people and for CI: one line per step with its time, and under a
// failed step expected against got, path by path; the same run as JUnit XML (one
// testsuite per file, one testcase per step run) for CI test reports.
import type { ScenarioResult, StepResult } from '../dev/scenario-run.js';

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));

/** One line of a step: mark, title, what it did, time; a failure adds its line and the diff. */
export function stepLines(r: StepResult, file: string): string[] {
  const head = `${r.ok ? '✓' : '✗'} ${r.title.padEnd(16)} ${r.message ?? ''} (${r.ms} ms)`;
  if (r.ok) return [head];
  const out = [head, `    at ${file}:${r.line} (${r.path})`];
  for (const m of r.mismatches ?? []) {
    out.push(`    ${m.path}:`);
    if (m.expected !== undefined) out.push(`      - expected ${show(m.expected)}`);
    out.push(`      + got      ${show(m.got)}`);
  }
  return out;
}

export function summaryLine(r: ScenarioResult, file: string): string {
  const failed = r.steps.filter((s) => !s.ok).length;
  return `${r.ok ? 'passed' : 'FAILED'}: ${r.name} (${file}) — ${r.steps.length} step${r.steps.length === 1 ? '' : 's'} run, ${failed} failed, ${r.ms} ms, sandbox ${r.group_id}`;
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML of runs (one testsuite per scenario file). */
export function junitXml(runs: Array<{ file: string; result: ScenarioResult }>): string {
  const suites = runs.map(({ file, result }) => {
    const failures = result.steps.filter((s) => !s.ok).length;
    const cases = result.steps.map((s) => {
      const name = `${s.title} (${s.path}, line ${s.line})`;
      const attrs = `classname="${xml(file)}" name="${xml(name)}" time="${(s.ms / 1000).toFixed(3)}"`;
      if (s.ok) return `    <testcase ${attrs}/>`;
      const detail = stepLines(s, file).slice(1).join('\n');
      return `    <testcase ${attrs}>\n      <failure message="${xml(s.message ?? 'failed')}">${xml(detail)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="${xml(result.name)}" file="${xml(file)}" tests="${result.steps.length}" failures="${failures}" errors="0" time="${(result.ms / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const tests = runs.reduce((n, r) => n + r.result.steps.length, 0);
  const failures = runs.reduce((n, r) => n + r.result.steps.filter((s) => !s.ok).length, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${tests}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}
