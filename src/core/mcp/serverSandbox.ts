/**
 * The OS sandbox a stdio MCP server runs in: the step's own confinement, minus every write — the spec of
 * a step with no edit globs (nothing in the workspace writable, secrets and the home hidden), with the
 * network only when the step is granted it. The same spec, without network, confines the short-lived
 * servers the front end starts at mission start only to list their tools.
 */
import type { HostFacts } from '../contracts/sandbox';
import type { Workspace } from '../ports';
import { policyFor } from '../policy/policy';
import { sandboxSpec, scanPrune, type SandboxSpecResult } from '../policy/sandboxSpec';
import { err, ok } from '../contracts/result';

const SCAN_LIMIT = 200_000;

export async function serverSandboxSpec(
  workspace: Workspace,
  env: Record<string, string>,
  network: boolean,
  host: HostFacts,
  allowSensitive: readonly string[] = [],
): Promise<SandboxSpecResult> {
  const policy = policyFor(
    workspace.root,
    { id: 'mcp', authority: { read: ['**'], edit: [], commands: [], network, mcp: [] } },
    { fs: workspace.policyFs, allowSensitive: [...allowSensitive] },
  );
  const scanned = await workspace.scan({ prune: scanPrune(policy, []), limit: SCAN_LIMIT, detail: () => false });
  if (scanned.truncated)
    return err(`the workspace has more than ${SCAN_LIMIT} entries outside ignored and dependency folders; add large folders to .planexecuteignore`);
  const built = sandboxSpec({ policy, entries: scanned.entries, env, host });
  return built.ok ? ok({ ...built.value, writable: [] }) : built;
}
