/**
 * Finds the frame that renders a webview's own document. VS Code nests it (…/webview/browser/pre/index.html
 * holding the content frame), other webviews and views have frames too, and a view renders a few seconds
 * after it is focused; so: look in every frame for the caller's root element, and poll until it appears.
 */
import type { Frame, Page } from 'playwright-core';

export interface FindFrameOptions {
  /** Default 30 s. */
  timeoutMs?: number;
}

/** The first frame containing `selector` (e.g. '#app'); throws after the timeout, naming the frames seen. */
export async function findWebviewFrame(page: Page, selector: string, options: FindFrameOptions = {}): Promise<Frame> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    for (const frame of page.frames()) {
      if (frame.isDetached()) continue;
      const found = await frame.$(selector).catch(() => null);
      if (found) return frame;
    }
    if (Date.now() > deadline) {
      const urls = page.frames().map((frame) => frame.url().split('?')[0]);
      throw new Error(`no frame contains ${selector} after ${options.timeoutMs ?? 30_000} ms; frames: ${urls.join(', ')}`);
    }
    // Frames attach and navigate asynchronously; wait for the next such event, or a short poll interval.
    await Promise.race([
      page.waitForEvent('framenavigated', { timeout: 500 }).catch(() => undefined),
      page.waitForEvent('frameattached', { timeout: 500 }).catch(() => undefined),
    ]);
  }
}
