/**
 * Mocha hooks for the webview app on its own (plain Chromium, ../../support/webview/webviewPage.ts): one
 * browser and one page per `describe` (or per test, with `each`), handed to `opened` once the app is ready,
 * and both closed afterwards, whatever the test did.
 */
import type { Browser } from 'playwright-core';
import { launchChromium, openWebviewPage, type WebviewPage } from '../../support/webview/webviewPage';

export function useWebviewApp(
  options: Parameters<typeof openWebviewPage>[1],
  opened: (view: WebviewPage) => Promise<void> | void = () => undefined,
  { each = false } = {},
): void {
  let browser: Browser | undefined;
  let view: WebviewPage | undefined;
  (each ? beforeEach : before)(async function () {
    this.timeout(60_000);
    browser = await launchChromium();
    view = await openWebviewPage(browser, options);
    await opened(view);
  });
  (each ? afterEach : after)(async () => {
    await view?.close();
    await browser?.close();
    view = undefined;
    browser = undefined;
  });
}
