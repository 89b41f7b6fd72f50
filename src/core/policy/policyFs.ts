/**
 * The synchronous file-system facts the policy needs, behind a small facade so tests can inject failures.
 * `checkAction` is synchronous on purpose: a decision must not interleave with other awaits that could
 * change the file system between the check and the caller acting on it.
 */
import * as fs from 'node:fs';

export interface PolicyFs {
  /** Throws when the path (or a link on it) does not resolve. */
  realpathSync(path: string): string;
  /** undefined when nothing is there; does not follow a final symlink. */
  lstatSync(path: string): { isSymbolicLink(): boolean; isDirectory(): boolean } | undefined;
  /** undefined when the file does not exist or cannot be read; with `maxBytes`, at most that many bytes from its start. */
  readTextSync(path: string, maxBytes?: number): string | undefined;
}

export const nodePolicyFs: PolicyFs = {
  realpathSync: (p) => fs.realpathSync.native(p),
  lstatSync: (p) => {
    try {
      return fs.lstatSync(p);
    } catch {
      return undefined;
    }
  },
  readTextSync: (p, maxBytes) => {
    try {
      if (maxBytes === undefined) return fs.readFileSync(p, 'utf8');
      const fd = fs.openSync(p, 'r');
      try {
        const buf = Buffer.alloc(maxBytes);
        return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, maxBytes, 0));
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return undefined;
    }
  },
};
