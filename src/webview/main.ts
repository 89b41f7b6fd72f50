/**
 * The sidebar app's entry (bundled to media/webview.js, iife, browser). It posts `ready` once loaded and
 * renders whatever snapshot the host sends back.
 */
import { ToWebviewSchema, type FromWebview } from './protocol';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscodeApi = acquireVsCodeApi();
const app = document.getElementById('app');

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWebviewSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('plan-execute: dropped an invalid host message', parsed.error.issues);
    return;
  }
  if (parsed.data.type === 'state' && app) {
    app.textContent = `Plan & Execute (snapshot ${parsed.data.state.rev})`;
  }
});

vscodeApi.postMessage({ type: 'ready' });
