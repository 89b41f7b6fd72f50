/**
 * The mission's auto-approve rules: what is approved without asking (a file glob, a command or a command
 * prefix, everything a step asks), each revocable, and a field to add one.
 */
import { button, h, icon, iconButton, section } from '../dom';
import { draft, setDraft, type RenderContext } from '../context';

function ruleLabel(kind: 'write' | 'command' | 'step' | 'mcp', pattern: string): HTMLElement {
  if (kind === 'step') return h('span', {}, `everything step `, h('code', {}, pattern), ' asks');
  if (kind === 'mcp') return h('span', {}, 'MCP tool ', h('code', {}, pattern));
  return h('code', {}, pattern);
}

export function renderRules(ctx: RenderContext): HTMLElement | null {
  if (!ctx.state.mission) return null;
  const key = 'rule';
  const add = (kind: 'write' | 'command'): void => {
    const pattern = draft(ctx, key).trim();
    if (!pattern) return;
    setDraft(ctx, key, '');
    ctx.post({ type: 'addRule', kind, pattern });
  };
  return section(
    'Auto-approve rules',
    'rules',
    ctx.state.rules.length === 0 ? h('div', { className: 'muted' }, 'None: every edit and command asks first.') : null,
    h(
      'ul',
      { className: 'rule-list' },
      ...ctx.state.rules.map((r) =>
        h(
          'li',
          { attrs: { 'data-testid': 'rule', 'data-rule-kind': r.kind } },
          icon(r.kind === 'write' ? 'edit' : r.kind === 'step' ? 'check-all' : r.kind === 'mcp' ? 'plug' : 'terminal'),
          ' ',
          ruleLabel(r.kind, r.pattern),
          ' ',
          iconButton('close', `Revoke rule ${r.pattern}`, () => ctx.post({ type: 'revokeRule', ruleId: r.id }), 'revoke-rule'),
        ),
      ),
    ),
    h(
      'div',
      { className: 'row' },
      h('vscode-textfield', {
        attrs: { placeholder: 'src/** or npm test', 'aria-label': 'Rule pattern', 'data-testid': 'rule-pattern' },
        props: { label: 'Rule pattern', value: draft(ctx, key) },
        on: { input: (event: Event) => setDraft(ctx, key, (event.target as HTMLInputElement).value) },
      }),
      button('Allow edits', () => add('write'), {
        secondary: true,
        icon: 'edit',
        testId: 'add-write-rule',
        title: 'Auto-approve edits to files matching this glob',
      }),
      button('Allow command', () => add('command'), {
        secondary: true,
        icon: 'terminal',
        testId: 'add-command-rule',
        title: 'Auto-approve this command (exact, or a prefix ending in " *")',
      }),
    ),
  );
}
