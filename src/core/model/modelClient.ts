/**
 * The model port: one Messages call, as the roles see it. Adapters (Anthropic over its SDK, OpenAI-compatible
 * Chat Completions, VS Code's language models, replay from a trace) implement it; the roles never touch an
 * SDK directly, so tests can swap the adapter and the trace can record exactly what was asked and answered.
 *
 * The shape stays Anthropic's Messages API on purpose: it is the richest of the three (system blocks,
 * cache breakpoints, thinking blocks, tool_use/tool_result pairs), the trace and replay record it, and the
 * other adapters translate it at their edge (and back), so roles, traces and replays are provider-neutral.
 *
 * Direction: roles → ModelClient → the API. Errors never escape as exceptions: every call resolves to an
 * outcome, and a failed one carries a `Failure` a person can read. Waits before a retry (rate limits,
 * overload, cut streams) happen inside the call and are reported through `CallHooks.onWait`.
 */
import type { ContentBlock, MessageParam, TextBlockParam, ToolChoice, ToolUnion } from './messages';
import type { Failure } from '../contracts/results';
import type { Result } from '../contracts/result';
import type { Usage } from '../contracts/traceEvents';
import type { ProviderId } from './providers';

export type RoleName = 'planner' | 'executor' | 'verifier' | 'replanner';
export type ModelEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ModelRequest {
  role: RoleName;
  /** The step the call serves (null: the plan). Adapters ignore it; a replay matches recorded calls by it. */
  stepId?: string | null;
  /** Which adapter answers (see routedClient.ts); absent means Anthropic. */
  provider?: ProviderId;
  model: string;
  /** System blocks; the roles put `cache_control` on the last block of the stable prefix. */
  system: TextBlockParam[];
  tools: ToolUnion[];
  messages: MessageParam[];
  maxTokens: number;
  /** Sent only to models that still accept sampling parameters (see modelSettings.ts). */
  temperature?: number;
  /** `output_config.effort`, for models that take effort instead of temperature. */
  effort?: ModelEffort;
  /** `output_config.format` (structured output): a JSON schema accepted by the API. */
  outputSchema?: Record<string, unknown>;
  toolChoice?: ToolChoice;
}

export interface ModelResponse {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
  requestId: string | null;
  /** Wall time of the successful attempt plus any retries before it. */
  durationMs: number;
  /** How many attempts this call took (1 = no retry). */
  attempts: number;
  /** True when the model ran on this machine (a loopback endpoint): the call costs nothing. */
  local?: boolean;
}

export type WaitReason = 'rate_limited' | 'overloaded' | 'server_error' | 'connection' | 'stream_cut';

/** A wait before the next attempt of the same call (the `model_wait` trace event is made from it). */
export interface ModelWait {
  provider: ProviderId;
  model: string;
  reason: WaitReason;
  waitMs: number;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  message: string;
}

export interface CallHooks {
  /** Called before each wait, and awaited (the role records it in the trace first). */
  onWait?(wait: ModelWait): void | Promise<void>;
  /** Milliseconds left of the mission's wall budget: a wait that would outlast it fails the call instead. */
  remainingMs?(): number;
}

/** A failed model call: the failure, how long the attempts took and how many there were. */
export type ModelFailure = { failure: Failure; durationMs: number; attempts: number };
export type ModelOutcome = Result<ModelResponse, ModelFailure>;

export interface ModelClient {
  call(request: ModelRequest, signal: AbortSignal, hooks?: CallHooks): Promise<ModelOutcome>;
  /** Exact token count where the adapter can ask cheaply; undefined when it cannot. */
  countTokens?(request: ModelRequest, signal: AbortSignal): Promise<number | undefined>;
}
