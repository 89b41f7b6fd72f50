/** The corpus as a table: scenario × mode × aspect, and the headline count. */
import { ASPECTS, COMPARED_MODES, type Difference } from './compare';
import type { Scenario } from './scenario';

export interface ScenarioResult {
  scenario: Scenario;
  diffs: Difference[];
  /** A problem with the scenario itself (the plain run did not do the work), or a run that threw. */
  error?: string;
}

const mark = (r: ScenarioResult, mode: Difference['mode'], aspect: Difference['aspects'][number]): string =>
  r.error ? '?' : r.diffs.some((d) => d.mode === mode && d.aspects.includes(aspect)) ? '✗' : '✓';

/** The same in every mode: no difference, and no scenario problem. */
export const behavesTheSame = (r: ScenarioResult): boolean => !r.error && r.diffs.length === 0;

export function formatTable(results: readonly ScenarioResult[]): string {
  const width = Math.max(8, ...results.map((r) => r.scenario.name.length));
  const column = 13;
  const marks = (r: ScenarioResult): string =>
    COMPARED_MODES.map((m) =>
      ASPECTS.map((a) => mark(r, m, a))
        .join(' ')
        .padEnd(column),
    ).join('');
  const rows = results.map((r) => `${r.scenario.name.padEnd(width)}  ${marks(r)}`);
  const same = results.filter(behavesTheSame).length;
  const unsandboxedAsPlain = results.filter((r) => !r.error && !r.diffs.some((d) => d.mode === 'unsandboxed')).length;
  return [
    `${'scenario'.padEnd(width)}  ${COMPARED_MODES.map((m) => m.padEnd(column)).join('')}`,
    `${''.padEnd(width)}  ${COMPARED_MODES.map(() =>
      ASPECTS.map((a) => a[0])
        .join(' ')
        .padEnd(column),
    ).join('')}`,
    ...rows,
    `(each mode against plain: e exit codes, o output, f files, g git; ✓ same, ✗ differs, ? the scenario did not run)`,
    `${unsandboxedAsPlain} of ${results.length} behave unsandboxed as plain`,
    `${same} of ${results.length} ordinary projects behave the same sandboxed and unsandboxed (and as plain)`,
  ].join('\n');
}
