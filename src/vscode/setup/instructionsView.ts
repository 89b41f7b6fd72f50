/** Instruction files as the surfaces list them (pure: no vscode), for the next mission or a recorded one. */
import type { InstructionSet } from '../../core/contracts/instructions';
import { describeScope } from '../../core/instructions/applies';
import type { InstructionsView } from '../../webview/protocol';

/** A recorded or found set, as the surfaces list it. */
export function instructionsView(set: InstructionSet, source: InstructionsView['source']): InstructionsView {
  return {
    source,
    files: set.files.map((f) => ({
      path: f.path,
      size: f.size,
      scope: describeScope(f.scope),
      state: f.excluded ? 'excluded' : f.unusable || f.text === '' ? 'unusable' : 'used',
      notes: f.notes,
      hash: source === 'mission' ? f.hash : '',
    })),
    notes: set.notes,
  };
}
