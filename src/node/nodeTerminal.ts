/** The Terminal port for the headless CLI: runs argv without a shell, inside the OS sandbox (see processRunner.ts). */
import type { CommandRun } from '../core/contracts/results';
import type { SandboxSupport } from '../core/contracts/sandbox';
import { detectSandbox } from './sandbox/detect';
import type { CommandRequest, StagingLayers, Terminal } from '../core/ports';
import { runProcess } from './processRunner';
import { NodeStagingLayers } from './sandbox/nodeStaging';
import { hostFacts } from './sandbox/hostFacts';
import type { HostFacts } from '../core/policy/sandboxSpec';

export class NodeTerminal implements Terminal {
  readonly staging: StagingLayers = new NodeStagingLayers();

  hostFacts(env: Record<string, string>): HostFacts {
    return hostFacts(env);
  }

  constructor(private readonly onOutput?: (chunk: Buffer, request: CommandRequest) => void) {}

  run(request: CommandRequest, signal: AbortSignal): Promise<CommandRun> {
    return runProcess(request, signal, this.onOutput ? (chunk) => this.onOutput?.(chunk, request) : undefined);
  }

  confinement(): Promise<SandboxSupport> {
    return Promise.resolve(detectSandbox());
  }
}
