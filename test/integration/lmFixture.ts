/**
 * The test side of the language-model fixture extension (test/support/host/lmFixture): its exports, and a
 * responder that answers its models' requests from a scenario of the Messages-server format, so the same
 * scripted mission runs on VS Code's language models. Faults map to what a provider extension would throw:
 * rate_limit → LanguageModelError.Blocked, auth → NoPermissions, model_not_found → NotFound.
 */
import * as vscode from 'vscode';
import { ERROR_RESULT } from '../../src/node/model/openaiRequest';
import {
  createPicker,
  detectRole,
  parseScenario,
  turnOf,
  type Fault,
  type MessagesBody,
  type RecordedRequest,
  type ScenarioInput,
} from '../support/messages-server/scenario';

interface FixturePart {
  type: 'text' | 'tool_call' | 'tool_result' | 'other';
  text?: string;
  callId?: string;
  name?: string;
  input?: unknown;
}

export interface FixtureRequest {
  model: string;
  extensionId: string;
  messages: { role: 'user' | 'assistant'; parts: FixturePart[] }[];
  tools: { name: string; description: string; inputSchema: unknown }[];
  toolMode: number | undefined;
}

export interface FixtureReply {
  text?: string;
  toolCalls?: { name: string; input: unknown; id?: string }[];
  error?: string;
  message?: string;
}

export interface LmFixture {
  setResponder(fn: (request: FixtureRequest) => Promise<FixtureReply>): void;
  readonly requests: FixtureRequest[];
}

export async function lmFixture(): Promise<LmFixture> {
  const ext = vscode.extensions.getExtension<LmFixture>('plan-execute-test.lm-fixture');
  if (!ext) throw new Error('the language-model fixture extension is not installed in this host');
  return ext.isActive ? ext.exports : ext.activate();
}

/** The request in the Messages shape: the system prompt opens the first user message on this API. */
function messagesView(request: FixtureRequest): MessagesBody {
  const messages = request.messages.map((m) => ({
    role: m.role,
    content: m.parts.map((p): Record<string, unknown> => {
      if (p.type === 'tool_call') return { type: 'tool_use', id: p.callId, name: p.name, input: p.input };
      if (p.type === 'tool_result') return { type: 'tool_result', tool_use_id: p.callId, content: p.text ?? '', is_error: ERROR_RESULT.test(p.text ?? '') };
      return { type: 'text', text: p.text ?? '' };
    }),
  }));
  const first = messages.find((m) => m.role === 'user');
  const system = (first?.content ?? []).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
  return { model: request.model, system, tools: request.tools.map((t) => ({ name: t.name })), messages };
}

const FAULT_ERRORS: Partial<Record<Fault, FixtureReply>> = {
  rate_limit: { error: 'Blocked', message: 'rate limit: try again shortly' },
  auth: { error: 'NoPermissions', message: 'access not granted' },
  model_not_found: { error: 'NotFound', message: 'the model went away' },
  server_error: { error: 'server', message: '500 internal error' },
  overloaded: { error: 'server', message: '503 overloaded' },
};

/** Answers fixture requests from a scenario; `seen` collects what each request matched. */
export function scenarioResponder(
  input: ScenarioInput,
  seen: { role: string | null; rule: string | null; fault: Fault | null; model: string }[] = [],
): (request: FixtureRequest) => Promise<FixtureReply> {
  const scenario = parseScenario(input);
  const pick = createPicker(scenario);
  return async (request) => {
    const body = messagesView(request);
    const { role, promptVersion } = detectRole(body);
    const recorded: RecordedRequest = {
      index: seen.length,
      path: 'lm',
      headers: {},
      body,
      role,
      promptVersion,
      turn: turnOf(body),
      stream: true,
      at: Date.now(),
      rule: null,
      fault: null,
    };
    const picked = pick(body, role, recorded);
    seen.push({ role, rule: picked?.rule ?? null, fault: picked?.reply.fault ?? null, model: request.model });
    if (!picked) return { error: 'unmatched', message: `lm fixture: no scenario rule matches (role=${role}, turn=${recorded.turn})` };
    const reply = picked.reply;
    if (reply.latencyMs) await new Promise((r) => setTimeout(r, reply.latencyMs));
    if (reply.fault) return FAULT_ERRORS[reply.fault] ?? { error: 'server', message: `fault ${reply.fault}` };
    const toolCalls = (reply.toolUse ?? []).map((t) => ({ name: t.name, input: t.input, ...(t.id ? { id: t.id } : {}) }));
    let text = reply.text ?? '';
    if (reply.structured !== undefined) {
      const value = typeof reply.structured === 'string' ? JSON.parse(reply.structured) : reply.structured;
      if (request.tools.some((t) => t.name === 'structured_output')) toolCalls.push({ name: 'structured_output', input: value });
      else text += JSON.stringify(value);
    }
    return { ...(text ? { text } : {}), ...(toolCalls.length ? { toolCalls } : {}) };
  };
}
