/**
 * The mission's tool-call store (implements `ToolCallLog` from ports.ts). Every tool call's raw result is
 * kept by id, so handoffs and the replanner pass results by reference, and an executor can reuse a call
 * whose inputs have not changed instead of redoing it.
 *
 * Reuse rule: same tool, structurally equal input, the earlier call succeeded, and every file in its
 * `inputsFingerprint` still has the recorded content hash (null = still absent). A call with no
 * fingerprint depended on nothing we can check, so it is never reused — re-running a command whose
 * inputs we cannot see is the safe side.
 */
import type { ToolCallRecord } from '../contracts/handoff';
import type { ToolCallLog } from '../ports';
import { sameValue } from '../plan/diff';

export class ToolCallStore implements ToolCallLog {
  readonly #byId = new Map<string, ToolCallRecord>();
  readonly #byTool = new Map<string, ToolCallRecord[]>();
  readonly #byStep = new Map<string, ToolCallRecord[]>();

  constructor(records: Iterable<ToolCallRecord> = []) {
    for (const record of records) this.add(record);
  }

  add(record: ToolCallRecord): void {
    if (this.#byId.has(record.id)) return;
    this.#byId.set(record.id, record);
    const list = this.#byTool.get(record.tool) ?? [];
    list.push(record);
    this.#byTool.set(record.tool, list);
    const forStep = this.#byStep.get(record.stepId) ?? [];
    forStep.push(record);
    this.#byStep.set(record.stepId, forStep);
  }

  get(id: string): ToolCallRecord | undefined {
    return this.#byId.get(id);
  }

  all(): ToolCallRecord[] {
    return [...this.#byId.values()];
  }

  /** Records made for one step, oldest first. */
  forStep(stepId: string): ToolCallRecord[] {
    return [...(this.#byStep.get(stepId) ?? [])];
  }

  async findReusable(tool: string, input: unknown, hashOf: (path: string) => Promise<string | null>): Promise<ToolCallRecord | undefined> {
    const candidates = (this.#byTool.get(tool) ?? []).filter((r) => r.ok && sameValue(r.input, input));
    // Newest first: the latest observation is the one most likely still true.
    for (const record of candidates.reverse()) {
      if (await stillValid(record, hashOf)) return record;
    }
    return undefined;
  }

  /**
   * Ids of successful calls made by the given steps whose fingerprints still match the workspace (the
   * candidates a handoff offers). Indexed by step so the cost grows with the dependencies, not the mission.
   */
  async validIds(hashOf: (path: string) => Promise<string | null>, stepIds: Iterable<string>): Promise<string[]> {
    const out: string[] = [];
    for (const stepId of stepIds) {
      for (const record of this.#byStep.get(stepId) ?? []) {
        if (record.ok && (await stillValid(record, hashOf))) out.push(record.id);
      }
    }
    return out;
  }
}

async function stillValid(record: ToolCallRecord, hashOf: (path: string) => Promise<string | null>): Promise<boolean> {
  const entries = Object.entries(record.inputsFingerprint);
  if (entries.length === 0) return false;
  for (const [path, hash] of entries) {
    if ((await hashOf(path)) !== hash) return false;
  }
  return true;
}
