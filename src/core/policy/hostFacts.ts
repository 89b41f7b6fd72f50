/**
 * The few facts about the machine the sandbox spec needs (the user's home, where toolchains live). Read
 * here, once per command, so `sandboxSpec` itself stays a pure function that tests feed by hand.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { HostFacts } from './sandboxSpec';

export function hostFacts(env: Record<string, string>): HostFacts {
  let home: string | undefined;
  try {
    home = fs.realpathSync(os.homedir());
  } catch {
    home = undefined;
  }
  return {
    platform: process.platform,
    home,
    pathEntries: (env.PATH ?? env.Path ?? '').split(nodePath.delimiter).filter((e) => nodePath.isAbsolute(e)),
    ...(env.XDG_RUNTIME_DIR && nodePath.isAbsolute(env.XDG_RUNTIME_DIR) ? { runtimeDir: env.XDG_RUNTIME_DIR } : {}),
    readText: (abs) => {
      try {
        return fs.readFileSync(abs, 'utf8').slice(0, 4096);
      } catch {
        return undefined;
      }
    },
    listDir: (abs) => {
      try {
        return fs.readdirSync(abs);
      } catch {
        return [];
      }
    },
  };
}
