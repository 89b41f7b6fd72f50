/** A plan document's problems in the Problems panel, each at its line (one collection for every document). */
import * as vscode from 'vscode';
import type { PlanDocumentError } from '../../core/plan/document/meta';

export function showPlanProblems(collection: vscode.DiagnosticCollection, uri: vscode.Uri, errors: readonly PlanDocumentError[]): void {
  collection.set(
    uri,
    errors.map((e) => {
      const line = Math.max(0, e.line - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), e.message, vscode.DiagnosticSeverity.Error);
      d.source = 'Plan & Execute';
      if (e.path) d.code = e.path;
      return d;
    }),
  );
}
