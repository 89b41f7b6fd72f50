/**
 * Runs axe-core (the accessibility engine) inside a webview frame and returns its violations, one line
 * each. The source is evaluated through the debugging protocol, so a webview's CSP (which refuses every
 * script without its nonce) does not stop the check and does not have to be loosened for it.
 */
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** Violations of WCAG 2 A/AA rules under `#app`, as "rule (impact): help — targets". */
export async function axeViolations(target: Frame | Page, options: { disableRules?: string[] } = {}): Promise<string[]> {
  const disabled = Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }]));
  const result = (await target.evaluate(
    `(() => { ${AXE_SOURCE}; return axe.run(document.getElementById('app') ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, rules: ${JSON.stringify(disabled)} }); })()`,
  )) as AxeResult;
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? '?'}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(', ')}${v.nodes.length > 3 ? ` (+${v.nodes.length - 3})` : ''}`,
  );
}
