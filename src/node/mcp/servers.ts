/**
 * The McpServers port for Node front ends (the CLI, and the extension reading the same mcp.json): lists
 * each configured server's tools at mission start and calls them for steps, through the official SDK.
 *  - A stdio server runs inside the OS sandbox (src/node/sandbox/confinedRun.ts) with the spec it is given:
 *    at listing, the workspace read-only and no network; for a step, the step's spec (no writes, network
 *    only with the step's grant). One process per step and server, started on the step's first call and
 *    stopped by `endStep`; a server the sandbox cannot confine is not started (unless the sandbox is off).
 *  - An HTTP server is only talked to: it is `remote`, and cards say it is not confined by us.
 *  - Every fault is an outcome naming the server (connection.ts); nothing here throws or hangs.
 */
import type { McpCallOutcome, McpCatalogue, McpConfinement, McpServerInfo } from '../../core/contracts/mcp';
import type { SandboxMode, SandboxSpec, SandboxSupport } from '../../core/contracts/sandbox';
import type { McpCallRequest, McpServers } from '../../core/ports';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { SECRET_AREAS } from '../../core/policy/outsideView';
import { prepareConfined } from '../sandbox/confinedRun';
import { startOwnNetwork } from '../sandbox/ownNetwork';
import type { ServerConfig } from './config';
import { McpConnection, mcpFault, type Fault } from './connection';
import { ProcessTransport } from './processTransport';
import { isWithin, pathsOverlap } from '../../core/primitives/paths';
import { err, ok, type Result } from '../../core/contracts/result';
import { unattendedConfinementFor } from '../../core/policy/confinement';

export interface NodeMcpOptions {
  /** Absolute, real path of the workspace (a stdio server's default working directory). */
  root: string;
  /** The scrubbed environment commands get; a stdio server gets it plus its configured env. */
  env: Record<string, string>;
  sandbox: SandboxMode;
  support: SandboxSupport;
  /** Deadline to start and list one server's tools at mission start. Default 20 s. */
  listTimeoutMs?: number;
}

type Session = { connection: McpConnection; release: () => void };

export class NodeMcpServers implements McpServers {
  readonly #configs: Map<string, ServerConfig>;
  /** Live connections by `stepId\u0000server`. */
  readonly #sessions = new Map<string, Promise<Session | Fault>>();

  constructor(
    configs: readonly ServerConfig[],
    private readonly options: NodeMcpOptions,
  ) {
    this.#configs = new Map(configs.map((c) => [c.name, c]));
  }

  /** How a server runs here, or why it cannot be started at all: HTTP is remote; stdio as the policy decides (policy/confinement.ts). */
  confinementOf(config: ServerConfig): Result<McpConfinement, string> {
    if (config.transport === 'http') return ok('remote');
    const how = unattendedConfinementFor(this.options.sandbox, this.options.support);
    return how.ok ? how : err(`not started: there is no OS sandbox to confine it (${how.error.missing}). ${how.error.remedy}`.trim());
  }

  /** Lists every server's tools, side by side; `listingSpec` confines stdio servers while they list. */
  async catalogue(listingSpec: SandboxSpec | null, notes: readonly string[], signal: AbortSignal): Promise<McpCatalogue> {
    const servers = await Promise.all([...this.#configs.values()].map((c) => this.#describe(c, listingSpec, signal)));
    return { servers, notes: [...notes] };
  }

  async #describe(config: ServerConfig, spec: SandboxSpec | null, signal: AbortSignal): Promise<McpServerInfo> {
    const base = { name: config.name, transport: config.transport, source: config.source, tools: [] };
    const how = this.confinementOf(config);
    if (!how.ok) return { ...base, confinement: 'sandboxed', status: 'failed', reason: how.error };
    if (config.needs) return { ...base, confinement: how.value, status: 'failed', reason: `needs ${config.needs}` };
    const timeout = this.options.listTimeoutMs ?? 20_000;
    const opened = await this.#open(config, how.value, spec, timeout, signal);
    if ('fault' in opened) return { ...base, confinement: how.value, status: 'failed', reason: `${opened.fault.replace('_', ' ')}: ${opened.message}` };
    try {
      const tools = await opened.connection.listTools(timeout, signal);
      if (!Array.isArray(tools)) return { ...base, confinement: how.value, status: 'failed', reason: `${tools.fault.replace('_', ' ')}: ${tools.message}` };
      return { ...base, confinement: how.value, status: 'ok', tools };
    } finally {
      await opened.connection.close();
      opened.release();
    }
  }

  /** Starts (stdio: in `spec` when sandboxed, never unconfined without a spec) or reaches (HTTP) one server. */
  async #open(config: ServerConfig, confinement: McpConfinement, spec: SandboxSpec | null, timeoutMs: number, signal: AbortSignal): Promise<Session | Fault> {
    if (config.transport === 'http') {
      let url: URL;
      try {
        url = new URL(config.url);
      } catch {
        // TypeError: not a URL.
        return mcpFault('start_failed', `its URL "${config.url}" is not a URL`);
      }
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers } });
      const connection = await McpConnection.open(transport, timeoutMs, signal);
      return connection instanceof McpConnection ? { connection, release: () => undefined } : connection;
    }
    const cwd = config.cwd ?? this.options.root;
    const env = { ...this.options.env, ...config.env };
    const argv = [config.command, ...config.args];
    let transport: ProcessTransport;
    let release = (): void => undefined;
    if (confinement === 'sandboxed') {
      if (!spec) return mcpFault('refused', 'not started: its sandbox could not be prepared');
      const shown = programFolders(argv, this.options.root);
      const confined = prepareConfined(
        { ...spec, env: { ...spec.env, ...config.env }, visibleOutside: [...spec.visibleOutside, ...shown] },
        this.options.support,
        argv,
        cwd,
      );
      if (!confined.ok) return mcpFault('refused', `its sandbox could not be prepared: ${confined.error}`);
      const prepared = confined.value;
      const own = prepared.ownNetwork;
      let stopNetwork = (): void => undefined;
      transport = new ProcessTransport(
        {
          file: prepared.file,
          args: prepared.args,
          env: prepared.env,
          cwd,
          ...(prepared.fd3 ? { fd3: prepared.fd3 } : {}),
          ...(prepared.seccomp ? { seccomp: prepared.seccomp } : {}),
          ...(own ? { ownNetworkFds: true } : {}),
        },
        own ? (child) => void startOwnNetwork(child, own.slirp4netns).then((net) => (net.ok ? (stopNetwork = net.value.stop) : undefined)) : undefined,
      );
      release = () => {
        stopNetwork();
        prepared.cleanup();
      };
    } else {
      transport = new ProcessTransport({ file: config.command, args: config.args, env, cwd });
    }
    const connection = await McpConnection.open(transport, timeoutMs, signal);
    if (!(connection instanceof McpConnection)) {
      await transport.close();
      release();
      return connection;
    }
    return { connection, release };
  }

  async call(request: McpCallRequest, signal: AbortSignal): Promise<McpCallOutcome> {
    const config = this.#configs.get(request.server);
    if (!config) return mcpFault('not_configured', `there is no server "${request.server}" in this configuration`);
    const how = this.confinementOf(config);
    if (!how.ok) return mcpFault('refused', how.error);
    const key = `${request.stepId}\u0000${request.server}`;
    let session = this.#sessions.get(key);
    if (!session) {
      session = this.#open(config, how.value, request.sandbox, Math.min(request.timeoutMs, 30_000), signal);
      this.#sessions.set(key, session);
    }
    const opened = await session;
    if ('fault' in opened) {
      this.#sessions.delete(key);
      return opened;
    }
    const outcome = await opened.connection.callTool(request.tool, request.arguments, request.timeoutMs, request.maxResultChars, signal);
    // A server that went away, or answered garbage, is not reused: the next call starts a fresh one.
    if (!outcome.ok && outcome.fault !== 'auth') await this.#drop(key);
    return outcome;
  }

  async #drop(key: string): Promise<void> {
    const session = this.#sessions.get(key);
    this.#sessions.delete(key);
    const opened = await session;
    if (opened && !('fault' in opened)) {
      await opened.connection.close();
      opened.release();
    }
  }

  async endStep(stepId: string): Promise<void> {
    const keys = [...this.#sessions.keys()].filter((k) => k.startsWith(`${stepId}\u0000`));
    await Promise.all(keys.map((k) => this.#drop(k)));
  }

  /** Stops everything (the mission is over). */
  async close(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((k) => this.#drop(k)));
  }
}

/**
 * The folders of the server's own program the user's configuration names by absolute path outside the
 * workspace (`node /opt/tools/notes/dist/server.js`): each file's package folder (the nearest one up with a
 * manifest, else its own folder), shown read-only in the server's sandbox — never the home itself, the root,
 * or where credentials live.
 */
function programFolders(argv: readonly string[], root: string): string[] {
  const home = os.homedir();
  const out = new Set<string>();
  for (const arg of argv) {
    if (!nodePath.isAbsolute(arg) || isWithin(arg, root)) continue;
    let real: string;
    try {
      real = fs.realpathSync.native(arg);
      if (!fs.statSync(real).isFile()) continue;
    } catch {
      continue; // Fail closed: not a file on this machine (missing or unreadable) — nothing is made readable for it.
    }
    const own = nodePath.dirname(real);
    let pkg: string | undefined;
    for (let up = own, i = 0; i < 4 && up !== nodePath.dirname(up); up = nodePath.dirname(up), i++) {
      if (['package.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'go.mod'].some((m) => fs.existsSync(nodePath.join(up, m)))) {
        pkg = up;
        break;
      }
    }
    const fits = (dir: string): boolean =>
      dir !== '/' && dir !== home && !isWithin(root, dir) && !SECRET_AREAS.some((a) => pathsOverlap(dir, nodePath.join(home, a)));
    const dir = [pkg, own].find((d): d is string => d !== undefined && fits(d));
    // Also where it is visible anyway, or under /tmp (the sandbox's /tmp is a private one).
    if (dir !== undefined) out.add(dir);
  }
  return [...out];
}
