/**
 * The demo's moving parts, shared by `npm start -- --demo`, `npm run demo-server` and the E2E test: the
 * guided scenario served by the project's scriptable Messages-API server on loopback (answering as the
 * scripted demo model, and putting the workspace's demo files back when the tour is planned again), and a
 * code-server whose extension host is pointed at it (ANTHROPIC_BASE_URL: a server on this machine needs
 * no key) and told that a scripted demo model answers (PLAN_EXECUTE_DEMO, with its one task in
 * PLAN_EXECUTE_DEMO_TASK). code-server, not desktop VS Code: a desktop window joins the running instance
 * and would not see this env.
 */
import { startCodeServer, type CodeServer } from './codeServer';
import { resetDemoFiles } from './demoWorkspace';
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

/** The scripted demo model on loopback; `workspace`: the demo copy it puts back when the tour is planned again. */
export function startDemoModel(options: { workspace?: string; port?: number } = {}): Promise<MessagesServer> {
  const { workspace } = options;
  return startMessagesServer({
    scenario: demoTourScenario(workspace ? { reset: () => resetDemoFiles(workspace) } : {}),
    models: [DEMO_MODEL],
    answersAs: DEMO_MODEL.id,
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
}

export async function startDemoHost(options: { log?: (line: string) => void; workspace?: string } = {}): Promise<DemoHost> {
  const model = await startDemoModel(options.workspace ? { workspace: options.workspace } : {});
  try {
    const host = await startCodeServer({
      ...(options.log ? { log: options.log } : {}),
      // No key (a key of yours in the environment is not passed on): the scripted model on loopback needs none.
      env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: '', PLAN_EXECUTE_DEMO: '1', PLAN_EXECUTE_DEMO_TASK: DEMO_TASK },
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
