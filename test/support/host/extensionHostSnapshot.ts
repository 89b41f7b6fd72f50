/**
 * What was true in the extension host before any test ran, recorded by the integration runner. Tests that
 * check lazy activation read this instead of the live state, because test files run in name order and an
 * earlier file may well have activated the extension already. Each test file is its own bundle, so the
 * snapshot lives on globalThis rather than in module state.
 */
const KEY = Symbol.for('planExecute.integration.hostSnapshot');

export interface HostSnapshot {
  /** `getExtension(id).isActive` when the runner started. */
  readonly extensionActiveAtStart: boolean;
  /** Whether `getExtension(id)` found the extension at all. */
  readonly extensionFound: boolean;
}

export function recordHostSnapshot(snapshot: HostSnapshot): void {
  (globalThis as Record<symbol, unknown>)[KEY] = snapshot;
}

/** The recorded snapshot; throws when the runner did not record one (tests run outside the runner). */
export function hostSnapshot(): HostSnapshot {
  const snapshot = (globalThis as Record<symbol, unknown>)[KEY] as HostSnapshot | undefined;
  if (!snapshot) throw new Error('no host snapshot: run these tests through test/integration/index.ts');
  return snapshot;
}
