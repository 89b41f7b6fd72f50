/**
 * Scenario files for the scriptable Messages server: which reply each request gets, matched by request
 * shape (role marker in the system prompt, step text in the first user message, conversation turn).
 * Documented in ./README.md; validated with zod when loaded, so a typo fails loudly.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const FaultSchema = z.enum([
  'rate_limit',
  'spend_limit',
  'usage_limit',
  'overloaded',
  'server_error',
  'connection_reset',
  'stream_cut',
  'overloaded_midstream',
  'no_message_stop',
  'max_tokens',
  'hang',
  /** 401: the key is refused. */
  'auth',
  /** 404: the model does not exist at this endpoint. */
  'model_not_found',
  /** 400: the prompt is longer than the model's context. */
  'context_length',
  /** 400: the model cannot call tools (Ollama's wording). */
  'no_tools',
  /** A stream that ends cleanly without saying it finished (no message_stop / no finish_reason). */
  'no_finish',
]);

const ReplySchema = z.object({
  /** A thinking block first (with a fake signature), as models with adaptive thinking send. */
  thinking: z.string().optional(),
  /** A text block. */
  text: z.string().optional(),
  /** Structured output: a text block holding JSON.stringify(value), or the string as-is (malformed on purpose). */
  structured: z.unknown().optional(),
  /** tool_use blocks, streamed as input_json_delta. Ids are generated when absent. */
  toolUse: z.array(z.object({ name: z.string(), input: z.unknown(), id: z.string().optional() })).optional(),
  /** Default: "tool_use" when toolUse is set, else "end_turn". */
  stopReason: z.string().optional(),
  /** Delay before the response headers. */
  latencyMs: z.number().int().nonnegative().optional(),
  /** Delay between SSE events. */
  chunkDelayMs: z.number().int().nonnegative().optional(),
  /** Overrides for the computed usage. */
  usage: z.record(z.string(), z.number()).optional(),
  fault: FaultSchema.optional(),
  /** A 400 invalid_request_error with this message, instead of an answer: a scripted model saying what it cannot answer. */
  refusal: z.string().optional(),
  /** For rate_limit: the retry-after-ms header (and retry-after, rounded up to seconds). */
  retryAfterMs: z.number().int().nonnegative().optional(),
});

const MatchSchema = z.object({
  /** Role from the prompt marker "plan-execute role: <role>". */
  role: z.enum(['planner', 'executor', 'verifier', 'replanner']).optional(),
  systemIncludes: z.string().optional(),
  /** Text that must appear in the first user message (e.g. the step id header "Step s2"). */
  firstUserIncludes: z.string().optional(),
  /** Text that must appear in the last user message (e.g. a tool result). */
  lastUserIncludes: z.string().optional(),
  /** Only this turn (1 = first call of a conversation; n = n-1 assistant messages before). */
  turn: z.number().int().positive().optional(),
  /** A tool name that must be offered. */
  hasTool: z.string().optional(),
});

const RuleSchema = z.object({
  name: z.string().optional(),
  match: MatchSchema.default({}),
  /** One entry per turn; an array entry lists successive attempts of that turn (retries). */
  turns: z.array(z.union([ReplySchema, z.array(ReplySchema).min(1)])).optional(),
  /** A queue shared by every request the rule matches, consumed in order. */
  replies: z.array(ReplySchema).optional(),
});

const ScenarioSchema = z.object({
  name: z.string().default('scenario'),
  /** Minimum prefix size (tokens) the cache simulation will cache (the real API: 1024+). */
  minCacheTokens: z.number().int().nonnegative().default(0),
  rules: z.array(RuleSchema),
});

export type Fault = z.infer<typeof FaultSchema>;
export type Reply = z.infer<typeof ReplySchema>;
type Match = z.infer<typeof MatchSchema>;
type Rule = z.infer<typeof RuleSchema> & {
  /** Programmatic rules (not in JSON files): compute the reply from the request. */
  respond?: (request: RecordedRequest) => Reply;
};
export type Scenario = Omit<z.infer<typeof ScenarioSchema>, 'rules'> & { rules: Rule[] };
export type ScenarioInput = Omit<z.input<typeof ScenarioSchema>, 'rules'> & { rules: (z.input<typeof RuleSchema> & { respond?: Rule['respond'] })[] };

/** One request as the server saw it. */
export interface RecordedRequest {
  index: number;
  path: string;
  headers: Record<string, string>;
  body: MessagesBody;
  role: string | null;
  promptVersion: string | null;
  turn: number;
  stream: boolean;
  at: number;
  /** Name (or index) of the rule that answered, and the fault injected if any. */
  rule: string | null;
  fault: Fault | null;
}

export interface MessagesBody {
  model?: string;
  system?: string | { type: string; text: string; cache_control?: unknown }[];
  tools?: Record<string, unknown>[];
  messages?: { role: string; content: string | Record<string, unknown>[] }[];
  stream?: boolean;
  max_tokens?: number;
  output_config?: Record<string, unknown>;
  [key: string]: unknown;
}

export function parseScenario(input: unknown): Scenario {
  const parsed = ScenarioSchema.safeParse(input);
  if (!parsed.success) {
    throw new Error(`invalid scenario: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const rules = (input as { rules: { respond?: Rule['respond'] }[] }).rules;
  return { ...parsed.data, rules: parsed.data.rules.map((r, i) => ({ ...r, ...(rules[i]?.respond ? { respond: rules[i].respond } : {}) })) };
}

export function loadScenario(path: string): Scenario {
  return parseScenario(JSON.parse(readFileSync(path, 'utf8')));
}

const ROLE_MARKER = /plan-execute role: (\w+) \(prompt ([\w.-]+)\)/;

export function systemText(body: MessagesBody): string {
  if (typeof body.system === 'string') return body.system;
  return (body.system ?? []).map((b) => b.text).join('\n');
}

export function messageText(message: { content: string | Record<string, unknown>[] } | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((b) => (typeof b.text === 'string' ? b.text : typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? b.input ?? '')))
    .join('\n');
}

export function detectRole(body: MessagesBody): { role: string | null; promptVersion: string | null } {
  const m = ROLE_MARKER.exec(systemText(body));
  return { role: m?.[1] ?? null, promptVersion: m?.[2] ?? null };
}

export function turnOf(body: MessagesBody): number {
  return (body.messages ?? []).filter((m) => m.role === 'assistant').length + 1;
}

function matches(match: Match, body: MessagesBody, role: string | null): boolean {
  if (match.role && match.role !== role) return false;
  if (match.systemIncludes && !systemText(body).includes(match.systemIncludes)) return false;
  const messages = body.messages ?? [];
  if (match.firstUserIncludes && !messageText(messages.find((m) => m.role === 'user')).includes(match.firstUserIncludes)) return false;
  if (match.lastUserIncludes && !messageText([...messages].reverse().find((m) => m.role === 'user')).includes(match.lastUserIncludes)) return false;
  if (match.turn !== undefined && match.turn !== turnOf(body)) return false;
  if (match.hasTool && !(body.tools ?? []).some((t) => t.name === match.hasTool)) return false;
  return true;
}

/**
 * Picks the reply for a request: the first matching rule answers; `turns` advance per attempt of the same
 * turn of the same conversation (same rule, turn and first user message), `replies` are a shared queue.
 * Shared by the Messages server and the Chat Completions server, so one scenario drives both.
 */
export function createPicker(
  scenario: Scenario,
): (body: MessagesBody, role: string | null, recorded: RecordedRequest) => { reply: Reply; rule: string } | undefined {
  const attempts = new Map<string, number>();
  const queues = new Map<number, number>();
  return (body, role, recorded) => {
    for (const [i, rule] of scenario.rules.entries()) {
      if (!matches(rule.match, body, role)) continue;
      const name = rule.name ?? `rule${i}`;
      if (rule.respond) return { reply: rule.respond(recorded), rule: name };
      if (rule.turns) {
        const turn = turnOf(body);
        const entry = rule.turns[turn - 1];
        if (entry === undefined) continue;
        const list = Array.isArray(entry) ? entry : [entry];
        const key = `${i}|${turn}|${messageText((body.messages ?? []).find((m) => m.role === 'user'))}`;
        const n = attempts.get(key) ?? 0;
        attempts.set(key, n + 1);
        return { reply: list[Math.min(n, list.length - 1)]!, rule: name };
      }
      if (rule.replies) {
        const n = queues.get(i) ?? 0;
        if (n >= rule.replies.length) continue;
        queues.set(i, n + 1);
        return { reply: rule.replies[n]!, rule: name };
      }
    }
    return undefined;
  };
}
