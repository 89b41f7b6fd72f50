import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { cacheRoot, codeServerInstallDir, CODE_SERVER_VERSION } from '../../support/host/hostPaths';
import type { CodeServer } from '../../support/host/codeServer';
import { workbenchUrl } from '../../support/host/workbench';

function withEnv<T>(vars: Record<string, string | undefined>, body: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('test host: where code-server is cached', () => {
  it('uses PLAN_EXECUTE_CACHE_DIR when set, so a cold run can start from an empty directory', () => {
    withEnv({ PLAN_EXECUTE_CACHE_DIR: '/tmp/somewhere-empty', XDG_CACHE_HOME: '/ignored' }, () => {
      assert.equal(cacheRoot(), '/tmp/somewhere-empty');
      assert.equal(codeServerInstallDir(), join('/tmp/somewhere-empty', `code-server-${CODE_SERVER_VERSION}`));
    });
  });

  it('falls back to XDG_CACHE_HOME/plan-execute, outside the clone', () => {
    withEnv({ PLAN_EXECUTE_CACHE_DIR: undefined, XDG_CACHE_HOME: '/var/cache/me' }, () => {
      assert.equal(cacheRoot(), '/var/cache/me/plan-execute');
    });
  });
});

describe('test host: the workbench URL', () => {
  const host = { url: 'http://127.0.0.1:4321/', authority: '127.0.0.1:4321' } as CodeServer;

  it('opens the folder and loads the extension and its tests through vscode-remote URIs of the same server', () => {
    const url = new URL(workbenchUrl(host, { folder: '/tmp/ws one', extensionDevelopmentPath: '/repo', extensionTestsPath: '/repo/out/test/index' }));
    assert.equal(url.origin, 'http://127.0.0.1:4321');
    assert.equal(url.searchParams.get('folder'), '/tmp/ws one');
    assert.deepEqual(JSON.parse(url.searchParams.get('payload') ?? 'null'), [
      ['extensionDevelopmentPath', 'vscode-remote://127.0.0.1:4321/repo'],
      ['extensionTestsPath', 'vscode-remote://127.0.0.1:4321/repo/out/test/index'],
    ]);
  });

  it('carries no payload when no extension is loaded', () => {
    const url = new URL(workbenchUrl(host, { folder: '/tmp/ws', extensionDevelopmentPath: null }));
    assert.equal(url.searchParams.get('payload'), null);
  });
});
