/**
 * The demo's moving parts, shared by `npm start -- --demo` and its E2E test: the guided scenario served by
 * the project's scriptable Messages-API server on loopback, and a code-server whose extension host is
 * pointed at it (ANTHROPIC_BASE_URL, a placeholder key that never leaves this machine) and told that a
 * scripted demo model answers (PLAN_EXECUTE_DEMO, with the suggested task in PLAN_EXECUTE_DEMO_TASK).
 * code-server, not desktop VS Code: a desktop window joins the running instance and would not see this env.
 */
import { startCodeServer, type CodeServer } from './codeServer';
import { startMessagesServer, type MessagesServer } from '../messages-server/server';
import { DEMO_TASK, demoTourScenario } from '../messages-server/scenarios/demoTour';

export interface DemoHost {
  host: CodeServer;
  model: MessagesServer;
  task: string;
  stop(): Promise<void>;
}

export async function startDemoHost(options: { log?: (line: string) => void } = {}): Promise<DemoHost> {
  const model = await startMessagesServer({ scenario: demoTourScenario() });
  try {
    const host = await startCodeServer({
      ...(options.log ? { log: options.log } : {}),
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'demo-placeholder-key', PLAN_EXECUTE_DEMO: '1', PLAN_EXECUTE_DEMO_TASK: DEMO_TASK },
      settings: { 'planExecute.approvalMode': 'ask' },
    });
    return {
      host,
      model,
      task: DEMO_TASK,
      stop: async () => {
        await host.stop();
        await model.close();
      },
    };
  } catch (error) {
    await model.close();
    throw error;
  }
}
