/** Status → codicon and label, shared by the tree and the incremental status update. */
import type { StepView } from '../protocol';

const ICONS: Record<StepView['status'], { icon: string; label: string; tone: string }> = {
  pending: { icon: 'circle-large-outline', label: 'pending', tone: 'muted' },
  ready: { icon: 'circle-outline', label: 'ready', tone: 'muted' },
  running: { icon: 'loading', label: 'running', tone: 'active' },
  verifying: { icon: 'beaker', label: 'verifying', tone: 'active' },
  succeeded: { icon: 'pass', label: 'succeeded', tone: 'ok' },
  failed: { icon: 'error', label: 'failed', tone: 'error' },
  blocked: { icon: 'circle-slash', label: 'blocked', tone: 'warn' },
  skipped: { icon: 'debug-step-over', label: 'skipped', tone: 'muted' },
  interrupted: { icon: 'debug-pause', label: 'interrupted', tone: 'warn' },
  cancelled: { icon: 'close', label: 'cancelled', tone: 'muted' },
  replaced: { icon: 'replace', label: 'replaced', tone: 'muted' },
  reverted: { icon: 'discard', label: 'reverted', tone: 'muted' },
};

export function statusIcon(status: StepView['status']): { icon: string; label: string; tone: string } {
  return ICONS[status];
}

/** Sets a status glyph element's classes and label in place. */
export function paintStatus(el: HTMLElement, status: StepView['status']): void {
  const s = ICONS[status];
  el.className = `codicon codicon-${s.icon} status status-${s.tone}${status === 'running' ? ' codicon-modifier-spin' : ''}`;
  el.setAttribute('aria-label', s.label);
  el.setAttribute('title', s.label);
}
