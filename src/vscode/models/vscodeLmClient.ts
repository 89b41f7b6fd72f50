/**
 * The `vscode-lm` adapter: one `ModelRequest` → `LanguageModelChat.sendRequest` on VS Code's Language Model
 * API, so a mission can run on the models the user already has in VS Code (GitHub Copilot's, or any
 * extension's). Only inside the extension: the CLI cannot reach these models.
 *
 * Translation: the system prompt opens the first user message (the stable API has no system role); tool
 * calls and results become LanguageModelToolCallPart / LanguageModelToolResultPart, every call paired
 * with one result (pairedTurns.ts); tools are declared as function tools with the same inputs as on every
 * provider; structured output (no response format here) is a forced `structured_output` tool call.
 *
 * What is checked before a request is sent, so it fails at the first call with the cause named: a model
 * that matches the setting exists (else `model_unavailable`, listing what there is), it can call tools when
 * tools are offered (`no_tool_support`), and the prompt fits `maxInputTokens` (`context_too_long`).
 * `LanguageModelError`s map to causes: NoPermissions (consent refused) → auth, NotFound → model_unavailable,
 * Blocked (quota) → a rate-limit wait. Usage is counted with the model's own tokenizer; the price is unknown.
 */
import * as vscode from 'vscode';
import type { ContentBlock, TextBlock, ToolUseBlock } from '../../core/model/messages';
import type { ModelClient, ModelRequest, ModelResponse } from '../../core/model/modelClient';
import { functionToolOf, STRUCTURED_OUTPUT_TOOL, structuredOutputTool } from '../../core/model/functionTools';
import { pairedTurns, systemText } from '../../core/model/pairedTurns';
import { cancelledCall, providerFailure, retryingCall, type AdapterTuning, type AttemptFault } from '../../core/model/retryLoop';
import { stripAddedNulls } from '../../core/model/strictSchema';
import { DEFAULT_STREAM_IDLE_MS, idleWatchdog } from '../../core/model/streamWatchdog';
import { StalledStreamError } from '../../core/model/streamErrors';
import { errorText } from '../../core/primitives/errorText';

export interface VsCodeLmClientOptions extends AdapterTuning {
  /** Shown in VS Code's consent prompt. */
  justification?: string;
}

/** Thrown before a request is sent, with the failure it stands for. */
class Refused extends Error {
  constructor(readonly fault: AttemptFault) {
    super(fault.kind === 'fail' ? fault.failure.message : fault.message);
  }
}

const refuse = (cause: 'model_unavailable' | 'no_tool_support' | 'context_too_long', message: string, suggestion: string): Refused =>
  new Refused({
    kind: 'fail',
    failure: providerFailure('vscode-lm', cause, message, { recoverable: cause === 'context_too_long', detail: cause, suggestion }),
  });

/** How a model is named: its id, `vendor/family`, `vendor/id`, its family, or its name. */
function modelMatches(model: vscode.LanguageModelChat, wanted: string): boolean {
  return [model.id, `${model.vendor}/${model.family}`, `${model.vendor}/${model.id}`, model.family, model.name].includes(wanted);
}

async function findModel(wanted: string): Promise<vscode.LanguageModelChat> {
  const all = await vscode.lm.selectChatModels({});
  if (all.length === 0) {
    throw refuse(
      'model_unavailable',
      'No language model is available in VS Code: vscode-lm needs an extension that provides models (GitHub Copilot Chat, for one), signed in.',
      'Install and sign in to a model provider, or choose another provider (planExecute.provider).',
    );
  }
  const found = all.find((m) => m.id === wanted) ?? all.find((m) => modelMatches(m, wanted));
  if (!found) {
    const names = all.map((m) => `${m.vendor}/${m.family} (${m.id})`).join(', ');
    throw refuse('model_unavailable', `VS Code has no language model "${wanted}". Available: ${names}.`, 'Run "Plan & Execute: Choose Model" to pick one.');
  }
  return found;
}

function toolCalling(model: vscode.LanguageModelChat): boolean {
  // Not in 1.100's typings, but on the runtime object; absent means the provider did not say.
  const capabilities = (model as { capabilities?: { supportsToolCalling?: boolean } }).capabilities;
  return capabilities?.supportsToolCalling !== false;
}

function toLmMessages(request: ModelRequest): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let preamble = systemText(request.system);
  for (const turn of pairedTurns(request.messages)) {
    if (turn.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      if (turn.text) parts.push(new vscode.LanguageModelTextPart(turn.text));
      for (const c of turn.calls) parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, (c.input ?? {}) as object));
      out.push(vscode.LanguageModelChatMessage.Assistant(parts.length > 0 ? parts : [new vscode.LanguageModelTextPart('')]));
      continue;
    }
    const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[] = turn.results.map(
      (r) =>
        new vscode.LanguageModelToolResultPart(r.callId, [
          new vscode.LanguageModelTextPart(r.isError && !/^(\[tool_call_id: [^\]\n]+\]\n)?error\b/.test(r.text) ? `error: ${r.text}` : r.text),
        ]),
    );
    const text = preamble ? `${preamble}\n\n${turn.text}` : turn.text;
    preamble = '';
    if (text) parts.push(new vscode.LanguageModelTextPart(text));
    out.push(vscode.LanguageModelChatMessage.User(parts));
  }
  return out;
}

async function countAll(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], token: vscode.CancellationToken): Promise<number> {
  let total = 0;
  for (const m of messages) total += await model.countTokens(m, token);
  return total;
}

function classifyLmFault(error: unknown, aborted: boolean): AttemptFault {
  if (aborted || error instanceof vscode.CancellationError) return { kind: 'fail', failure: cancelledCall() };
  if (error instanceof Refused) return error.fault;
  if (error instanceof StalledStreamError) return { kind: 'retry', reason: 'stream_cut', message: error.message };
  const message = errorText(error);
  if (error instanceof vscode.LanguageModelError) {
    if (error.code === 'NoPermissions') {
      return {
        kind: 'fail',
        failure: providerFailure('vscode-lm', 'auth', `VS Code did not let Plan & Execute use this model (${message}): access was declined or never granted.`, {
          recoverable: false,
          detail: 'NoPermissions',
          suggestion: 'Start the mission again and allow access when VS Code asks, or choose another model.',
        }),
      };
    }
    if (error.code === 'NotFound') {
      return {
        kind: 'fail',
        failure: providerFailure('vscode-lm', 'model_unavailable', `The language model is gone (${message}).`, {
          recoverable: false,
          detail: 'NotFound',
          suggestion: 'Run "Plan & Execute: Choose Model" to pick one that is available.',
        }),
      };
    }
    if (error.code === 'Blocked') return { kind: 'retry', reason: 'rate_limited', message: `the model provider blocked the request (${message})` };
  }
  if (/\b429\b|rate.?limit|quota|too many requests/i.test(message)) return { kind: 'retry', reason: 'rate_limited', message };
  if (/\b5\d\d\b|overload|unavailable|try again/i.test(message)) return { kind: 'retry', reason: 'overloaded', message };
  if (/context|too long|too many tokens|maximum.*tokens/i.test(message)) {
    return {
      kind: 'fail',
      failure: providerFailure('vscode-lm', 'context_too_long', `The request is too long for the model (${message}).`, {
        recoverable: true,
        detail: 'context_too_long',
        suggestion: 'Split the step into smaller ones.',
      }),
    };
  }
  if (/tool/i.test(message) && /support/i.test(message)) {
    return {
      kind: 'fail',
      failure: providerFailure('vscode-lm', 'no_tool_support', `The model cannot call tools (${message}).`, {
        recoverable: false,
        detail: 'no_tool_support',
        suggestion: 'Choose a model with tool calling for this role.',
      }),
    };
  }
  return {
    kind: 'fail',
    failure: providerFailure('vscode-lm', undefined, `The language model failed: ${message}`, {
      recoverable: false,
      detail: error instanceof vscode.LanguageModelError ? error.code : 'lm_error',
    }),
  };
}

export function createVsCodeLmClient(options: VsCodeLmClientOptions = {}): ModelClient {
  const idleMs = options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;
  let counter = 0;

  async function attempt(request: ModelRequest, signal: AbortSignal): Promise<Omit<ModelResponse, 'durationMs' | 'attempts'>> {
    const model = await findModel(request.model);
    const functions = request.tools.map(functionToolOf);
    if (request.outputSchema) functions.push(structuredOutputTool(request.outputSchema));
    if (functions.length > 0 && !toolCalling(model)) {
      throw refuse(
        'no_tool_support',
        `The language model ${model.vendor}/${model.family} (${model.id}) cannot call tools; the ${request.role} needs tool calls.`,
        'Choose a model with tool calling for this role.',
      );
    }
    const watchdog = idleWatchdog(signal, idleMs);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = (): void => cts.cancel();
    watchdog.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const messages = toLmMessages(request);
      const inputTokens = await countAll(model, messages, cts.token);
      if (model.maxInputTokens > 0 && inputTokens > model.maxInputTokens) {
        throw refuse(
          'context_too_long',
          `The request needs ${inputTokens} input tokens; ${model.id} takes at most ${model.maxInputTokens}.`,
          'Split the step into smaller ones, or choose a model with a larger context.',
        );
      }
      // Tool mode: an answer that must be structured is forced (when it is the only way left to answer).
      const forced = request.outputSchema !== undefined && (request.tools.length === 0 || request.toolChoice?.type === 'none');
      const offered = forced ? functions.filter((f) => f.name === STRUCTURED_OUTPUT_TOOL) : functions;
      const response = await model.sendRequest(
        messages,
        {
          justification: options.justification ?? `Plan & Execute runs the ${request.role} of your mission on this model.`,
          ...(offered.length > 0 ? { tools: offered.map((f) => ({ name: f.name, description: f.description, inputSchema: f.parameters })) } : {}),
          ...(offered.length > 0 && (forced || request.outputSchema !== undefined || request.toolChoice?.type === 'any')
            ? { toolMode: vscode.LanguageModelChatToolMode.Required }
            : {}),
        },
        cts.token,
      );
      watchdog.arm();
      let text = '';
      const calls: { id: string; name: string; input: unknown }[] = [];
      for await (const part of response.stream) {
        watchdog.arm();
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart) calls.push({ id: part.callId, name: part.name, input: part.input });
      }
      if (watchdog.stalled()) throw new StalledStreamError(calls.length, idleMs);
      if (signal.aborted) throw new vscode.CancellationError();
      const schemas = new Map(functions.map((f) => [f.name, f.parameters]));
      const structured = calls.find((c) => c.name === STRUCTURED_OUTPUT_TOOL);
      const uses: ToolUseBlock[] = calls
        .filter((c) => c.name !== STRUCTURED_OUTPUT_TOOL)
        .map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: stripAddedNulls(c.input, schemas.get(c.name)), caller: { type: 'direct' } }));
      const answer = structured ? JSON.stringify(stripAddedNulls(structured.input, request.outputSchema)) : text;
      const content: ContentBlock[] = [...(answer ? [{ type: 'text', text: answer } satisfies TextBlock] : []), ...uses];
      const outputTokens = await model.countTokens(JSON.stringify(content), cts.token).then(
        (n) => n,
        () => Math.ceil(JSON.stringify(content).length / 4),
      );
      return {
        id: `lm_${++counter}`,
        model: model.id,
        content,
        stopReason: uses.length > 0 ? 'tool_use' : 'end_turn',
        usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
        requestId: null,
      };
    } catch (error) {
      if (watchdog.stalled()) throw new StalledStreamError(0, idleMs);
      throw error;
    } finally {
      watchdog.signal.removeEventListener('abort', onAbort);
      watchdog.dispose();
      cts.dispose();
    }
  }

  return {
    call: retryingCall({ provider: 'vscode-lm', tuning: options, attempt, classify: classifyLmFault }),
  };
}

/** The models VS Code offers, for the model picker: `{ label, ref }` where ref is what the setting holds. */
export async function listLmModels(): Promise<{ label: string; description: string; ref: string }[]> {
  const all = await vscode.lm.selectChatModels({});
  return all.map((m) => ({ label: m.name || m.id, description: `${m.vendor}/${m.family} · ${m.maxInputTokens} input tokens`, ref: m.id }));
}
