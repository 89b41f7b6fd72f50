/**
 * The model port: one Messages call, as the roles see it. Adapters (Anthropic over the SDK, replay from a
 * trace) implement it; the roles never touch the SDK directly, so tests can swap the adapter and the
 * trace can record exactly what was asked and answered.
 *
 * Direction: roles → ModelClient → the API. Errors never escape as exceptions: every call resolves to an
 * outcome, and a failed one carries a `Failure` a person can read.
 */
import type {
  ContentBlock,
  MessageParam,
  TextBlockParam,
  ToolChoice,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Failure } from '../contracts/results';
import type { Usage } from '../contracts/traceEvents';

export type RoleName = 'planner' | 'executor' | 'verifier' | 'replanner';
export type ModelEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ModelRequest {
  role: RoleName;
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
}

export type ModelOutcome =
  | { ok: true; response: ModelResponse }
  | { ok: false; failure: Failure; durationMs: number; attempts: number };

export interface ModelClient {
  call(request: ModelRequest, signal: AbortSignal): Promise<ModelOutcome>;
  /** Exact token count where the adapter can ask cheaply; undefined when it cannot. */
  countTokens?(request: ModelRequest, signal: AbortSignal): Promise<number | undefined>;
}
