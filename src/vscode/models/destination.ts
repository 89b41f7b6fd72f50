/** Where a mission's planning requests go, in words the user reads when planning starts (no vscode import). */
import { modelFor } from '../../core/model/modelSettings';
import type { ProviderSettings } from './providerSettings';

/**
 * The planner's model and endpoint in words. In a remote window (code-server, SSH) a machine-scoped base
 * URL written in the User settings may not apply — it belongs under the Remote tab — so the default is
 * named as such.
 */
export function plannerDestination(s: ProviderSettings): string {
  const { provider, model } = modelFor(s.resolved, 'planner');
  if (provider === 'vscode-lm') return `${model} through VS Code's language models`;
  const url = provider === 'openai' ? s.openaiBaseURL : s.anthropicBaseURL;
  if (url) return `${model} at ${hostOf(url)}`;
  return `${model} at api.anthropic.com (the default: planExecute.baseUrl is empty for this machine)`;
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return url; // TypeError: not a URL, so the text as the user typed it
  }
}
