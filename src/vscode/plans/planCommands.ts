/**
 * The plan document in VS Code (docs/plans.md): Open Plan as Document (the current version in an editor
 * beside the board, where saving makes the next version — ./planDocumentFs.ts), Save Plan… (the document
 * written where the user chooses, the workspace included, to commit it) and Run Saved Plan… (a document
 * read, validated and opened as a mission waiting for approval; the planner is not asked). One writer and
 * one parser for all of them: src/core/plan/document/.
 */
import * as vscode from 'vscode';
import { err, ok } from '../../core/contracts/result';
import { hashMatches } from '../../core/plan/document/meta';
import { readPlanDocument } from '../../core/plan/document/read';
import { writePlanDocument } from '../../core/plan/document/write';
import { errorText } from '../../core/primitives/errorText';
import { workspaceCommit } from '../../node/baseCommit';
import type { MissionController } from '../mission/missionController';
import type { SurfaceModel } from '../surfaces/surfaceModel';
import type { Log } from '../log';
import { showPlanProblems } from './planDiagnostics';
import type { PlanDocumentSource } from './planDocumentFs';
import { planDocumentUri } from './planScheme';

export interface PlanDocumentDeps {
  controller: MissionController;
  model: SurfaceModel;
  /** planExecute.limits.maxPlanSteps: a document is held to the cap the mission is. */
  maxPlanSteps(): number;
  /** The Problems panel's entries for plan documents. */
  problems: vscode.DiagnosticCollection;
  /** Opens (or reveals) the mission board. */
  showBoard(): Promise<void>;
  log: Log;
}

const MARKDOWN = { Markdown: ['md'] };

/** The shown mission's plan version and its document, as the writer renders it (the base commit read once per mission). */
function documentOf(d: PlanDocumentDeps, commits: Map<string, string | undefined>): { missionId: string; version: number; text: string } | undefined {
  const core = d.model.coreView;
  const plan = core?.plan;
  if (!core?.missionId || !plan) return undefined;
  if (!commits.has(core.missionId)) {
    const root = d.controller.workspaceRoot();
    commits.set(core.missionId, root ? workspaceCommit(root) : undefined);
  }
  const baseCommit = commits.get(core.missionId);
  const estimate = core.estimate?.version === plan.version ? core.estimate.estimate : undefined;
  const text = writePlanDocument(plan, { task: core.task, ...(baseCommit ? { baseCommit } : {}), ...(estimate ? { estimate } : {}) });
  return { missionId: core.missionId, version: plan.version, text };
}

/**
 * What the editor's plan documents read and save (see ./planDocumentFs.ts). A saved document must say the
 * version it was made from is the current one: one made from an older version would undo what came since
 * (a replan, an edit on the board).
 */
export function planDocumentSource(d: PlanDocumentDeps): PlanDocumentSource & { document(): ReturnType<typeof documentOf> } {
  const commits = new Map<string, string | undefined>();
  return {
    document: () => documentOf(d, commits),
    shown: () => {
      const core = d.model.coreView;
      return core?.missionId && core.plan ? { missionId: core.missionId, version: core.plan.version } : undefined;
    },
    render: (missionId) => {
      const doc = documentOf(d, commits);
      return doc?.missionId === missionId ? doc.text : undefined;
    },
    save: async (missionId, text) => {
      const read = readPlanDocument(text, { maxSteps: d.maxPlanSteps(), maxStepsName: 'planExecute.limits.maxPlanSteps' });
      if (!read.ok) return read;
      const current = d.model.coreView;
      if (current?.missionId !== missionId || !current.plan)
        return err([{ line: 1, message: `mission ${missionId} is no longer the one shown; its plan cannot change` }]);
      if (read.value.meta.version !== current.plan.version) {
        const message = `this document was made from plan v${read.value.meta.version}, and the plan is now v${current.plan.version}: saving it would undo what changed since. Run "Open Plan as Document" again to start from v${current.plan.version}`;
        return err([{ line: 1, message }]);
      }
      const out = await d.controller.replacePlan(read.value.plan);
      // Saving an unchanged document is not an edit: nothing to version.
      if (!out.ok && out.error.reason !== 'no_change') return err([{ line: 1, message: out.error.message }]);
      d.log.info(`plan document of mission ${missionId} saved${out.ok ? ` as plan v${d.model.coreView?.plan?.version}` : ' unchanged'}`);
      return ok();
    },
  };
}

export interface PlanDocumentCommands {
  open(): Promise<void>;
  save(target?: unknown): Promise<void>;
  runSaved(target?: unknown): Promise<void>;
}

export function planDocumentCommands(
  d: PlanDocumentDeps,
  documents: { document(): { missionId: string; version: number; text: string } | undefined; reopen(missionId: string): void },
): PlanDocumentCommands {
  const root = (): vscode.Uri | undefined => vscode.workspace.workspaceFolders?.[0]?.uri;
  return {
    async open() {
      const doc = documents.document();
      if (!doc) {
        void vscode.window.showWarningMessage('There is no plan to open yet: describe a task and let it be planned first.');
        return;
      }
      documents.reopen(doc.missionId);
      const editor = await vscode.workspace.openTextDocument(planDocumentUri(doc.missionId));
      await vscode.window.showTextDocument(editor, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    },
    async save(target) {
      const doc = documents.document();
      if (!doc) {
        void vscode.window.showWarningMessage('There is no plan to save yet.');
        return;
      }
      const folder = root();
      const uri =
        target instanceof vscode.Uri
          ? target
          : await vscode.window.showSaveDialog({
              title: 'Save Plan',
              filters: MARKDOWN,
              ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `plan-${doc.missionId}.md`) } : {}),
            });
      if (!uri) return;
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(doc.text));
      void vscode.window.showInformationMessage(
        `Saved plan v${doc.version} to ${vscode.workspace.asRelativePath(uri)}. Run it later with "Run Saved Plan…" or: plan-execute run --plan ${uri.fsPath}`,
      );
    },
    async runSaved(target) {
      const folder = root();
      const uri =
        target instanceof vscode.Uri
          ? target
          : (
              await vscode.window.showOpenDialog({
                title: 'Run Saved Plan',
                filters: MARKDOWN,
                canSelectMany: false,
                ...(folder ? { defaultUri: folder } : {}),
              })
            )?.[0];
      if (!uri) return;
      await runDocument(d, uri);
    },
  };
}

/** Reads a saved document; its problems go to Problems (nothing runs), else it opens as a mission waiting for approval. */
async function runDocument(d: PlanDocumentDeps, uri: vscode.Uri): Promise<void> {
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    void vscode.window.showWarningMessage(`Could not read ${uri.fsPath}: ${errorText(error)}`);
    return;
  }
  const read = readPlanDocument(text, { maxSteps: d.maxPlanSteps(), maxStepsName: 'planExecute.limits.maxPlanSteps' });
  if (!read.ok) {
    showPlanProblems(d.problems, uri, read.error);
    await vscode.window.showTextDocument(uri, { preview: false });
    const n = read.error.length;
    void vscode.window.showWarningMessage(`The plan document has ${n} problem${n === 1 ? '' : 's'} (see Problems); nothing runs.`);
    return;
  }
  d.problems.delete(uri);
  const { plan, meta } = read.value;
  const rootPath = d.controller.workspaceRoot();
  const current = rootPath ? workspaceCommit(rootPath) : undefined;
  if (meta.baseCommit !== undefined && meta.baseCommit !== current) {
    const where = current === undefined ? 'this workspace has no git commit' : `this workspace is at ${current.slice(0, 12)}`;
    const anyway = 'Open It Anyway';
    const pick = await vscode.window.showWarningMessage(
      `This plan was made on commit ${meta.baseCommit.slice(0, 12)}, and ${where}: its steps may not fit the code as it is now.`,
      { modal: true },
      anyway,
    );
    if (pick !== anyway) return;
  }
  const edited = meta.hash !== '' && !hashMatches(plan, meta);
  const reason = `from the plan document ${vscode.workspace.asRelativePath(uri)}${edited ? ', edited' : ''} (v${plan.version}: ${plan.reason})`;
  const started = await d.controller.start(meta.task, { ...plan, reason });
  if (!started.ok) {
    void vscode.window.showWarningMessage(started.error.message);
    return;
  }
  await d.showBoard();
}
