/**
 * Starts code-server on a free loopback port with throw-away user data, extensions and config, and stops
 * it (its whole process group: server, extension hosts, terminals) when asked or when the run ends.
 * Port 0 lets the kernel pick the port; code-server prints the one it got, so two runs never collide.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCodeServer } from './installCodeServer';
import { removeOnExit, spawnGroup } from './processGroups';
import type { Log } from './systemPackages';

/** User settings for a quiet, deterministic workbench. Workspace trust is off unless a test turns it on. */
const DEFAULT_HOST_SETTINGS: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
  'git.enabled': false,
};

export interface CodeServerOptions {
  log?: Log;
  /** Extra environment for the server (and so for the extension host it starts). */
  env?: Record<string, string>;
  /** User settings, merged over DEFAULT_HOST_SETTINGS. */
  settings?: Record<string, unknown>;
  /** How long to wait for "HTTP server listening" (the first start after an install is the slowest). */
  startTimeoutMs?: number;
  /** Extension folders (unpacked, with a package.json) installed into the throw-away extensions dir. */
  extensions?: string[];
}

export interface CodeServer {
  /** e.g. http://127.0.0.1:43123/ */
  readonly url: string;
  /** e.g. 127.0.0.1:43123 (the remote authority in vscode-remote:// URIs) */
  readonly authority: string;
  readonly userDataDir: string;
  /** Everything code-server printed. */
  readonly logFile: string;
  /** Ends the server's process group and removes its temporary directories. Idempotent. */
  stop(): Promise<void>;
}

const LISTENING = /HTTP server listening on (http:\/\/127\.0\.0\.1:(\d+)\/?)/;

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[host] ${line}\n`));
  const entry = await ensureCodeServer({ log });
  const tmp = mkdtempSync(join(tmpdir(), 'plan-execute-host-'));
  const forgetTmp = removeOnExit(tmp);
  const userDataDir = join(tmp, 'user-data');
  const extensionsDir = join(tmp, 'extensions');
  const configDir = join(tmp, 'config');
  for (const dir of [join(userDataDir, 'User'), extensionsDir, configDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_HOST_SETTINGS, ...options.settings }, null, 2));
  writeFileSync(join(configDir, 'config.yaml'), 'auth: none\ncert: false\n');
  installExtensions(extensionsDir, options.extensions ?? []);
  const logFile = join(tmp, 'code-server.log');
  const logStream = createWriteStream(logFile);

  const server = spawnGroup(
    process.execPath,
    [
      entry,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--config',
      join(configDir, 'config.yaml'),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // Keep code-server's own state (logs, default config) out of the user's home.
        XDG_DATA_HOME: join(tmp, 'data'),
        XDG_CONFIG_HOME: configDir,
        ...options.env,
      },
    },
  );
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await server.stop();
    logStream.end();
    if (!process.env.PLAN_EXECUTE_KEEP_HOST_DIRS) rmSync(tmp, { recursive: true, force: true });
    forgetTmp();
  };

  try {
    const startTimeoutMs = options.startTimeoutMs ?? 90_000;
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`code-server did not start within ${startTimeoutMs} ms:\n${seen}`)), startTimeoutMs);
      const onData = (chunk: Buffer): void => {
        logStream.write(chunk);
        seen = (seen + chunk.toString('utf8')).slice(-8192);
        const match = LISTENING.exec(seen);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1].endsWith('/') ? match[1] : `${match[1]}/`);
        }
      };
      server.child.stdout?.on('data', onData);
      server.child.stderr?.on('data', onData);
      void server.exited.then((status) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${status}) before listening:\n${seen}`));
      });
    });
    const authority = new URL(url).host;
    log(`code-server ${url} (log: ${logFile})`);
    return { url, authority, userDataDir, logFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Installs unpacked extensions the way VS Code keeps installed ones: each folder copied to
 * `<publisher>.<name>-<version>` in the extensions dir, and listed in its `extensions.json` (VS Code scans
 * that list, not the folder). Used for test fixtures such as a second extension that provides models.
 */
function installExtensions(extensionsDir: string, folders: string[]): void {
  if (folders.length === 0) return;
  const entries = folders.map((folder) => {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    const relativeLocation = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
    const location = join(extensionsDir, relativeLocation);
    cpSync(folder, location, { recursive: true });
    return {
      identifier: { id: `${manifest.publisher}.${manifest.name}` },
      version: manifest.version,
      location: { $mid: 1, path: location, scheme: 'file' },
      relativeLocation,
      metadata: { installedTimestamp: Date.now(), source: 'vsix' },
    };
  });
  writeFileSync(join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}
