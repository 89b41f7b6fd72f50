/**
 * The user's setup for one mission, gathered by a Node front end before the mission starts: the project's
 * instruction files (unless turned off) and the MCP servers of `.vscode/mcp.json`, `.mcp.json` and any
 * extra configuration (the CLI's --mcp-config, VS Code's user settings), with the catalogue of their tools.
 * A replay does not come here: it takes both from the trace.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { InstructionSet } from '../../core/contracts/instructions';
import type { McpCatalogue } from '../../core/contracts/mcp';
import type { SandboxMode, SandboxSupport } from '../../core/contracts/sandbox';
import type { Workspace } from '../../core/ports';
import { discoverInstructions } from '../../core/instructions/discover';
import { serverSandboxSpec } from '../../core/mcp/serverSandbox';
import { unattendedConfinementFor } from '../../core/policy/confinement';
import { hostFacts } from '../sandbox/hostFacts';
import { mergeConfigs, serversIn, type ConfigSource, type ReadConfig, type Variables } from './config';
import { NodeMcpServers } from './servers';
import { err, ok, type Result } from '../../core/contracts/result';
import { errorText } from '../../core/primitives/errorText';
import { isMissing } from '../fsErrors';

/** The workspace's own configuration files, in the order they are read (a later one wins a name). */
const WORKSPACE_MCP_FILES = ['.vscode/mcp.json', '.mcp.json'];

export interface SetupRequest {
  workspace: Workspace;
  /** The scrubbed environment (commands, servers, repository configs' `${env:…}`). */
  env: Record<string, string>;
  /** The whole environment (only the user's own configuration may read it). */
  fullEnv: Record<string, string | undefined>;
  sandbox: SandboxMode;
  support: SandboxSupport;
  /** False: no instruction file is read (--no-instructions). */
  instructions: boolean;
  /** Instruction files the user left out of this mission. */
  excludeInstructions?: readonly string[];
  /** Configuration files the user named (--mcp-config), absolute or relative to the current directory. */
  mcpConfigFiles?: readonly string[];
  /** Configuration the front end already holds (VS Code's user settings), read after the files. */
  extraConfigs?: readonly { text: string; source: ConfigSource }[];
  /** False: no MCP server at all (the workspace is not trusted). */
  mcp?: boolean;
  signal: AbortSignal;
}

export interface UserSetupReady {
  instructions?: InstructionSet;
  mcp?: { servers: NodeMcpServers; catalogue: McpCatalogue };
  /** Stops every server still running. */
  close(): Promise<void>;
}

/** A configuration file's text; undefined when it is not there; why, when it is there and cannot be read. */
function readText(path: string): Result<string | undefined, string> {
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (error) {
    return isMissing(error) ? ok(undefined) : err(errorText(error));
  }
}

/** Every configuration source, read and merged; unreadable named files are notes. */
function readMcpConfigs(request: Pick<SetupRequest, 'workspace' | 'env' | 'fullEnv' | 'mcpConfigFiles' | 'extraConfigs'>): ReadConfig {
  const root = request.workspace.root;
  const vars: Variables = { workspaceFolder: root, userHome: homedir(), env: request.fullEnv, scrubbedEnv: request.env };
  const configs: ReadConfig[] = [];
  for (const rel of WORKSPACE_MCP_FILES) {
    const text = readText(join(root, rel));
    if (!text.ok) configs.push({ servers: [], notes: [`${rel} cannot be read: ${text.error}`] });
    else if (text.value !== undefined) configs.push(serversIn(text.value, { label: rel, trusted: false }, vars));
  }
  for (const file of request.mcpConfigFiles ?? []) {
    const text = readText(resolve(file));
    configs.push(
      text.ok && text.value !== undefined
        ? serversIn(text.value, { label: file, trusted: true }, vars)
        : { servers: [], notes: [`--mcp-config ${file} cannot be read${text.ok ? ': it is not there' : `: ${text.error}`}`] },
    );
  }
  for (const extra of request.extraConfigs ?? []) configs.push(serversIn(extra.text, extra.source, vars));
  return mergeConfigs(configs);
}

export async function prepareUserSetup(request: SetupRequest): Promise<UserSetupReady> {
  const instructions = request.instructions ? await discoverInstructions(request.workspace, { exclude: request.excludeInstructions ?? [] }) : undefined;
  const configs = request.mcp === false ? { servers: [], notes: [] } : readMcpConfigs(request);
  if (configs.servers.length === 0 && configs.notes.length === 0) {
    return { ...(instructions ? { instructions } : {}), close: async () => undefined };
  }
  const servers = new NodeMcpServers(configs.servers, { root: request.workspace.root, env: request.env, sandbox: request.sandbox, support: request.support });
  const stdio = unattendedConfinementFor(request.sandbox, request.support);
  const needsSpec = configs.servers.some((c) => c.transport === 'stdio') && stdio.ok && stdio.value === 'sandboxed';
  const spec = needsSpec ? await serverSandboxSpec(request.workspace, request.env, false, hostFacts(request.env)) : undefined;
  const notes = [...configs.notes, ...(spec && !spec.ok ? [`stdio servers could not be confined: ${spec.error}`] : [])];
  const catalogue = await servers.catalogue(spec?.ok ? spec.value : null, notes, request.signal);
  return { ...(instructions ? { instructions } : {}), mcp: { servers, catalogue }, close: () => servers.close() };
}
