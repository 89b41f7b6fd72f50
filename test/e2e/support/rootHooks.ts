/**
 * Mocha root hooks for the E2E tier (loaded with --require by scripts/test.ts): stop the shared
 * code-server once every E2E file has run.
 */
import { stopSharedHost } from './session';

export const mochaHooks = {
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(30_000);
    await stopSharedHost();
  },
};
