/**
 * Adversarial mission harness: the real engine (startMission) with the real roles over a real SDK client,
 * talking to a scriptable server, on a real temp workspace through the Node adapters. A test scripts what
 * a misbehaving or hostile model answers and asserts what the engine let happen.
 *
 * Every suite written with `describeEachProvider` runs twice: once over the Anthropic SDK against the
 * Messages server, once over the `openai` SDK against the Chat Completions server — the same scenario,
 * the same assertions, so nothing forbidden happens whatever the provider.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startMission } from '../../../src/core/mission/start';
import type { MissionOptions, MissionReport } from '../../../src/core/mission/options';
import { createAnthropicModelClient } from '../../../src/node/model/anthropicClient';
import { createOpenAIModelClient } from '../../../src/node/model/openaiClient';
import type { DeepPartialSettings } from '../../../src/core/model/modelSettings';
import type { EventSink } from '../../../src/core/ports';
import { createRoles } from '../../../src/core/roles/createRoles';
import { scrubEnv } from '../../../src/core/policy/env';
import { createStepTools } from '../../../src/core/tools/stepTools';
import type { TraceEvent } from '../../../src/core/contracts/traceEvents';
import { FileStore } from '../../../src/node/fileStore';
import { NodeTerminal } from '../../../src/node/nodeTerminal';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { systemClock } from '../../../src/node/systemClock';
import { startMessagesServer } from '../../support/messages-server/server';
import { startChatServer } from '../../support/openai-server/server';
import type { Fault, MessagesBody, ScenarioInput } from '../../support/messages-server/scenario';
import { toolResultsOf } from '../../support/messages-server/toolResults';

export type HarnessProvider = 'anthropic' | 'openai';
const HARNESS_PROVIDERS: readonly HarnessProvider[] = ['anthropic', 'openai'];
let currentProvider: HarnessProvider = 'anthropic';

/** A describe block per provider; runAdversarialMission inside it uses that provider unless told otherwise. */
export function describeEachProvider(title: string, body: (this: Mocha.Suite, provider: HarnessProvider) => void): void {
  for (const provider of HARNESS_PROVIDERS) {
    describe(`${title} [${provider}]`, function () {
      before(() => {
        currentProvider = provider;
      });
      body.call(this, provider);
    });
  }
}

/** What a test reads of either server: the requests (in the Messages shape) and close(). */
interface ScriptedServer {
  url: string;
  requests: { body: MessagesBody; role: string | null; turn: number; rule: string | null; fault: Fault | null; at: number }[];
  close(): Promise<void>;
}

export type Rule = ScenarioInput['rules'][number];

export { wirePlan as plan, wireStep as step } from '../../support/fixtures';

export const edit = (path: string, input: Record<string, unknown>): { name: string; input: unknown } => ({
  name: 'str_replace_based_edit_tool',
  input: { path, ...input },
});
export const bash = (command: string): { name: string; input: unknown } => ({ name: 'bash', input: { command } });
export const report = (output = 'done', status = 'succeeded'): { toolUse: { name: string; input: unknown }[] } => ({
  toolUse: [{ name: 'report_result', input: { status, output, evidence: [{ description: output }] } }],
});

export interface MissionRunOptions {
  /** The planner's answers, in order (an array entry = successive attempts); default: `plan` once. */
  planTurns?: unknown[];
  plan?: Record<string, unknown>;
  /** Executor / verifier / replanner rules (a function when they need the temp paths). */
  rules: Rule[] | ((ws: string, outside: string) => Rule[]);
  /** Prepares the workspace (`ws`) and a directory outside it (`outside`). */
  setup?: (ws: string, outside: string) => void;
  settings?: DeepPartialSettings;
  mission?: Partial<MissionOptions>;
  /** Called with the handle once the mission is started (for cancellation). */
  onStart?: (handle: ReturnType<typeof startMission>, server: ScriptedServer) => void;
  /** Default: the provider of the enclosing describeEachProvider block (else anthropic). */
  provider?: HarnessProvider;
  /** Retries after the first attempt of a model call (default 2). */
  maxRetries?: number;
  /** The client's stream idle limit (default: the adapter's). */
  streamIdleMs?: number;
}

export interface MissionRun {
  ws: string;
  outside: string;
  report: MissionReport;
  events: TraceEvent[];
  provider: HarnessProvider;
  server: ScriptedServer;
  /** Every tool_result block the executor model was sent, by tool_use id. */
  toolResults: Map<string, { content: string; isError: boolean }>;
  requests: ScriptedServer['requests'];
}

export function write(root: string, rel: string, content: string | Uint8Array): void {
  const p = join(root, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}

export const read = (root: string, rel: string): string => readFileSync(join(root, rel), 'utf8');

/** Every file under dir (relative), skipping the engine's own store. */
export function tree(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (rel === '.plan-execute') continue;
    if (e.isDirectory()) out.push(...tree(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Runs one mission to its end; the caller must `cleanup(run)` (use it in `finally`). */
export async function runAdversarialMission(o: MissionRunOptions): Promise<MissionRun> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'pe-adv-')));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  o.setup?.(ws, outside);
  const planTurns = o.planTurns ?? [{ structured: o.plan }];
  const scenario: ScenarioInput = {
    name: 'adversarial',
    rules: [{ name: 'plan', match: { role: 'planner' }, turns: planTurns as never }, ...(typeof o.rules === 'function' ? o.rules(ws, outside) : o.rules)],
  };
  const provider = o.provider ?? currentProvider;
  const server: ScriptedServer = provider === 'openai' ? await startChatServer({ scenario }) : await startMessagesServer({ scenario });
  try {
    const clientOptions = {
      apiKey: 'test',
      baseURL: server.url,
      retry: { maxAttempts: (o.maxRetries ?? 2) + 1, rateLimitAttempts: (o.maxRetries ?? 2) + 1, baseDelayMs: 1, maxDelayMs: 5 },
      ...(o.streamIdleMs !== undefined ? { streamIdleMs: o.streamIdleMs } : {}),
    };
    const client = provider === 'openai' ? createOpenAIModelClient({ ...clientOptions, env: {} }) : createAnthropicModelClient(clientOptions);
    const roles = createRoles({ client, settings: { ...(provider === 'openai' ? { provider: 'openai', model: 'test-model' } : {}), ...o.settings } });
    const workspace = await NodeWorkspace.open(ws);
    const events: TraceEvent[] = [];
    const sink: EventSink = { emit: (e) => void events.push(e) };
    const handle = startMission({
      task: 'adversarial task',
      constraints: [],
      workspace,
      terminal: new NodeTerminal(),
      approver: { request: async () => ({ decision: 'approved', by: 'rule', rule: 'test' }) },
      store: FileStore.forWorkspace(workspace.root),
      clock: systemClock,
      events: sink,
      planner: roles.planner,
      executor: roles.executor,
      verifier: roles.verifier,
      createStepTools,
      approve: 'all',
      env: scrubEnv({ PATH: process.env.PATH }),
      cancelGraceMs: 2000,
      ...o.mission,
    });
    o.onStart?.(handle, server);
    const missionReport = await handle.done;
    return { ws, outside, report: missionReport, events, provider, server, toolResults: toolResultsOf(server.requests), requests: server.requests };
  } catch (error) {
    await server.close();
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

export async function cleanup(run: MissionRun | undefined): Promise<void> {
  if (!run) return;
  await run.server.close();
  rmSync(dirname(run.ws), { recursive: true, force: true });
}

export const ofType = <T extends TraceEvent['type']>(events: TraceEvent[], type: T): Extract<TraceEvent, { type: T }>[] =>
  events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
