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

/**
 * The demo's model, by a name that claims nothing: every role uses it (planExecute.model), the planning
 * notification and the log name it, the price table does not know it (no cost is shown), and the server
 * lists it for "Choose Model".
 */
export const DEMO_MODEL = { id: 'scripted-demo-model', displayName: 'Scripted demo model (answers from a fixed script on this machine)' };

export async function startDemoHost(options: { log?: (line: string) => void } = {}): Promise<DemoHost> {
  const model = await startMessagesServer({ scenario: demoTourScenario(), models: [DEMO_MODEL] });
  try {
    const host = await startCodeServer({
      ...(options.log ? { log: options.log } : {}),
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'demo-placeholder-key', PLAN_EXECUTE_DEMO: '1', PLAN_EXECUTE_DEMO_TASK: DEMO_TASK },
      settings: { 'planExecute.approvalMode': 'ask', 'planExecute.provider': 'anthropic', 'planExecute.model': DEMO_MODEL.id },
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
