/** The palette commands this extension contributes (package.json `contributes.commands` lists the same ids). */
export const COMMAND_IDS = [
  'planExecute.run',
  'planExecute.setApiKey',
  'planExecute.chooseModel',
  'planExecute.cancel',
  'planExecute.exportTrace',
  'planExecute.resume',
  'planExecute.openBoard',
  'planExecute.focusQueue',
  'planExecute.openPlanDocument',
  'planExecute.savePlan',
  'planExecute.runSavedPlan',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
