/**
 * This window's Workspace and Terminal adapters: writes go through one WorkspaceEdit per batch (saved,
 * undoable), commands run in a visible VS Code terminal the user can stop. One terminal adapter per
 * window, so finished command terminals are recycled across missions.
 */
import type { Terminal, Workspace } from '../../core/ports';
import { VscodeTerminal } from '../adapters/vscodeTerminal';
import { VscodeWorkspace } from '../adapters/vscodeWorkspace';

let terminal: VscodeTerminal | undefined;

export async function windowAdapters(root: string): Promise<{ workspace: Workspace; terminal: Terminal }> {
  terminal ??= new VscodeTerminal({ name: 'Plan & Execute' });
  return { workspace: await VscodeWorkspace.open(root), terminal };
}
