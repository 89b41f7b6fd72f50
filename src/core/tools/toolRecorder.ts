/**
 * Records every tool call: one ToolCallRecord in the mission's tool-call store and one `tool_call` trace
 * event, whatever the outcome. Outputs are capped for the record (the model sees the same capped text);
 * a larger raw output is kept whole in the blob store and referenced from the record.
 */
import { randomBytes } from 'node:crypto';
import type { Failure } from '../contracts/results';
import type { ToolCallRecord } from '../contracts/handoff';
import type { StepToolsContext, ToolOutcome } from '../ports';
import { toolError } from './failures';
import { errorText } from '../primitives/errorText';

const MAX_RECORDED_OUTPUT = 64 * 1024;

export interface CallResult {
  ok: boolean;
  output: string;
  failure?: Failure;
  /** path → content hash the result depended on (enables reuse while unchanged). */
  fingerprint?: Record<string, string | null>;
  reusedFrom?: string;
}

export type ToolOutcomeWithReuse = ToolOutcome;

export class ToolRecorder {
  #seq = 0;
  readonly #prefix: string;

  constructor(private readonly ctx: StepToolsContext) {
    this.#prefix = `tc_${ctx.step.id}_${randomBytes(3).toString('hex')}`;
  }

  newId(kind = ''): string {
    this.#seq += 1;
    return `${this.#prefix}${kind}_${this.#seq}`;
  }

  async call(tool: string, input: unknown, run: () => Promise<CallResult>): Promise<ToolOutcomeWithReuse> {
    const id = this.newId();
    const startedAt = new Date(this.ctx.clock.now()).toISOString();
    let result: CallResult;
    try {
      result = await run();
    } catch (err) {
      const message = errorText(err);
      result = { ok: false, output: `error: ${message}`, failure: toolError(message) };
    }
    let output = result.output;
    if (output.length > MAX_RECORDED_OUTPUT) {
      const blob = await this.ctx.store.putBlob(new TextEncoder().encode(output));
      output = `${output.slice(0, MAX_RECORDED_OUTPUT / 2)}\n… [output capped; full text in blob ${blob}] …\n${output.slice(-MAX_RECORDED_OUTPUT / 2)}`;
    }
    const record: ToolCallRecord = {
      id,
      stepId: this.ctx.step.id,
      role: this.ctx.role,
      tool,
      input,
      output,
      ok: result.ok,
      startedAt,
      finishedAt: new Date(this.ctx.clock.now()).toISOString(),
      inputsFingerprint: result.fingerprint ?? {},
      ...(result.reusedFrom !== undefined ? { reusedFrom: result.reusedFrom } : {}),
    };
    this.ctx.toolCalls.add(record);
    await this.ctx.record({ type: 'tool_call', record });
    const reuse = result.reusedFrom !== undefined ? { reusedFrom: result.reusedFrom } : {};
    if (result.ok) return { ok: true, output, toolCallId: id, ...reuse };
    return { ok: false, output, toolCallId: id, failure: result.failure ?? toolError(output) };
  }
}

/** A failed call: output is what the model reads, so it leads with the class and the rule. */
export function failed(failure: Failure): CallResult {
  const detail = failure.class === 'permission_denied' && failure.detail ? ` [rule ${failure.detail}]` : '';
  return { ok: false, output: `${failure.class}${detail}: ${failure.message}${failure.suggestion ? `\n(${failure.suggestion})` : ''}`, failure };
}
