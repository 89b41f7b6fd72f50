/**
 * Modal yes/no questions (revert a step, re-run interrupted steps). One place, so the integration tests
 * can answer them through the API's test hook instead of a dialog nobody can click.
 */
import * as vscode from 'vscode';

export class Confirmations {
  /** When set, every question is answered with this instead of showing a dialog. */
  answer: boolean | undefined;
  /** The last question asked. */
  last: string | undefined;

  async ask(message: string, action: string): Promise<boolean> {
    this.last = message;
    if (this.answer !== undefined) return this.answer;
    return (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action;
  }
}
