/** The Terminal port for the headless CLI: runs argv without a shell, inside the OS sandbox (see processRunner.ts). */
import type { CommandRun } from '../core/contracts/results';
import type { SandboxSupport } from '../core/contracts/sandbox';
import { detectSandbox } from './sandbox/detect';
import type { CommandRequest, Terminal } from '../core/ports';
import { runProcess } from './processRunner';

export class NodeTerminal implements Terminal {
  constructor(private readonly onOutput?: (chunk: Buffer, request: CommandRequest) => void) {}

  run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    return runProcess(request, signal, this.onOutput ? (chunk) => this.onOutput?.(chunk, request) : undefined);
  }

  confinement(): Promise<SandboxSupport> {
    return Promise.resolve(detectSandbox());
  }
}
