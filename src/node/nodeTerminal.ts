/** The Terminal port for the headless CLI: runs argv without a shell (see processRunner.ts). */
import type { CommandRun } from '../core/contracts/results';
import type { CommandRequest, Terminal } from '../core/ports';
import { runProcess } from './processRunner';

export class NodeTerminal implements Terminal {
  constructor(private readonly onOutput?: (chunk: Buffer, request: CommandRequest) => void) {}

  run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    return runProcess(request, signal, this.onOutput ? (chunk) => this.onOutput?.(chunk, request) : undefined);
  }
}
