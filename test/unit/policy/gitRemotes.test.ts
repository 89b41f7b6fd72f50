import assert from 'node:assert/strict';
import type { HostFacts } from '../../../src/core/contracts/sandbox';
import { localRemotesShown } from '../../../src/core/policy/gitRemotes';

const root = '/work/app';
/** Files on the "disk": the repository's config and the remotes' HEAD files. */
function host(config: string, files: string[] = []): HostFacts {
  const texts: Record<string, string> = { [`${root}/.git/config`]: config, ...Object.fromEntries(files.map((f) => [f, 'ref: refs/heads/main\n'])) };
  return { platform: 'linux', home: '/home/u', pathEntries: [], listDir: () => [], readText: (abs) => texts[abs] };
}
const hidden = ['/home', '/work', '/srv'];
const remote = (url: string): string => `[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;
const shown = (config: string, files: string[], commands = ['git fetch *']): string[] =>
  localRemotesShown(root, commands, hidden, ['.ssh', '.config'], host(config, files));

describe('local remotes shown to a step that may fetch (src/core/policy/gitRemotes.ts)', () => {
  const cases: [string, string, string[], string[], string[]?][] = [
    ['a bare repository beside the workspace', remote('../origin.git'), ['/work/origin.git/HEAD'], ['/work/origin.git']],
    ['a file:// URL', remote('file:///srv/git/app.git'), ['/srv/git/app.git/HEAD'], ['/srv/git/app.git']],
    ['a checkout: only its .git, never its working tree', remote('/work/other'), ['/work/other/.git/HEAD'], ['/work/other/.git']],
    ['an https remote', remote('https://example.invalid/app.git'), [], []],
    ['an ssh remote', remote('git@example.invalid:app.git'), [], []],
    ['a folder that is no repository', remote('../notes'), [], []],
    ['the home itself', remote('/home/u'), ['/home/u/HEAD'], []],
    ['a folder where credentials live', remote('/home/u/.ssh/repo.git'), ['/home/u/.ssh/repo.git/HEAD'], []],
    ['a step that may not fetch', remote('../origin.git'), ['/work/origin.git/HEAD'], [], ['git commit *']],
    ['a step allowed every git command', remote('../origin.git'), ['/work/origin.git/HEAD'], ['/work/origin.git'], ['git *']],
  ];
  for (const [name, config, files, want, commands] of cases) {
    it(`${want.length > 0 ? 'shows' : 'does not show'} ${name}`, () => assert.deepEqual(shown(config, files, commands), want));
  }
});
