import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every arrow in src/core points down (docs/architecture.md, "Which way imports run"): the typed contracts
 * and the primitives (path containment, hashing, error text) sit on the ground floor and import nothing of
 * ours above the contracts, so any module may import them; ports.ts sees only the contracts; the policy, edit and
 * plan layers never reach into the tools, roles or the mission engine; and the engine's helpers know a narrow
 * MissionContext, not the MissionRun class, so there is no import circle through engine.ts.
 */
const coreDir = join(__dirname, '..', '..', '..', 'src', 'core');

function importsOf(folderOrFile: string): { file: string; target: string }[] {
  const abs = join(coreDir, folderOrFile);
  const files = folderOrFile.endsWith('.ts')
    ? [abs]
    : readdirSync(abs)
        .filter((n) => n.endsWith('.ts'))
        .map((n) => join(abs, n));
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']*)'/g)].map((m) => ({ file: file.slice(coreDir.length + 1), target: m[1] as string })),
  );
}

function offenders(folderOrFile: string, allowed: (target: string) => boolean): string[] {
  return importsOf(folderOrFile)
    .filter((i) => !allowed(i.target))
    .map((i) => `${i.file} → ${i.target}`);
}

describe('architecture: imports in src/core point down', () => {
  it('keeps the contracts free of any other core module', () => {
    assert.deepEqual(
      offenders('contracts', (t) => t.startsWith('./')),
      [],
    );
  });

  it('keeps the primitives on the ground floor: only the contracts and node built-ins without I/O', () => {
    assert.deepEqual(
      offenders('primitives', (t) => t.startsWith('./') || t.startsWith('../contracts/')),
      [],
    );
    const dir = join(coreDir, 'primitives');
    const io = readdirSync(dir)
      .filter((n) => n.endsWith('.ts'))
      .flatMap((n) =>
        [...readFileSync(join(dir, n), 'utf8').matchAll(/from '([^'.][^']*)'/g)]
          .map((m) => m[1] as string)
          .filter((t) => !/^node:(?!fs|os|child_process)[a-z_/]+$/.test(t))
          .map((t) => `primitives/${n} → ${t}`),
      );
    assert.deepEqual(io, []);
  });

  it('lets ports.ts see only the contracts', () => {
    assert.deepEqual(
      offenders('ports.ts', (t) => t.startsWith('./contracts/')),
      [],
    );
  });

  for (const floor of ['plan', 'policy', 'edits', 'model', 'hooks']) {
    it(`keeps ${floor}/ below the tools, roles, handoff, trace and mission layers`, () => {
      assert.deepEqual(
        offenders(floor, (t) => !/^\.\.\/(tools|roles|handoff|trace|mission)\//.test(t)),
        [],
      );
    });
  }

  it('keeps tools/ below the roles and the mission engine', () => {
    assert.deepEqual(
      offenders('tools', (t) => !/^\.\.\/(roles|mission)\//.test(t)),
      [],
    );
  });

  it('lets only the entry points (start.ts, resume.ts) import the engine class', () => {
    const importers = importsOf('mission')
      .filter((i) => i.target === './engine')
      .map((i) => i.file);
    assert.deepEqual(importers.sort(), ['mission/resume.ts', 'mission/start.ts']);
  });
});
