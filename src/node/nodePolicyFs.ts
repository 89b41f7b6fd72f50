/**
 * The policy's port to the disk (`PolicyFs` in core/ports.ts) on Node's synchronous fs. Both front ends
 * pass it: NodeWorkspace and VscodeWorkspace expose it as `policyFs`, so core never imports `node:fs`.
 */
import * as fs from 'node:fs';
import type { PolicyFs } from '../core/ports';
import { whenMissing } from './fsErrors';

export const nodePolicyFs: PolicyFs = {
  realpathSync: (p) => fs.realpathSync.native(p),
  lstatSync: (p) => {
    try {
      // Nothing there is the common answer (a path a command made): given without an exception.
      return fs.lstatSync(p, { throwIfNoEntry: false });
    } catch (error) {
      // Nothing there; any other fault is thrown on (a link check must not read "unreadable" as "absent").
      return whenMissing(error, undefined);
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
      return undefined; // missing or unreadable: the port's contract reads both as no text
    }
  },
  readlinkSync: (p) => {
    try {
      return fs.readlinkSync(p);
    } catch {
      return undefined; // not a link, or gone: the caller reads it as no link
    }
  },
  executableSync: (p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false; // missing, not executable, or unreadable: not a program to run
    }
  },
};
