/**
 * What the key-less demo (`npm start -- --demo`) can do, said the same way by every part of it: its scripted
 * model has a plan for one task only. The scripted server is the authority — it compares the task the
 * planner was sent with its one task and refuses any other (every client: this window, the CLI); this
 * window checks first, so an off-script task gets a notice where it was typed instead of a failed mission.
 * Pure (no vscode): the scripted server (test/support/messages-server/scenarios/demoTour.ts) imports it.
 */

/** The demo's one task, when a scripted demo model answers (PLAN_EXECUTE_DEMO_TASK); null otherwise. */
export function demoTask(env: Record<string, string | undefined> = process.env): string | null {
  return env.PLAN_EXECUTE_DEMO === '1' && env.PLAN_EXECUTE_DEMO_TASK ? env.PLAN_EXECUTE_DEMO_TASK : null;
}

/** The same task in other spacing, case or final full stop — nothing else: any other wording is another task. */
export function sameTask(a: string, b: string): boolean {
  const norm = (text: string): string =>
    text
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/[.!]+$/, '')
      .toLowerCase();
  return norm(a) === norm(b);
}

/** How to get past the script in VS Code: a real model. */
const REAL_MODEL_IN_VS_CODE =
  'To plan a task of your own, use a real model: stop the demo (Ctrl-C where npm start runs) and run `npm start`, then ' +
  'Plan & Execute: Set API Key — or a local model (docs/providers.md).';

/** Said when a task is not the demo's: what the demo can plan, and how to plan anything else. */
export function offScriptMessage(task: string, demo: string, realModel: string = REAL_MODEL_IN_VS_CODE): string {
  const shown = task.length > 120 ? `${task.slice(0, 117)}…` : task;
  return (
    `Not planned: this demo's scripted model plays a fixed script with a plan for one task only — "${demo}" — ` +
    `and "${shown}" is not that task. ${realModel}`
  );
}
