/**
 * The program an approval names is the program that runs: a bare name is resolved on PATH past every
 * workspace folder (direnv's `PATH_add bin`, a relative entry), on a real disk, as a table.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveProgram } from '../../../src/core/policy/programPath';
import { nodePolicyFs } from '../../../src/node/nodePolicyFs';

describe('the program a command runs', () => {
  let dir: string;
  let ws: string;
  let sys: string;
  const exe = (p: string): void => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, '#!/bin/sh\n', { mode: 0o755 });
  };

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pe-program-')));
    ws = path.join(dir, 'ws');
    sys = path.join(dir, 'sys');
    exe(path.join(ws, 'bin/git'));
    exe(path.join(ws, 'bin/deploy'));
    exe(path.join(ws, 'node_modules/.bin/tsc'));
    exe(path.join(sys, 'git'));
    fs.writeFileSync(path.join(sys, 'notexec'), 'x', { mode: 0o644 });
    fs.symlinkSync(path.join(ws, 'bin'), path.join(dir, 'ws-bin-link'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const roots = (): string[] => [ws];
  const table: { about: string; name: string; PATH: () => string; runs: RegExp | undefined | { refused: RegExp }; passedOver?: RegExp }[] = [
    {
      about: 'git with the workspace bin/ first on PATH: the system git runs, bin/git is named as passed over',
      name: 'git',
      PATH: () => `${ws}/bin:${sys}`,
      runs: /\/sys\/git$/,
      passedOver: /\/ws\/bin\/git$/,
    },
    { about: 'git with the system first: the system git, nothing passed over', name: 'git', PATH: () => `${sys}:${ws}/bin`, runs: /\/sys\/git$/ },
    {
      about: 'git with a relative PATH entry (the working folder): passed over',
      name: 'git',
      PATH: () => `bin:${sys}`,
      runs: /\/sys\/git$/,
      passedOver: /\/ws\/bin\/git$/,
    },
    {
      about: 'git through a link to the workspace bin/ on PATH: passed over by its real path',
      name: 'git',
      PATH: () => `${dir}/ws-bin-link:${sys}`,
      runs: /\/sys\/git$/,
      passedOver: /ws-bin-link\/git$/,
    },
    {
      about: 'deploy only in the workspace bin/: refused, saying how to run it by its path',
      name: 'deploy',
      PATH: () => `${ws}/bin:${sys}`,
      runs: { refused: /found on PATH only inside the workspace \(bin\/deploy\)[^]*\.\/bin\/deploy/ },
    },
    { about: 'tsc only in ./node_modules/.bin: refused', name: 'tsc', PATH: () => `./node_modules/.bin:${sys}`, runs: { refused: /node_modules\/\.bin\/tsc/ } },
    { about: 'a file that is not executable is no program: left as named', name: 'notexec', PATH: () => sys, runs: undefined },
    { about: 'found nowhere: left as named (the command fails as it would)', name: 'nowhere', PATH: () => `${ws}/bin:${sys}`, runs: undefined },
    { about: 'a path (./bin/deploy) runs what it names', name: './bin/deploy', PATH: () => `${ws}/bin`, runs: undefined },
  ];
  for (const c of table) {
    it(c.about, () => {
      const r = resolveProgram(c.name, c.PATH(), ws, roots(), nodePolicyFs);
      if (c.runs !== undefined && !(c.runs instanceof RegExp)) {
        assert.ok(!r.ok, JSON.stringify(r));
        assert.match(r.reason, c.runs.refused);
        return;
      }
      assert.ok(r.ok, JSON.stringify(r));
      if (c.runs === undefined) assert.equal(r.program, undefined);
      else assert.match(r.program ?? '', c.runs);
      if (c.passedOver) assert.match(r.passedOver ?? '', c.passedOver);
      else assert.equal(r.passedOver, undefined);
    });
  }
});
